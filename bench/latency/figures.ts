/** Phase 3a: the measured logs turned into figures (latency, flow, late joins, the loopback floor). */

import { percentile } from '../report.ts';
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
} from './analysis.ts';
import type { EncoderRun } from './encoder.ts';
import type { LateJoinRun } from './late-joins.ts';
import type { Measured } from './measure.ts';
import type { StreamRun } from './stream.ts';
import type { ViewerRun } from './viewers.ts';

export interface LoopbackFigures {
  latency: Stats;
  perSecond: ReturnType<typeof timeline>;
  unmatched: number;
  flow: Flow;
  previewFlow: Flow;
}

export function loopbackFigures(loopback: NonNullable<Measured['loopback']>): LoopbackFigures {
  const lbPreview = shown(loopback.state, 'preview');
  const lbPlayback = shown(loopback.state, 'playback');
  const m = match(
    lbPreview.decoded,
    lbPlayback.decoded.filter((s) => s.at >= loopback.fromAt && s.at <= loopback.toAt),
  );
  return {
    latency: stats(m.samples.map((s) => s.ms)),
    perSecond: timeline(m.samples, lbPlayback.decoded, loopback.fromAt, loopback.toAt),
    unmatched: m.unmatched,
    flow: flow(lbPlayback.decoded, loopback.fromAt, loopback.toAt),
    previewFlow: flow(lbPreview.decoded, loopback.fromAt, loopback.toAt),
  };
}

/** A late join's timeline (ms since its navigation start) and how far behind it started and settled. */
export function lateJoinFigures(run: LateJoinRun, preview: Shown[], streamStartedAt: number): LateJoin {
  const state = run.state;
  const entries = state?.targets.live?.frames ?? [];
  const first = entries[0];
  const firstDecoded = entries.find((f) => f[0] >= 0);
  const mediaSocket = state?.sockets.find((s) => s.url.includes('/ws/media'));
  const joined = shown(state, 'live');
  const m = match(preview, joined.decoded);
  const firstAt = first && state ? state.offsetMs + first[2] : Number.NaN;
  const atMs = (t: number | undefined) => (t === undefined || t < 0 ? Number.NaN : t);
  return {
    index: run.index,
    atStreamSec: (run.gotoAt - streamStartedAt) / 1000,
    dataPath: run.dataPath,
    dataEngine: run.dataEngine,
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
    marks: state?.navigation?.marks ?? {},
    ...(run.error ? { error: run.error } : {}),
    problems: run.problems,
  };
}

/**
 * The late joins' navigation → first frame over the joins that ran: one that showed no frame
 * counts as never (Infinity), so it lands in the p95; joins the plan's end left out are counted apart.
 */
export function lateJoinSummary(joins: LateJoin[]) {
  const ran = joins.filter((j) => !j.error?.startsWith('not run'));
  const times = ran.map((j) => (Number.isFinite(j.firstFrameMs) ? j.firstFrameMs : Number.POSITIVE_INFINITY));
  return {
    count: ran.length,
    notRun: joins.length - ran.length,
    failed: times.filter((t) => t === Number.POSITIVE_INFINITY).length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times.length ? Math.max(...times) : Number.NaN,
    offPath: ran.filter((j) => j.dataPath && j.dataPath !== 'ws').length,
  };
}

export interface ViewerFigures {
  path: ViewerRun['path'];
  latency: Stats;
  unmatched: number;
  undecoded: number;
  flow: Flow;
  seeks: number;
  perSecond: ReturnType<typeof timeline>;
  firstFrameMs: number;
  /** The video's data-path / data-engine, and whether they are the forced path's. */
  dataPath: string;
  dataEngine: string;
  onPath: boolean;
  /** The WebSockets the page opened (the room's /ws, the video's /ws/media) and the binary bytes each got. */
  sockets: string[];
  error?: string;
  problems: string[];
}

