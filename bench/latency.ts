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
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import {
  LIVE_EDGE_MAX_LAG_SEC,
  LIVE_EDGE_TARGET_SEC,
  MEDIA_KEYFRAME_INTERVAL_MS,
  MEDIA_MIME_TYPES,
  MEDIA_TIMESLICE_MS,
} from '../contract/src/live.ts';
import { signUpThroughForm } from '../e2e/accounts.ts';
import { launchBrowser, openPage, type WatchedPage } from '../e2e/browser.ts';
import { startServerProcess } from '../server/src/test/server-process.ts';
import { percentile, type Row, report } from './report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULTS = { seconds: 60, warmup: 5, lateJoins: 3, baselineSeconds: 12, maxSeconds: 150 };
const TARGET = { medianMs: 800, aimMedianMs: 500, lateJoinFirstFrameMs: 1000 };
/** The clip: 640x360 at 30 fps, a 10 s loop. 345.6 KB a frame, 104 MB in all. */
const CLIP = { width: 640, height: 360, fps: 30, loopSec: 10, bits: 12, cols: 6, rows: 4 } as const;
const CLIP_FRAMES = CLIP.fps * CLIP.loopSec;
const LOOP_MS = CLIP.loopSec * 1000;
/** A viewer frame may show up this much before the preview's copy (clock and vsync noise). */
const MATCH_SLACK_MS = 50;
/** Luma of the blocks (video range) and the least difference, 0–255 RGB, of every bit pair. */
const Y_BLACK = 16;
const Y_WHITE = 235;
const MIN_CONTRAST = 80;
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
// The clip: frame numbers as block barcodes, piped through ffmpeg into a Y4M file
// ---------------------------------------------------------------------------------------------

/** Cell k of the grid is bit k (k < bits) or bit k − bits inverted. */
function cellIsWhite(frame: number, cell: number): boolean {
  const bit = (frame >> (cell % CLIP.bits)) & 1;
  return cell < CLIP.bits ? bit === 1 : bit === 0;
}

function yuvFrame(frame: number): Buffer {
  const { width, height, cols, rows } = CLIP;
  const lumaSize = width * height;
  const buffer = Buffer.alloc(lumaSize * 1.5, 128); // chroma planes: neutral grey
  for (let cell = 0; cell < cols * rows; cell++) {
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    const x0 = Math.floor((col * width) / cols);
    const x1 = Math.floor(((col + 1) * width) / cols);
    const y0 = Math.floor((row * height) / rows);
    const y1 = Math.floor(((row + 1) * height) / rows);
    const luma = cellIsWhite(frame, cell) ? Y_WHITE : Y_BLACK;
    for (let y = y0; y < y1; y++) buffer.fill(luma, y * width + x0, y * width + x1);
  }
  return buffer;
}

