/**
 * The probe: runs in every page before its own scripts (a string: tsx's helpers must not leak in),
 * decodes each shown frame's number and logs when it was on screen.
 */

import type { Page } from 'playwright-core';
import {
  LIVE_EDGE_MAX_LAG_SEC,
  LIVE_EDGE_TARGET_SEC,
  MEDIA_KEYFRAME_INTERVAL_MS,
  MEDIA_MIME_TYPES,
  MEDIA_TIMESLICE_MS,
} from '../../contract/src/live.ts';
import { CLIP, CLIP_FRAMES, MIN_CONTRAST } from './clip.ts';

export const PREVIEW = 'video[data-testid="camera-preview"]';
export const LIVE_VIDEO = 'video[data-testid="live-video"]';

/** [frame (−1: no barcode), rVFC now, expectedDisplayTime, captureTime (−1: none), mediaTime, presentedFrames, width] */
export type FrameEntry = [number, number, number, number, number, number, number];

export interface ProbeTarget {
  frames: FrameEntry[];
  failures: number;
  elements: number;
  /** performance.now() of every 'seeking' event (the player's live-edge jumps included). */
  seeks: number[];
  error?: string;
}

export interface SocketEntry {
  url: string;
  createdAt: number;
  openAt: number;
  firstTextAt: number;
  firstBinaryAt: number;
  binaryMessages: number;
  binaryBytes: number;
  /** performance.now() of the close (−1: still open). */
  closedAt: number;
}

export interface ProbeState {
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
    /** The page's User Timing marks named `live-video:…`: name → the first one's time. */
    marks: Record<string, number>;
  };
}

export function probeScript(targets: Array<{ name: string; selector: string }>): string {
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
        firstBinaryAt: -1, binaryMessages: 0, binaryBytes: 0, closedAt: -1 };
      state.sockets.push(entry);
      this.addEventListener('open', () => { entry.openAt = performance.now(); });
      this.addEventListener('close', () => { entry.closedAt = performance.now(); });
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
export function loopbackPage(): string {
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
    // Recorded and played in this page: a type both MediaRecorder and MSE take (MSE plays no H.264 in WebM).
    const mimeType = cfg.mimeTypes.find((t) => MediaRecorder.isTypeSupported(t) && MediaSource.isTypeSupported(t));
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

export async function readProbe(page: Page): Promise<ProbeState> {
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
    const marks: Record<string, number> = {};
    for (const entry of performance.getEntriesByType('mark')) {
      if (entry.name.startsWith('live-video:') && !(entry.name in marks))
        marks[entry.name] = Math.round(entry.startTime);
    }
    return {
      ...state,
      navigation: {
        responseEnd: nav?.responseEnd ?? -1,
        domContentLoaded: nav?.domContentLoadedEventEnd ?? -1,
        streamApiEnd: streamApi?.responseEnd ?? -1,
        resources,
        marks,
      },
    };
  });
}

/** Waits for a frame with a barcode on the probe's target (a function: the app's CSP forbids eval). */
export async function waitForDecodedFrame(page: Page, target: string, timeout: number): Promise<void> {
  await page.waitForFunction(
    (name) => {
      const state = (window as unknown as { __latency?: ProbeState }).__latency;
      return (state?.targets[name]?.frames ?? []).some((f) => f[0] >= 0);
    },
    target,
    { timeout },
  );
}
