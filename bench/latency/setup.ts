/** Phase 1, set-up: the built web app, the barcode clip, the server and one Chromium whose camera plays the clip. */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, type WatchedPage } from '../../e2e/browser.ts';
import { CLIP, CLIP_FRAMES, makeClip } from './clip.ts';
import type { Options } from './options.ts';
import { probeScript } from './probe.ts';
import { startServer } from './server.ts';
import { checkNotStopped, fixed } from './stop.ts';
import { Teardown } from './teardown.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Rig {
  options: Options;
  /** performance.now() when the timed run began (after any build). */
  started: number;
  teardown: Teardown;
  base: string;
  /** The server process (its ffmpeg children are found through it). */
  serverPid: number;
  browser: Browser;
  chromiumVersion: string;
  clip: { bytes: number; ms: number };
  loadAverageBefore: number[];
  /** A fresh browser context (cold cache, no cookies) with the probe watching the given videos. */
  open(targets: Array<{ name: string; selector: string }>): Promise<WatchedPage>;
}

/** Prints the plan and the machine's load; builds the web app when web/dist is missing (not timed). */
export function announce(options: Options): number[] {
  const loadAverageBefore = loadavg();
  console.log(
    `latency: ${options.ingests.join(', ')} ingest, ${options.seconds} s measured each (+${options.warmup} s warm-up) ` +
      `on WS, HLS and hls.js viewers, ${options.lateJoins} late joins, ${options.baselineSeconds} s loopback baseline, ` +
      `${options.idleSeconds} s idle CPU; ${availableParallelism()} CPUs, load ` +
      `${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')}; hard cap ${options.maxSeconds} s`,
  );
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');
  if (!existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
    console.log('  web/dist is missing: npm run build (not counted in the hard cap)');
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  return loadAverageBefore;
}

/** The temp folder and its teardown, armed with the hard cap: call before setUp. */
export function prepare(options: Options): Teardown {
  const teardown = new Teardown(mkdtempSync(path.join(tmpdir(), 'ss-latency-bench-')));
  teardown.arm(options.maxSeconds);
  return teardown;
}

export async function setUp(
  options: Options,
  teardown: Teardown,
  loadAverageBefore: number[],
  started: number,
): Promise<Rig> {
  const clipFile = path.join(teardown.temp, 'clip.y4m');
  const clipPromise = makeClip(clipFile);
  const server = await startServer(path.join(teardown.temp, 'data'), (proc) => {
    teardown.serverProc = proc;
  });
  teardown.server = server;
  const base = server.base;
  const clip = await clipPromise;
  console.log(
    `  server on ${base}, ready in ${fixed((performance.now() - started) / 1000)} s; clip ` +
      `${CLIP.width}x${CLIP.height} ${CLIP.fps} fps ${CLIP_FRAMES} frames, ${fixed(clip.bytes / 1e6, 0)} MB in ${fixed(clip.ms / 1000)} s`,
  );
  checkNotStopped();
  const browser = await launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${clipFile}`,
    '--autoplay-policy=no-user-gesture-required',
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ]);
  teardown.browser = browser;
  return {
    options,
    started,
    teardown,
    base,
    serverPid: server.proc.pid ?? 0,
    browser,
    chromiumVersion: browser.version(),
    clip,
    loadAverageBefore,
    async open(targets) {
      checkNotStopped();
      const watched = await openPage(browser, { baseURL: base });
      await watched.context.addInitScript({ content: probeScript(targets) });
      return watched;
    },
  };
}
