/**
 * Glass-to-glass latency of the live video, broadcaster to viewer, in a real browser.
 *
 * The real server (server/src/main.ts, fresh PGlite DATA_DIR) runs in a child process; one
 * Debian Chromium (/usr/bin/chromium, the e2e launcher's flags) runs every page, so every page
 * reads the same system clock. The broadcaster's camera is Chromium's fake capture device fed
 * from a Y4M file made with ffmpeg at bench time: 640x360, 30 fps, a 10-second loop whose every
 * frame shows its number (0–299) as a barcode of 24 large black/white blocks (12 bits, each bit
 * once as itself and once inverted: a frame decodes only when all 12 pairs clearly differ, so a
 * smeared or half-decoded frame never gives a wrong number). The frame numbers repeat every 10 s;
 * a viewer frame is matched to the broadcaster's showing of the same number within the 5 s before
 * it, so latencies up to 5 s are measured and anything later counts as unmatched.
 *
 * A probe script in every page hooks requestVideoFrameCallback on its <video>, draws each frame
 * into a 96x54 canvas, decodes the blocks and logs (frame, time): the time is the frame's
 * expectedDisplayTime, turned into wall time with an offset taken in that page (Date.now() at a
 * millisecond tick − performance.now()), because performance.timeOrigin differs per page.
 *
 *   broadcaster  a signed-up seller goes live through /golive and Start Stream (the app's own
 *                MediaRecorder → /ws/publish); the probe reads the camera preview
 *                (data-testid="camera-preview")
 *   viewer       a signed-out viewer in its own browser context on /room/:name (MSE player,
 *                data-testid="live-video"); latency = viewer time − preview time of the same frame,
 *                median / p95 / p99 over the measured window (60 s)
 *   late joins   3 more signed-out contexts open the room during the window (the first after the
 *                stream has run ~20 s), each with a cold cache: navigation start → first frame
 *                presented, with the media WebSocket's open and first bytes on the way
 *   baseline     before going live, in its own context: one page records the same fake camera with
 *                the app's MediaRecorder settings and appends the chunks straight into MSE in the
 *                same page, with the player's live-edge rule: the floor of record → MSE playback
 *                with no network and no server. The preview's own camera → preview delay
 *                (requestVideoFrameCallback's captureTime) is reported too.
 *
 *   npm run bench -- latency [--seconds=60] [--warmup=5] [--late-joins=3] [--baseline-seconds=12]
 *                            [--max-seconds=150]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) The stream runs on the free
 * plan (1:39), so warm-up + seconds must stay under ~90 s. The whole run stops by itself after
 * --max-seconds: Chromium and the server are stopped, the temp folder removed, and the exit code
 * is 3. Needs ffmpeg and the built web app (it runs `npm run build` first when web/dist is missing).
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { signUpThroughForm } from '../e2e/accounts.ts';
import { launchBrowser, openPage, type WatchedPage } from '../e2e/browser.ts';
import { startServerProcess } from '../server/src/test/server-process.ts';
import {
  type Flow,
  flow,
  type LateJoin,
  match,
  type Shown,
  type Stats,
  shown,
  stats,
  timeline,
} from './latency/analysis.ts';
import { CLIP, CLIP_FRAMES, makeClip } from './latency/clip.ts';
import {
  loopbackPage,
  type ProbeState,
  probeScript,
  readProbe,
  waitForDecodedFrame,
} from './latency/probe.ts';
import { percentile, type Row, report } from './report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULTS = { seconds: 60, warmup: 5, lateJoins: 3, baselineSeconds: 12, maxSeconds: 150 };
const TARGET = { medianMs: 800, aimMedianMs: 500, lateJoinFirstFrameMs: 1000 };
/** The clip: 640x360 at 30 fps, a 10 s loop. 345.6 KB a frame, 104 MB in all. */
/** A viewer frame may show up this much before the preview's copy (clock and vsync noise). */
const LATE_JOIN_HOLD_MS = 5000;
const FIRST_FRAME_TIMEOUT_MS = 10_000;

const PREVIEW = 'video[data-testid="camera-preview"]';
const LIVE_VIDEO = 'video[data-testid="live-video"]';

const _sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

// ---------------------------------------------------------------------------------------------
// Options and the hard cap
// ---------------------------------------------------------------------------------------------