async function makeClip(file: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const { width, height, fps } = CLIP;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(fps), '-i', '-'],
      ...['-f', 'yuv4mpegpipe', '-y', file],
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  const exited = once(ffmpeg, 'close') as Promise<[number | null]>;
  const failed = once(ffmpeg, 'error').then(([error]) => {
    throw new Error(`ffmpeg could not be started: ${(error as Error).message}`);
  });
  const write = async () => {
    for (let frame = 0; frame < CLIP_FRAMES; frame++) {
      if (!ffmpeg.stdin.write(yuvFrame(frame))) await once(ffmpeg.stdin, 'drain');
    }
    ffmpeg.stdin.end();
    const [code] = await exited;
    if (code !== 0) throw new Error(`ffmpeg exited with code ${code}`);
  };
  await Promise.race([write(), failed]);
  return { bytes: statSync(file).size, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// The probe: runs in every page before its own scripts (a string: tsx's helpers must not leak in)
// ---------------------------------------------------------------------------------------------

/** [frame (−1: no barcode), rVFC now, expectedDisplayTime, captureTime (−1: none), mediaTime, presentedFrames, width] */
type FrameEntry = [number, number, number, number, number, number, number];

interface ProbeTarget {
  frames: FrameEntry[];
  failures: number;
  elements: number;
  /** performance.now() of every 'seeking' event (the player's live-edge jumps included). */
  seeks: number[];
  error?: string;
}

interface SocketEntry {
  url: string;
  createdAt: number;
  openAt: number;
  firstTextAt: number;
  firstBinaryAt: number;
  binaryMessages: number;
  binaryBytes: number;
}

interface ProbeState {
  /** Wall time (ms) = offsetMs + a performance.now() time of this page. */
  offsetMs: number;
  timeOrigin: number;
  targets: Record<string, ProbeTarget>;
  sockets: SocketEntry[];
  /** Navigation timing of the document (ms since its navigation start; −1: none). */
  navigation?: {
    responseEnd: number;
    domContentLoaded: number;
    streamApiEnd: number;
    /** Same-origin resources: [path, start, response end]. */
    resources: Array<[string, number, number]>;
  };
}

function probeScript(targets: Array<{ name: string; selector: string }>): string {
  const config = {
    targets,
    bits: CLIP.bits,
    cols: CLIP.cols,
    rows: CLIP.rows,
    frames: CLIP_FRAMES,
    minContrast: MIN_CONTRAST,
  };
  return `(() => {
  if (window.top !== window || window.__latency) return;
  const cfg = ${JSON.stringify(config)};
  // Wall clock for this page: wait for Date.now() to tick, then pair it with performance.now().
  let d0 = Date.now(), d = d0;
  while (d === d0) d = Date.now();
  const state = { offsetMs: d - performance.now(), timeOrigin: performance.timeOrigin, targets: {}, sockets: [] };
  window.__latency = state;

  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      const entry = { url: String(url), createdAt: performance.now(), openAt: -1, firstTextAt: -1,
        firstBinaryAt: -1, binaryMessages: 0, binaryBytes: 0 };
      state.sockets.push(entry);
      this.addEventListener('open', () => { entry.openAt = performance.now(); });
      this.addEventListener('message', (event) => {
        const t = performance.now();
        if (typeof event.data === 'string') {
          if (entry.firstTextAt < 0) entry.firstTextAt = t;
        } else {
          if (entry.firstBinaryAt < 0) entry.firstBinaryAt = t;
          entry.binaryMessages += 1;
          entry.binaryBytes += event.data.byteLength ?? event.data.size ?? 0;
        }
      });
    }
  };

  const CW = 96, CH = 54;
  const canvas = document.createElement('canvas');
  canvas.width = CW;
  canvas.height = CH;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const cells = [];
  for (let k = 0; k < cfg.bits * 2; k++) {
    const r = Math.floor(k / cfg.cols), c = k % cfg.cols;
    const x0 = (c * CW) / cfg.cols, x1 = ((c + 1) * CW) / cfg.cols;
    const y0 = (r * CH) / cfg.rows, y1 = ((r + 1) * CH) / cfg.rows;
    const mx = (x1 - x0) / 4, my = (y1 - y0) / 4;
    cells.push([Math.ceil(x0 + mx), Math.floor(x1 - mx), Math.ceil(y0 + my), Math.floor(y1 - my)]);
  }
  const decode = (video) => {
    ctx.drawImage(video, 0, 0, CW, CH);
    const px = ctx.getImageData(0, 0, CW, CH).data;
    const lum = (cell) => {
      let sum = 0, n = 0;
      for (let y = cell[2]; y < cell[3]; y++)
        for (let x = cell[0]; x < cell[1]; x++) {
          const i = (y * CW + x) * 4;
          sum += px[i] + px[i + 1] + px[i + 2];
          n += 3;
        }
      return sum / n;
    };
    let value = 0, contrast = 255;
    for (let b = 0; b < cfg.bits; b++) {
      const diff = lum(cells[b]) - lum(cells[b + cfg.bits]);
      contrast = Math.min(contrast, Math.abs(diff));
      if (diff > 0) value |= 1 << b;
    }
    return contrast >= cfg.minContrast && value < cfg.frames ? value : -1;
  };

  const watch = (target) => {
    const log = { frames: [], failures: 0, elements: 0, seeks: [] };
    state.targets[target.name] = log;
    let hooked = null;
    const onFrame = (video) => (now, meta) => {
      if (hooked !== video) return;
      let frame = -1;
      try { frame = video.videoWidth > 0 ? decode(video) : -1; } catch (error) { log.error = String(error); }
      if (frame < 0) log.failures += 1;
      log.frames.push([frame, now, meta.expectedDisplayTime, meta.captureTime ?? -1, meta.mediaTime,
        meta.presentedFrames, meta.width]);
      video.requestVideoFrameCallback(onFrame(video));
    };
    setInterval(() => {
      const video = document.querySelector(target.selector);
      if (video && video !== hooked) {
        hooked = video;
        log.elements += 1;
        video.addEventListener('seeking', () => log.seeks.push(performance.now()));
        video.requestVideoFrameCallback(onFrame(video));
      }
    }, 20);
  };
  for (const target of cfg.targets) watch(target);
})();`;
}

/** The baseline page: the same camera, recorded with the app's settings, played back through MSE in the same page. */
function loopbackPage(): string {
  const config = {
    mimeTypes: MEDIA_MIME_TYPES,
    timesliceMs: MEDIA_TIMESLICE_MS,
    keyframeMs: MEDIA_KEYFRAME_INTERVAL_MS,
    maxLagSec: LIVE_EDGE_MAX_LAG_SEC,
    targetSec: LIVE_EDGE_TARGET_SEC,
  };
  return `<!doctype html><html><head><meta charset="utf-8"><title>latency loopback</title></head>
<body style="margin:0;background:#000">
<video id="preview" muted autoplay playsinline style="width:640px;height:360px"></video>
<video id="playback" muted autoplay playsinline style="width:640px;height:360px"></video>
<script>
(async () => {
  const cfg = ${JSON.stringify(config)};
  const status = (window.__loopback = { state: 'starting', appends: 0, seeks: 0 });
  try {
    const preview = document.getElementById('preview');
    const playback = document.getElementById('playback');
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
    preview.srcObject = stream;
    preview.play().catch(() => {});
    const mimeType = cfg.mimeTypes.find((t) => MediaRecorder.isTypeSupported(t));
    const mediaSource = new MediaSource();
    playback.src = URL.createObjectURL(mediaSource);
    await new Promise((resolve) => mediaSource.addEventListener('sourceopen', resolve, { once: true }));
    const buffer = mediaSource.addSourceBuffer(mimeType);
    const queue = [];
    let started = false;
    // The player's rule (live-edge.ts): more than maxLag behind the buffered end: jump to target before it.
    const edge = () => {
      if (!buffer.buffered.length) return;
      const end = buffer.buffered.end(buffer.buffered.length - 1);
      if (end - playback.currentTime > cfg.maxLagSec) {
        playback.currentTime = Math.max(0, end - cfg.targetSec);
        status.seeks += 1;
      }
    };
    const pump = () => {
      if (buffer.updating || mediaSource.readyState !== 'open' || !queue.length) return;
      buffer.appendBuffer(queue.shift());
    };
    buffer.addEventListener('updateend', () => {
      status.appends += 1;
      if (!started && buffer.buffered.length) {
        started = true;
        playback.currentTime = buffer.buffered.start(0);
        playback.play().catch(() => {});
      }
      edge();
      pump();
    });
    setInterval(edge, 250);
    const recorder = new MediaRecorder(stream, { mimeType, videoKeyFrameIntervalDuration: cfg.keyframeMs });
    let chain = Promise.resolve();
    recorder.ondataavailable = (event) => {
      if (!event.data.size) return;
      chain = chain.then(async () => { queue.push(await event.data.arrayBuffer()); pump(); });
    };
    recorder.start(cfg.timesliceMs);
    status.state = 'recording';
    status.mimeType = mimeType;
  } catch (error) {
    status.state = 'failed';
    status.error = String(error);
  }
})();
</script></body></html>`;
}

async function readProbe(page: Page): Promise<ProbeState> {
  return page.evaluate(() => {
    const state = (window as unknown as { __latency: ProbeState }).__latency;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const streamApi = performance
      .getEntriesByType('resource')
      .find((e) => e.name.includes('/api/streams/')) as PerformanceResourceTiming | undefined;
    const resources = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.startsWith(location.origin))
      .map((e) => [
        e.name.slice(location.origin.length),
        Math.round(e.startTime),
        Math.round((e as PerformanceResourceTiming).responseEnd),
      ]) as Array<[string, number, number]>;
    return {
      ...state,
      navigation: {
        responseEnd: nav?.responseEnd ?? -1,
        domContentLoaded: nav?.domContentLoadedEventEnd ?? -1,
        streamApiEnd: streamApi?.responseEnd ?? -1,
        resources,
      },
    };
  });
}

