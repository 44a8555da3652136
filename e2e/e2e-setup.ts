import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/** Where specs save screenshots for a person to look at. */
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** A fake camera and microphone (a test pattern and a beep), granted without a prompt. */
const FAKE_CAMERA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

/** The demo catalogue and the local payment provider (no Stripe keys): payments run offline. */
export const DEMO_SHOP_ENV = {
  SEED_DEMO: 'true',
  // The always-live demo room is checked by its own test; elsewhere it would only add load.
  DEMO_LIVE: 'false',
  STRIPE_SECRET_KEY: '',
  STRIPE_PUBLISHABLE_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
};

export interface E2eOptions {
  /**
   * Environment for the server, beside the launcher's own; a function is called just before the
   * server starts (for values known only then, e.g. a test SMTP server's URL).
   */
  env?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Give the browser a fake camera and microphone. */
  camera?: boolean;
  /** Options for every page's context (e.g. bypassCSP for the axe scans). */
  page?: BrowserContextOptions;
}

export interface E2e {
  readonly server: RunningServer;
  readonly browser: Browser;
  /**
   * A fresh page in its own context. Opened in a test, it is closed when that test finishes (a page
   * left open keeps its timers and animations running through every later test): `keep` keeps it
   * for the spec's later tests. Opened outside a test (beforeAll), it is closed after the spec.
   */
  newPage: (options?: BrowserContextOptions, lifetime?: { keep?: boolean }) => Promise<WatchedPage>;
  /** An absolute URL on the server. */
  url: (path: string) => string;
}

/** Closes the page when the running test finishes; outside a test (beforeAll) it stays for the spec. */
function closeWithTest(watched: WatchedPage) {
  try {
    onTestFinished(() => watched.close());
  } catch {
    // Not in a test: closed with the others after the spec.
  }
}

/**
 * One spec's server (the real one, in a child process on 127.0.0.1) and Chromium, started before
 * the spec's tests and stopped after them; whatever started is stopped even if the other failed.
 */
export function useE2e(options: E2eOptions = {}): E2e {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([
      (async () => startServer(typeof options.env === 'function' ? await options.env() : options.env))(),
      launchBrowser(options.camera ? FAKE_CAMERA : []),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(pages.map((watched) => watched.close()));
    await browser?.close();
    await server?.stop();
  });

  const e2e: E2e = {
    get server() {
      if (!server) throw new Error('the e2e server has not started');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the e2e browser has not started');
      return browser;
    },
    newPage: async (pageOptions = {}, lifetime = {}) => {
      const watched = await openPage(e2e.browser, {
        baseURL: e2e.server.url,
        ...options.page,
        ...pageOptions,
      });
      pages.push(watched);
      if (!lifetime.keep) closeWithTest(watched);
      return watched;
    },
    url: (path) => new URL(path, e2e.server.url).toString(),
  };
  return e2e;
}
