import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { User } from '@streamshop/contract/auth.ts';
import { PRERENDERED_PATHS, type PrerenderedPath, prerenderedFile } from '@streamshop/contract/seo.ts';
import { act, configure, screen, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../components/ui/use-toast.ts';
import { startApp } from './start.tsx';

// The route chunks load on first use; on a busy machine that can take a while.
configure({ asyncUtilTimeout: 5000 });

const ana: User = {
  id: 'u1',
  handle: 'ana',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

let root: Root | undefined;

/** The auth check answers `auth` when `release` is called (never, by default). */
function stubAuth(auth: User | 'signed-out') {
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url !== '/api/auth/user') return new Response('', { status: 404 });
      await answered;
      return auth === 'signed-out'
        ? new Response('{"message":"Unauthorized"}', { status: 401 })
        : new Response(JSON.stringify(auth), { headers: { 'content-type': 'application/json' } });
    }),
  );
  vi.stubGlobal('scrollTo', () => {});
  return release;
}

/**
 * The build-time markup of every page, made by the real prerender script (a Vite SSR build of
 * src/prerender.tsx, production React) in its own process, as `npm run build` makes it.
 */
const fragments = mkdtempSync(path.join(tmpdir(), 'ss-prerender-'));
beforeAll(() => {
  const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  execFileSync(process.execPath, ['scripts/prerender.mjs', `--fragments=${fragments}`], {
    cwd: web,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}, 60_000);
afterAll(() => rmSync(fragments, { recursive: true, force: true }));

/** Puts the build-time HTML of `route` into the document, as the server sends it. */
async function serve(route: PrerenderedPath): Promise<HTMLElement> {
  const markup = readFileSync(path.join(fragments, prerenderedFile(route)), 'utf8');
  window.history.replaceState(null, '', route);
  document.body.innerHTML = `<div id="root" data-prerendered="">${markup}</div>`;
  return document.getElementById('root') as HTMLElement;
}

afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetToasts();
});

describe('prerendered marketing pages', () => {
  it.each(PRERENDERED_PATHS)('%s hydrates the server markup without a mismatch', async (path) => {
    stubAuth('signed-out');
    const container = await serve(path);
    const headline = container.querySelector('h1');
    expect(headline).not.toBeNull();
    expect(container.querySelector('[data-testid="auth-loading"]')).toBeNull();

    // React (development build here) reports every mismatch, attributes included, on console.error.
    const consoleErrors = vi.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    await act(async () => {
      root = await startApp(container, { onRecoverableError: (error) => recoverable.push(error) });
    });
    // Hydrated: the server's nodes are kept (a mismatch would have redrawn them), and React owns them.
    await waitFor(() =>
      expect(Object.keys(container.querySelector('h1') ?? {})).toContainEqual(
        expect.stringMatching(/^__react/),
      ),
    );
    expect(container.querySelector('h1')).toBe(headline);
    expect(recoverable).toEqual([]);
    expect(consoleErrors.mock.calls).toEqual([]);
  });

  it('keeps the page while the auth check runs and drops Log In once it says signed in', async () => {
    const release = stubAuth(ana);
    const container = await serve('/about');
    await act(async () => {
      root = await startApp(container);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'About StreamShop' })).toBeTruthy();
    expect(screen.getByTestId('nav-sign-in')).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(screen.queryByTestId('nav-sign-in')).toBeNull());
    expect(screen.getByRole('heading', { level: 1, name: 'About StreamShop' })).toBeTruthy();
  });

  it('shows the marketplace at / once the auth check says signed in', async () => {
    const release = stubAuth(ana);
    const container = await serve('/');
    await act(async () => {
      root = await startApp(container);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Shop live. Sell live.' })).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'Marketplace' })).toBeTruthy();
  });
});