interface Options {
  seconds: number;
  warmup: number;
  lateJoins: number;
  baselineSeconds: number;
  maxSeconds: number;
}

function parseOptions(argv: string[]): Options {
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const options = {
    seconds: number('seconds', DEFAULTS.seconds, 10, 85),
    warmup: number('warmup', DEFAULTS.warmup, 1, 20),
    lateJoins: number('late-joins', DEFAULTS.lateJoins, 0, 5),
    baselineSeconds: number('baseline-seconds', DEFAULTS.baselineSeconds, 0, 60),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 900),
  };
  if (options.seconds + options.warmup > 90)
    throw new Error('--warmup + --seconds must be at most 90: the free plan ends the stream at 1:39');
  return options;
}

const stopAll = new AbortController();
function checkNotStopped(): void {
  if (stopAll.signal.aborted) throw stopAll.signal.reason;
}

/** Sleeps, but wakes up (and throws) when the run is stopped. */
async function wait(ms: number): Promise<void> {
  checkNotStopped();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      stopAll.signal.removeEventListener('abort', done);
      resolve();
    }
    stopAll.signal.addEventListener('abort', done, { once: true });
  });
  checkNotStopped();
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

interface ServerHandle {
  proc: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** The real server on a fresh PGlite DATA_DIR (the shared launcher), stopped with the run. */
async function startServer(dataDir: string, onStarted: (proc: ChildProcess) => void): Promise<ServerHandle> {
  const server = await startServerProcess({
    dataDir,
    signal: stopAll.signal,
    readyTimeoutMs: 60_000,
    env: { SHUTDOWN_GRACE_MS: '5000' },
  });
  onStarted(server.proc);
  return {
    proc: server.proc,
    base: server.url,
    async stop() {
      await server.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function problemsOf(watched: WatchedPage): string[] {
  return watched.problems
    .filter((p) => !(p.kind === 'console' && /status of 401/.test(p.text) && /\/api\/auth\/user/.test(p.url)))
    .map((p) => `[${p.kind}] ${p.text.slice(0, 300)}`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const loadAverageBefore = loadavg();
  console.log(
    `latency: ${options.seconds} s measured (+${options.warmup} s warm-up), ${options.lateJoins} late joins, ` +
      `${options.baselineSeconds} s loopback baseline; ${availableParallelism()} CPUs, load ` +
      `${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')}; hard cap ${options.maxSeconds} s`,
  );
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');

  if (!existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
    console.log('  web/dist is missing: npm run build (not counted in the hard cap)');
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }

  const started = performance.now();
  const temp = mkdtempSync(path.join(tmpdir(), 'ss-latency-bench-'));
  const clipFile = path.join(temp, 'clip.y4m');
  const dataDir = path.join(temp, 'data');
  let serverProc: ChildProcess | undefined;
  let server: ServerHandle | undefined;
  let browser: Browser | undefined;
  let cleaning: Promise<void> | undefined;
  /** Closes Chromium, stops the server and removes the temp folder; once, however often called. */
  const cleanup = () => {
    cleaning ??= (async () => {
      await browser?.close().catch(() => {});
      if (server) await server.stop();
      else serverProc?.kill('SIGKILL');
      rmSync(temp, { recursive: true, force: true });
    })();
    return cleaning;
  };
  // Whatever happens: no server left behind (Playwright ends its own Chromium on exit).
  const killOnExit = () => serverProc?.kill('SIGKILL');
  process.once('exit', killOnExit);
  const onSignal = (signal: NodeJS.Signals) => {
    stopAll.abort(new Error(`${signal} received`));
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const hardCap = setTimeout(() => {
    console.error(`!! latency: the hard cap of ${options.maxSeconds} s is reached; stopping`);
    stopAll.abort(new Error(`hard cap of ${options.maxSeconds} s reached`));
    void cleanup();
    setTimeout(() => {
      serverProc?.kill('SIGKILL');
      rmSync(temp, { recursive: true, force: true });
      process.exit(3);
    }, 20_000).unref();
  }, options.maxSeconds * 1000);
  hardCap.unref();

  try {
    // --- setup: the clip, the server and Chromium --------------------------------------------------
    const clipPromise = makeClip(clipFile);
    server = await startServer(dataDir, (proc) => {
      serverProc = proc;
    });
    const base = server.base;
    const clip = await clipPromise;
    console.log(
      `  server on ${base}, ready in ${fixed((performance.now() - started) / 1000)} s; clip ` +
        `${CLIP.width}x${CLIP.height} ${CLIP.fps} fps ${CLIP_FRAMES} frames, ${fixed(clip.bytes / 1e6, 0)} MB in ${fixed(clip.ms / 1000)} s`,
    );
    checkNotStopped();
    browser = await launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${clipFile}`,
      '--autoplay-policy=no-user-gesture-required',
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ]);
    const chromiumVersion = browser.version();
    const open = async (targets: Array<{ name: string; selector: string }>) => {
      checkNotStopped();
      const watched = await openPage(browser as Browser, { baseURL: base });
      await watched.context.addInitScript({ content: probeScript(targets) });
      return watched;
    };

    // --- baseline: record → MSE in one page, no network, no server ---------------------------------
    let loopback: { state: ProbeState; status: unknown; fromAt: number; toAt: number } | undefined;
    if (options.baselineSeconds > 0) {
      const watched = await open([
        { name: 'preview', selector: '#preview' },
        { name: 'playback', selector: '#playback' },
      ]);
      const url = `${base}/__latency-bench/loopback`;
      await watched.page.route(url, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: loopbackPage() }),
      );
      await watched.page.goto(url);
      await waitForDecodedFrame(watched.page, 'playback', 15_000);
      await wait(2000);
      const fromAt = Date.now();
      await wait(options.baselineSeconds * 1000);
      const toAt = Date.now();
      loopback = {
        state: await readProbe(watched.page),
        status: await watched.page.evaluate(() => (window as unknown as { __loopback: unknown }).__loopback),
        fromAt,
        toAt,
      };
      await watched.close();
      console.log(`  baseline (loopback) recorded for ${options.baselineSeconds} s`);
    }

    // --- the broadcaster goes live ----------------------------------------------------------------
    const seller = await open([{ name: 'preview', selector: PREVIEW }]);
    await signUpThroughForm(seller.page, 'latency');
    await seller.page.goto('/golive');
    await seller.page.getByLabel('Stream title').fill('Latency bench');
    await seller.page.getByTestId('golive-submit').click();
    await seller.page.waitForURL(/\/room\/latency-bench-[0-9a-f]+$/);
    const roomPath = new URL(seller.page.url()).pathname;
    await waitForDecodedFrame(seller.page, 'preview', 15_000);
    checkNotStopped();
    await seller.page.getByTestId('start-stream').click();
    await seller.page.getByTestId('live-badge').waitFor();
    const streamStartedAt = Date.now();
    console.log(`  live in ${roomPath}`);

    // --- the viewer, then the measured window with the late joins in it -------------------------------
    const viewer = await open([{ name: 'live', selector: LIVE_VIDEO }]);
    const viewerGotoAt = Date.now();
    await viewer.page.goto(roomPath);
    await waitForDecodedFrame(viewer.page, 'live', 15_000);
    const viewerFirstFrameMs = Date.now() - viewerGotoAt;
    await wait(options.warmup * 1000);
    const fromAt = Date.now();
    const toAt = fromAt + options.seconds * 1000;
    console.log(
      `  viewer playing (first frame ${viewerFirstFrameMs} ms after goto); measuring ${options.seconds} s`,
    );

    const lateJoinRuns: Array<{
      index: number;
      gotoAt: number;
      closedAt: number;
      state?: ProbeState;
      error?: string;
      problems: string[];
    }> = [];
    const lateJoins = (async () => {
      for (let i = 0; i < options.lateJoins; i++) {
        await wait(fromAt + (options.seconds * 1000 * (i + 1)) / (options.lateJoins + 1) - Date.now());
        const watched = await open([{ name: 'live', selector: LIVE_VIDEO }]);
        const run: (typeof lateJoinRuns)[number] = {
          index: i + 1,
          gotoAt: Date.now(),
          closedAt: 0,
          problems: [],
        };
        lateJoinRuns.push(run);
        try {
          await watched.page.goto(roomPath);
          await waitForDecodedFrame(watched.page, 'live', FIRST_FRAME_TIMEOUT_MS);
          await wait(LATE_JOIN_HOLD_MS);
        } catch (error) {
          checkNotStopped();
          run.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
        run.state = await readProbe(watched.page).catch(() => undefined);
        run.problems = problemsOf(watched);
        await watched.close();
        run.closedAt = Date.now();
        console.log(`  late join ${i + 1} done${run.error ? `: ${run.error}` : ''}`);
      }
    })();
    await wait(toAt - Date.now());
    await lateJoins;
    const [sellerState, viewerState] = await Promise.all([readProbe(seller.page), readProbe(viewer.page)]);
    const sellerProblems = problemsOf(seller);
    const viewerProblems = problemsOf(viewer);
    const loadAverageAfter = loadavg();
    await cleanup();
    const cleanedAt = performance.now();

    // --- figures -------------------------------------------------------------------------------------
    const preview = shown(sellerState, 'preview');
    const live = shown(viewerState, 'live');
    const inWindow = (s: Shown) => s.at >= fromAt && s.at <= toAt;
    const main = match(preview.decoded, live.decoded.filter(inWindow));
    const latency = stats(main.samples.map((s) => s.ms));
    const busy = lateJoinRuns.map((r) => [r.gotoAt, r.closedAt || toAt] as const);
    const quietSamples = main.samples.filter((s) => !busy.some(([a, b]) => s.at >= a && s.at <= b));
    const quiet = stats(quietSamples.map((s) => s.ms));
    const viewerFlow = flow(live.decoded, fromAt, toAt);
    const previewFlow = flow(preview.decoded, fromAt, toAt);
    const viewerSeeks = (viewerState.targets.live?.seeks ?? []).filter((t) =>
      inWindow({ frame: 0, at: viewerState.offsetMs + t }),
    ).length;
    const viewerUndecoded = live.all.filter((s) => inWindow(s) && s.frame < 0).length;
    const previewUndecoded = preview.all.filter((s) => inWindow(s) && s.frame < 0).length;
    const perSecond = timeline(main.samples, live.decoded, fromAt, toAt);

    // Camera → preview, from requestVideoFrameCallback's captureTime (when Chromium gives one).
    const captureDelays = (sellerState?.targets.preview?.frames ?? [])
      .filter(([frame, , expected, capture]) => frame >= 0 && capture > 0 && expected > 0)
      .filter(([, , expected]) => inWindow({ frame: 0, at: sellerState.offsetMs + expected }))
      .map(([, , expected, capture]) => expected - capture);
    const cameraToPreview = stats(captureDelays);

    // The baseline: the loopback page's playback vs its own preview.
    let base_:
      | {
          latency: Stats;
          perSecond: ReturnType<typeof timeline>;
          unmatched: number;
          flow: Flow;
          previewFlow: Flow;
        }
      | undefined;
    if (loopback) {
      const lbPreview = shown(loopback.state, 'preview');
      const lbPlayback = shown(loopback.state, 'playback');
      const m = match(
        lbPreview.decoded,
        lbPlayback.decoded.filter((s) => s.at >= loopback.fromAt && s.at <= loopback.toAt),
      );
      base_ = {
        latency: stats(m.samples.map((s) => s.ms)),
        perSecond: timeline(m.samples, lbPlayback.decoded, loopback.fromAt, loopback.toAt),
        unmatched: m.unmatched,
        flow: flow(lbPlayback.decoded, loopback.fromAt, loopback.toAt),
        previewFlow: flow(lbPreview.decoded, loopback.fromAt, loopback.toAt),
      };
    }

    const joins: LateJoin[] = lateJoinRuns.map((run) => {
      const state = run.state;
      const entries = state?.targets.live?.frames ?? [];
      const first = entries[0];
      const firstDecoded = entries.find((f) => f[0] >= 0);
      const mediaSocket = state?.sockets.find((s) => s.url.includes('/ws/media'));
      const joined = shown(state, 'live');
      const m = match(preview.decoded, joined.decoded);
      const firstAt = first && state ? state.offsetMs + first[2] : Number.NaN;
      const atMs = (t: number | undefined) => (t === undefined || t < 0 ? Number.NaN : t);
      return {
        index: run.index,
        atWindowSec: (run.gotoAt - fromAt) / 1000,
        atStreamSec: (run.gotoAt - streamStartedAt) / 1000,
        firstFrameMs: first ? first[2] : Number.NaN,
        firstFrameFromGotoMs: firstAt - run.gotoAt,
        firstFrameDecoded: !!first && first === firstDecoded,
        htmlMs: atMs(state?.navigation?.responseEnd),
        domContentLoadedMs: atMs(state?.navigation?.domContentLoaded),
        streamApiMs: atMs(state?.navigation?.streamApiEnd),
        mediaSocketCreatedMs: atMs(mediaSocket?.createdAt),
        mediaSocketOpenMs: atMs(mediaSocket?.openAt),
        firstMediaBytesMs: atMs(mediaSocket?.firstBinaryAt),
        firstFrameLatencyMs: m.samples[0]?.ms ?? Number.NaN,
        settledLatencyMs: percentile(
          m.samples.filter((s) => s.at >= (m.samples[0]?.at ?? 0) + 2000).map((s) => s.ms),
          50,
        ),
        framesShown: joined.decoded.length,
        resources: state?.navigation?.resources ?? [],
        ...(run.error ? { error: run.error } : {}),
        problems: run.problems,
      };
    });

    const medianMet = latency.p50 <= TARGET.medianMs;
    const verdicts = [
      `${medianMet ? 'met' : 'MISSED'}: median glass-to-glass ${fixed(latency.p50, 0)} ms ≤ ${TARGET.medianMs} ms` +
        ` (aim ≤ ${TARGET.aimMedianMs} ms: ${latency.p50 <= TARGET.aimMedianMs ? 'met' : 'not yet'}); p95 ${fixed(latency.p95, 0)} ms`,
      ...joins.map(
        (j) =>
          `${j.firstFrameMs <= TARGET.lateJoinFirstFrameMs ? 'met' : 'MISSED'}: late join ${j.index} ` +
          `(${fixed(j.atStreamSec, 0)} s into the stream): first frame ${fixed(j.firstFrameMs, 0)} ms after navigation start ≤ ${TARGET.lateJoinFirstFrameMs} ms` +
          (j.error ? ` (${j.error})` : ''),
      ),
    ];

    const bl = base_?.latency;
    const rows: Row[] = [
      {
        metric: 'glass-to-glass p50',
        value: latency.p50,
        unit: 'ms',
        ...(bl ? { baseline: bl.p50 } : {}),
        note: `target ≤ ${TARGET.medianMs} ms (aim ≤ ${TARGET.aimMedianMs}): ${medianMet ? 'met' : 'MISSED'}; ${latency.n} frames`,
      },
      { metric: 'glass-to-glass p95', value: latency.p95, unit: 'ms', ...(bl ? { baseline: bl.p95 } : {}) },
      { metric: 'glass-to-glass p99', value: latency.p99, unit: 'ms', ...(bl ? { baseline: bl.p99 } : {}) },
      {
        metric: 'glass-to-glass min / max',
        value: latency.min,
        unit: 'ms',
        ...(bl ? { baseline: bl.min } : {}),
        note: `max ${fixed(latency.max, 0)} ms (baseline ${fixed(bl?.max ?? Number.NaN, 0)} ms)`,
      },
      {
        metric: 'glass-to-glass p50 / p95, no late joiner loading',
        value: quiet.p50,
        unit: 'ms',
        note: `p95 ${fixed(quiet.p95, 0)} ms; ${quiet.n} frames outside the late joins`,
      },
      {
        metric: 'viewer frames shown/s',
        value: viewerFlow.fps,
        unit: '/s',
        ...(base_ ? { baseline: base_.flow.fps } : {}),
        note: `preview ${fixed(previewFlow.fps)}/s; the clip is ${CLIP.fps} fps`,
      },
      {
        metric: 'viewer longest gap between frames',
        value: viewerFlow.longestGapMs,
        unit: 'ms',
        ...(base_ ? { baseline: base_.flow.longestGapMs } : {}),
        note: `preview ${fixed(previewFlow.longestGapMs, 0)} ms`,
      },
      {
        metric: 'viewer frames skipped / repeated',
        value: viewerFlow.skipped,
        unit: '',
        note: `live-edge jumps (seeks) ${viewerSeeks}; repeated or backwards ${viewerFlow.repeats}; preview skipped ${previewFlow.skipped}; unmatched ${main.unmatched}, undecoded ${viewerUndecoded} (preview ${previewUndecoded})`,
      },
      ...joins.map(
        (j): Row => ({
          metric: `late join ${j.index}: navigation → first frame`,
          value: j.firstFrameMs,
          unit: 'ms',
          note:
            `target ≤ ${TARGET.lateJoinFirstFrameMs} ms: ${j.firstFrameMs <= TARGET.lateJoinFirstFrameMs ? 'met' : 'MISSED'}; ` +
            `${fixed(j.atStreamSec, 0)} s into the stream; HTML ${fixed(j.htmlMs, 0)}, DOMContentLoaded ` +
            `${fixed(j.domContentLoadedMs, 0)}, room API ${fixed(j.streamApiMs, 0)}, media socket created ` +
            `${fixed(j.mediaSocketCreatedMs, 0)} / open ${fixed(j.mediaSocketOpenMs, 0)} / first bytes ` +
            `${fixed(j.firstMediaBytesMs, 0)} ms; first frame ${fixed(j.firstFrameLatencyMs, 0)} ms behind, ` +
            `then p50 ${fixed(j.settledLatencyMs, 0)} ms` +
            (j.error ? `; ${j.error}` : ''),
        }),
      ),
      {
        metric: 'first viewer: goto → first frame',
        value: viewerFirstFrameMs,
        unit: 'ms',
        note: 'seen from this process (waitForFunction polling included), stream just started',
      },
      {
        metric: 'camera → preview (captureTime) p50',
        value: cameraToPreview.p50,
        unit: 'ms',
        note: cameraToPreview.n
          ? `p95 ${fixed(cameraToPreview.p95, 0)} ms; ${cameraToPreview.n} frames`
          : 'Chromium gave no captureTime',
      },
    ];
    const name = options.seconds === DEFAULTS.seconds ? 'latency' : `latency-${options.seconds}s`;
    report(name, rows, {
      options,
      machine: {
        cpus: availableParallelism(),
        loadAverageBefore,
        loadAverageAfter,
        chromium: chromiumVersion,
      },
      target: TARGET,
      method:
        'fake camera from a Y4M clip whose frames carry their number as a block barcode; requestVideoFrameCallback ' +
        'on the preview and on the viewer <video>, canvas decode; time = expectedDisplayTime in wall time (per-page ' +
        'Date.now() offset); latency = viewer time − preview time of the same frame; one Chromium, separate contexts',
      baseline:
        'loopback: the same camera recorded with the app’s MediaRecorder settings and appended to MSE in the same page ' +
        '(no network, no server), with the player’s live-edge rule; playback time − preview time of the same frame',
      clip: { ...CLIP, frames: CLIP_FRAMES, bytes: clip.bytes, generateMs: clip.ms },
      latency: { ...latency, unmatched: main.unmatched, undecoded: viewerUndecoded, perSecond },
      quiet,
      viewerFlow: { ...viewerFlow, seeks: viewerSeeks },
      previewFlow,
      cameraToPreview,
      loopback: base_ ? { ...base_, status: loopback?.status } : undefined,
      lateJoins: joins,
      viewerFirstFrameMs,
      clocks: {
        note: 'per page: offset (Date.now() − performance.now()) vs performance.timeOrigin; they should agree to ~1 ms',
        pages: (
          [
            ['seller', sellerState],
            ['viewer', viewerState],
            ...lateJoinRuns.map((r) => [`late ${r.index}`, r.state] as const),
          ] as Array<readonly [string, ProbeState | undefined]>
        ).map(([label, s]) => ({
          page: label,
          offsetMinusTimeOriginMs: s ? s.offsetMs - s.timeOrigin : Number.NaN,
        })),
      },
      problems: { seller: sellerProblems, viewer: viewerProblems },
      durationSec: (cleanedAt - started) / 1000,
      verdicts,
    });
    console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
    if (latency.n === 0) {
      console.error('!! no latency sample: the viewer showed no frame the broadcaster showed');
      process.exitCode = 1;
    }
  } finally {
    clearTimeout(hardCap);
    await cleanup();
    process.removeListener('exit', killOnExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    console.log(`latency: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
}

try {
  await main();
} catch (error) {
  console.error(stopAll.signal.aborted ? `latency: stopped: ${stopAll.signal.reason}` : error);
  process.exitCode = stopAll.signal.aborted ? 3 : 1;
}