/** One viewer's latency to the preview, its flow and path over the window [fromAt, toAt]. */
export function viewerFigures(run: ViewerRun, preview: Shown[], fromAt: number, toAt: number): ViewerFigures {
  const live = shown(run.state, 'live');
  const inWindow = (s: Shown) => s.at >= fromAt && s.at <= toAt;
  const m = match(preview, live.decoded.filter(inWindow));
  const offset = run.state?.offsetMs ?? 0;
  return {
    path: run.path,
    latency: stats(m.samples.map((s) => s.ms)),
    unmatched: m.unmatched,
    undecoded: live.all.filter((s) => inWindow(s) && s.frame < 0).length,
    flow: flow(live.decoded, fromAt, toAt),
    seeks: (run.state?.targets.live?.seeks ?? []).filter((t) => inWindow({ frame: 0, at: offset + t }))
      .length,
    perSecond: timeline(m.samples, live.decoded, fromAt, toAt),
    firstFrameMs: run.firstFrameMs,
    dataPath: run.dataPath,
    dataEngine: run.dataEngine,
    onPath: run.dataPath === run.path.expected.path && run.dataEngine === run.path.expected.engine,
    sockets: (run.state?.sockets ?? []).map(
      (socket) =>
        `${new URL(socket.url, 'http://x').pathname} (${(socket.binaryBytes / 1e6).toFixed(1)} MB, ` +
        `${socket.closedAt < 0 ? 'open at the end' : `closed ${(socket.closedAt / 1000).toFixed(1)} s after navigation`})`,
    ),
    ...(run.error ? { error: run.error } : {}),
    problems: run.problems,
  };
}

/** What the broadcaster sent (the publish socket's mimeType, or RTMP's FLV) and what the server's ffmpeg did with the video. */
function ingestOf(stream: StreamRun) {
  const publish = stream.sellerState?.sockets.find((s) => s.url.includes('/ws/publish'));
  const mimeType = stream.encoder
    ? 'FLV over RTMP (H.264 + AAC)'
    : publish
      ? (new URL(publish.url, 'http://x').searchParams.get('mimeType') ?? '')
      : '';
  const pipelines = stream.cpu.children.filter((c) => /(^|\/)ffmpeg\s/.test(c.command));
  const video = pipelines.map((c) =>
    c.command.includes('libx264') ? 'encoded (libx264)' : /-c:v copy/.test(c.command) ? 'copied' : '?',
  );
  return { mimeType, video: video.join(', ') || 'no ffmpeg at the end of the window' };
}

/**
 * The RTMP encoder over the window: how late the pacer wrote its frames after their slots (the
 * bound of the broadcaster time's error: latencies are overstated by at most this), its CPU.
 */
function encoderFigures(encoder: EncoderRun) {
  return {
    handedLate: stats(encoder.lateMs),
    dropped: encoder.dropped,
    cpuPercent: encoder.cpuPercent,
    command: encoder.command,
    ...(encoder.exitedEarly === undefined ? {} : { exitedEarly: encoder.exitedEarly }),
    stderr: encoder.stderr,
  };
}

/**
 * One measured stream: every viewer against the broadcaster's frames (the browser's camera
 * preview as shown, or the RTMP encoder's frames at their slots), the preview itself, the CPU.
 */
export function streamFigures(stream: StreamRun) {
  const { fromAt, toAt, sellerState } = stream;
  const preview = shown(sellerState, 'preview');
  const source = stream.encoder ? stream.encoder.frames : preview.decoded;
  const inWindow = (s: Shown) => s.at >= fromAt && s.at <= toAt;
  // Camera → preview, from requestVideoFrameCallback's captureTime (when Chromium gives one).
  const captureDelays = (sellerState?.targets.preview?.frames ?? [])
    .filter(([frame, , expected, capture]) => frame >= 0 && capture > 0 && expected > 0)
    .filter(([, , expected]) => inWindow({ frame: 0, at: (sellerState?.offsetMs ?? 0) + expected }))
    .map(([, , expected, capture]) => expected - capture);
  return {
    ingest: stream.ingest,
    ...ingestOf(stream),
    viewers: stream.viewers.map((run) => viewerFigures(run, source, fromAt, toAt)),
    previewFlow: flow(source, fromAt, toAt),
    previewUndecoded: preview.all.filter((s) => inWindow(s) && s.frame < 0).length,
    cameraToPreview: stats(captureDelays),
    encoder: stream.encoder ? encoderFigures(stream.encoder) : undefined,
    cpu: stream.cpu,
    output: stream.output,
    loadAverage: stream.loadAverage,
  };
}

export type StreamFigures = ReturnType<typeof streamFigures>;

export function figures(measured: Measured) {
  const lateJoins = measured.lateJoins;
  const preview = lateJoins ? shown(lateJoins.sellerState, 'preview').decoded : [];
  const joins = (lateJoins?.runs ?? []).map((run) =>
    lateJoinFigures(run, preview, lateJoins?.streamStartedAt ?? 0),
  );
  return {
    streams: measured.streams.map(streamFigures),
    idle: measured.idle,
    loopback: measured.loopback ? loopbackFigures(measured.loopback) : undefined,
    joins,
    joinSummary: lateJoinSummary(joins),
  };
}

export type Figures = ReturnType<typeof figures>;