/** Waits for a frame with a barcode on the probe's target (a function: the app's CSP forbids eval). */
async function waitForDecodedFrame(page: Page, target: string, timeout: number): Promise<void> {
  await page.waitForFunction(
    (name) => {
      const state = (window as unknown as { __latency?: ProbeState }).__latency;
      return (state?.targets[name]?.frames ?? []).some((f) => f[0] >= 0);
    },
    target,
    { timeout },
  );
}

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

interface Shown {
  frame: number;
  /** Wall time (ms) the frame was expected on screen. */
  at: number;
}

function shown(state: ProbeState | undefined, target: string): { all: Shown[]; decoded: Shown[] } {
  const frames = state?.targets[target]?.frames ?? [];
  const all = frames.map(([frame, , expected]) => ({ frame, at: (state?.offsetMs ?? 0) + expected }));
  return { all, decoded: all.filter((s) => s.frame >= 0) };
}

interface Sample {
  at: number;
  frame: number;
  ms: number;
}

/** For every decoded sink frame, its delay after the source showed the same frame number. */
function match(source: Shown[], sink: Shown[]): { samples: Sample[]; unmatched: number } {
  const bySource = new Map<number, number[]>();
  for (const s of source) {
    const list = bySource.get(s.frame) ?? [];
    list.push(s.at);
    bySource.set(s.frame, list);
  }
  const samples: Sample[] = [];
  let unmatched = 0;
  for (const s of sink) {
    // The frame numbers repeat every loop: the earliest showing in the half loop before this one.
    const candidates = (bySource.get(s.frame) ?? []).filter(
      (t) => t <= s.at + MATCH_SLACK_MS && t > s.at - LOOP_MS / 2,
    );
    if (candidates.length === 0) {
      unmatched += 1;
      continue;
    }
    samples.push({ at: s.at, frame: s.frame, ms: s.at - Math.min(...candidates) });
  }
  return { samples, unmatched };
}

