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
import type { LateJoinRun } from './late-joins.ts';
import type { Measured } from './measure.ts';
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
export function lateJoinFigures(
  run: LateJoinRun,
  preview: Shown[],
  fromAt: number,
  streamStartedAt: number,
): LateJoin {
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
}

export interface ViewerFigures {
  path: ViewerRun['path'];
  latency: Stats;
  /** Outside the late joiners' loading. */
  quiet: Stats;
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
  error?: string;
  problems: string[];
}

/** One viewer's latency to the preview, its flow and path over the window [fromAt, toAt]. */
export function viewerFigures(
  run: ViewerRun,
  preview: Shown[],
  fromAt: number,
  toAt: number,
  busy: Array<readonly [number, number]>,
): ViewerFigures {
  const live = shown(run.state, 'live');
  const inWindow = (s: Shown) => s.at >= fromAt && s.at <= toAt;
  const m = match(preview, live.decoded.filter(inWindow));
  const quietSamples = m.samples.filter((s) => !busy.some(([a, b]) => s.at >= a && s.at <= b));
  const offset = run.state?.offsetMs ?? 0;
  return {
    path: run.path,
    latency: stats(m.samples.map((s) => s.ms)),
    quiet: stats(quietSamples.map((s) => s.ms)),
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
    ...(run.error ? { error: run.error } : {}),
    problems: run.problems,
  };
}

export function figures(measured: Measured) {
  const { fromAt, toAt, sellerState, lateJoinRuns } = measured;
  const preview = shown(sellerState, 'preview');
  const inWindow = (s: Shown) => s.at >= fromAt && s.at <= toAt;
  const busy = lateJoinRuns.map((r) => [r.gotoAt, r.closedAt || toAt] as const);

  // Camera → preview, from requestVideoFrameCallback's captureTime (when Chromium gives one).
  const captureDelays = (sellerState?.targets.preview?.frames ?? [])
    .filter(([frame, , expected, capture]) => frame >= 0 && capture > 0 && expected > 0)
    .filter(([, , expected]) => inWindow({ frame: 0, at: sellerState.offsetMs + expected }))
    .map(([, , expected, capture]) => expected - capture);

  return {
    viewers: measured.viewers.map((run) => viewerFigures(run, preview.decoded, fromAt, toAt, busy)),
    previewFlow: flow(preview.decoded, fromAt, toAt),
    previewUndecoded: preview.all.filter((s) => inWindow(s) && s.frame < 0).length,
    cameraToPreview: stats(captureDelays),
    loopback: measured.loopback ? loopbackFigures(measured.loopback) : undefined,
    joins: lateJoinRuns.map((run) => lateJoinFigures(run, preview.decoded, fromAt, measured.streamStartedAt)),
  };
}

export type Figures = ReturnType<typeof figures>;