interface Flow {
  /** Decoded frames per second shown. */
  fps: number;
  /** Longest time between two shown frames. */
  longestGapMs: number;
  /** Frame numbers never shown between two that were (live-edge jumps, dropped frames). */
  skipped: number;
  /** A frame shown again, or an earlier one after a later one. */
  repeats: number;
}

function flow(decoded: Shown[], fromAt: number, toAt: number): Flow {
  const inWindow = decoded.filter((s) => s.at >= fromAt && s.at <= toAt);
  let longestGapMs = 0;
  let skipped = 0;
  let repeats = 0;
  for (let i = 1; i < inWindow.length; i++) {
    const a = inWindow[i - 1] as Shown;
    const b = inWindow[i] as Shown;
    longestGapMs = Math.max(longestGapMs, b.at - a.at);
    const step = (b.frame - a.frame + CLIP_FRAMES) % CLIP_FRAMES;
    if (step === 0 || step > CLIP_FRAMES / 2) repeats += 1;
    else skipped += step - 1;
  }
  return { fps: inWindow.length / ((toAt - fromAt) / 1000), longestGapMs, skipped, repeats };
}

interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

function stats(values: number[]): Stats {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}

/** Per second of [fromAt, toAt): frames shown and the median latency, for the JSON. */
function timeline(samples: Sample[], decoded: Shown[], fromAt: number, toAt: number) {
  const seconds = Math.round((toAt - fromAt) / 1000);
  return Array.from({ length: seconds }, (_, i) => {
    const a = fromAt + i * 1000;
    const b = a + 1000;
    return {
      frames: decoded.filter((s) => s.at >= a && s.at < b).length,
      p50: Math.round(
        percentile(
          samples.filter((s) => s.at >= a && s.at < b).map((s) => s.ms),
          50,
        ),
      ),
    };
  });
}

interface LateJoin {
  index: number;
  /** Seconds into the measured window, and into the stream, when the navigation began. */
  atWindowSec: number;
  atStreamSec: number;
  /** Navigation start (the page's performance.timeOrigin) → first frame presented. */
  firstFrameMs: number;
  /** The same from this process: just before page.goto → first frame presented. */
  firstFrameFromGotoMs: number;
  firstFrameDecoded: boolean;
  /** Navigation start → the HTML in, DOMContentLoaded (the app's module script ran), GET /api/streams/:name answered. */
  htmlMs: number;
  domContentLoadedMs: number;
  streamApiMs: number;
  mediaSocketCreatedMs: number;
  mediaSocketOpenMs: number;
  firstMediaBytesMs: number;
  /** How far behind the broadcaster the first frame was, and the median over the next seconds. */
  firstFrameLatencyMs: number;
  settledLatencyMs: number;
  framesShown: number;
  /** Same-origin requests of the page load: [path, start, response end] (ms since navigation start). */
  resources: Array<[string, number, number]>;
  error?: string;
  problems: string[];
}

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
