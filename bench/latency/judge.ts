/** Phase 3, judge and report: the figures against the targets, as the report's table and JSON. */

import { availableParallelism } from 'node:os';
import { type Row, report } from '../report.ts';
import { CLIP, CLIP_FRAMES } from './clip.ts';
import { type Figures, figures, type ViewerFigures } from './figures.ts';
import type { Measured } from './measure.ts';
import { DEFAULTS, TARGET } from './options.ts';
import type { ProbeState } from './probe.ts';
import type { Rig } from './setup.ts';
import { fixed } from './stop.ts';

const metOrMissed = (ok: boolean) => (ok ? 'met' : 'MISSED');
const pathNote = (v: ViewerFigures) =>
  `data-path=${v.dataPath || '-'} data-engine=${v.dataEngine || '-'}` +
  (v.onPath ? '' : ` (NOT the forced ${v.path.query})`);

export function verdictsOf(f: Figures): string[] {
  return [
    ...f.viewers.map(
      (v) =>
        `${metOrMissed(v.latency.p50 <= v.path.targetP50Ms)}: ${v.path.label} median glass-to-glass ` +
        `${fixed(v.latency.p50, 0)} ms ≤ ${v.path.targetP50Ms} ms; p95 ${fixed(v.latency.p95, 0)} ms` +
        (v.path.key === 'ws'
          ? ` (aim ≤ ${TARGET.aimMedianMs} ms: ${v.latency.p50 <= TARGET.aimMedianMs ? 'met' : 'not yet'})`
          : '') +
        (v.onPath ? '' : `; ${pathNote(v)}`) +
        (v.error ? ` (${v.error})` : ''),
    ),
    ...(f.joins.length
      ? [
          `${metOrMissed(f.joinSummary.p95 <= TARGET.lateJoinFirstFrameMs)}: late joins (${f.joinSummary.count}, cold) ` +
            `navigation → first frame p95 ${fixed(f.joinSummary.p95, 0)} ms ≤ ${TARGET.lateJoinFirstFrameMs} ms; ` +
            `p50 ${fixed(f.joinSummary.p50, 0)} ms; ${f.joins.filter((j) => j.firstFrameMs <= TARGET.lateJoinFirstFrameMs).length} of ` +
            `${f.joinSummary.count} within it` +
            (f.joinSummary.failed ? `; ${f.joinSummary.failed} showed no frame` : '') +
            (f.joinSummary.notRun ? `; ${f.joinSummary.notRun} not run (the plan's end)` : ''),
        ]
      : []),
  ];
}

function viewerRows(v: ViewerFigures, f: Figures): Row[] {
  const bl = f.loopback?.latency;
  const label = `${v.path.label} (${v.path.query})`;
  return [
    {
      metric: `${label} glass-to-glass p50`,
      value: v.latency.p50,
      unit: 'ms',
      ...(bl ? { baseline: bl.p50 } : {}),
      note:
        `target ≤ ${v.path.targetP50Ms} ms: ${metOrMissed(v.latency.p50 <= v.path.targetP50Ms)}; ${v.latency.n} frames; ` +
        `${pathNote(v)}${v.error ? `; ${v.error}` : ''}`,
    },
    { metric: `${label} p95`, value: v.latency.p95, unit: 'ms', ...(bl ? { baseline: bl.p95 } : {}) },
    {
      metric: `${label} p99`,
      value: v.latency.p99,
      unit: 'ms',
      ...(bl ? { baseline: bl.p99 } : {}),
      note: `min ${fixed(v.latency.min, 0)}, max ${fixed(v.latency.max, 0)} ms`,
    },
    {
      metric: `${label} frames shown/s`,
      value: v.flow.fps,
      unit: '/s',
      ...(f.loopback ? { baseline: f.loopback.flow.fps } : {}),
      note:
        `longest gap ${fixed(v.flow.longestGapMs, 0)} ms; skipped ${v.flow.skipped}, repeated ${v.flow.repeats}, ` +
        `seeks ${v.seeks}; unmatched ${v.unmatched}, undecoded ${v.undecoded}; first frame ${fixed(v.firstFrameMs, 0)} ms after goto`,
    },
  ];
}

function joinSummaryRows(f: Figures): Row[] {
  const s = f.joinSummary;
  if (!f.joins.length) return [];
  const met = s.p95 <= TARGET.lateJoinFirstFrameMs;
  const extra =
    (s.failed ? `; ${s.failed} showed no frame (counted as never)` : '') +
    (s.notRun ? `; ${s.notRun} not run (the plan's end)` : '') +
    (s.offPath ? `; ${s.offPath} not on the WebSocket path` : '');
  return [
    {
      metric: 'late joins: navigation → first frame p50',
      value: s.p50,
      unit: 'ms',
      note: `${s.count} cold joins on the automatic path, one at a time, on a stream of their own${extra}`,
    },
    {
      metric: 'late joins: navigation → first frame p95',
      value: s.p95,
      unit: 'ms',
      note: `target ≤ ${TARGET.lateJoinFirstFrameMs} ms: ${metOrMissed(met)}; max ${fixed(s.max, 0)} ms`,
    },
  ];
}

export function rowsOf(f: Figures): Row[] {
  const { previewFlow, joins, cameraToPreview } = f;
  return [
    ...f.viewers.flatMap((v) => viewerRows(v, f)),
    {
      metric: 'broadcaster preview frames shown/s',
      value: previewFlow.fps,
      unit: '/s',
      note: `the clip is ${CLIP.fps} fps; longest gap ${fixed(previewFlow.longestGapMs, 0)} ms; skipped ${previewFlow.skipped}; undecoded ${f.previewUndecoded}`,
    },
    ...joinSummaryRows(f),
    ...joins.map(
      (j): Row => ({
        metric: `late join ${j.index}: navigation → first frame`,
        value: j.firstFrameMs,
        unit: 'ms',
        note:
          `target ≤ ${TARGET.lateJoinFirstFrameMs} ms: ${metOrMissed(j.firstFrameMs <= TARGET.lateJoinFirstFrameMs)}; ` +
          `${fixed(j.atStreamSec, 0)} s into the stream, on ${j.dataPath || '?'}; HTML ${fixed(j.htmlMs, 0)}, DOMContentLoaded ` +
          `${fixed(j.domContentLoadedMs, 0)}, room API ${fixed(j.streamApiMs, 0)}, media socket created ` +
          `${fixed(j.mediaSocketCreatedMs, 0)} / open ${fixed(j.mediaSocketOpenMs, 0)} / first bytes ` +
          `${fixed(j.firstMediaBytesMs, 0)} ms; first frame ${fixed(j.firstFrameLatencyMs, 0)} ms behind, ` +
          `then p50 ${fixed(j.settledLatencyMs, 0)} ms` +
          (j.error ? `; ${j.error}` : ''),
      }),
    ),
    {
      metric: 'camera → preview (captureTime) p50',
      value: cameraToPreview.p50,
      unit: 'ms',
      note: cameraToPreview.n
        ? `p95 ${fixed(cameraToPreview.p95, 0)} ms; ${cameraToPreview.n} frames`
        : 'Chromium gave no captureTime',
    },
  ];
}

/** Judges the run, prints the table and writes bench/results/latency*.json; true when every viewer had samples. */
export function judgeAndReport(rig: Rig, measured: Measured, cleanedAt: number): boolean {
  const { options } = rig;
  const f = figures(measured);
  const verdicts = verdictsOf(f);
  const name = options.seconds === DEFAULTS.seconds ? 'latency' : `latency-${options.seconds}s`;
  report(name, rowsOf(f), {
    options,
    machine: {
      cpus: availableParallelism(),
      loadAverageBefore: rig.loadAverageBefore,
      loadAverageAfter: measured.loadAverageAfter,
      chromium: rig.chromiumVersion,
    },
    target: TARGET,
    method:
      'fake camera from a Y4M clip whose frames carry their number as a block barcode; requestVideoFrameCallback ' +
      'on the preview and on each viewer <video>, canvas decode; time = expectedDisplayTime in wall time (per-page ' +
      'Date.now() offset); latency = viewer time − preview time of the same frame; one Chromium, separate contexts; ' +
      'one viewer per delivery path (?path=ws, ?path=hls, ?path=hlsjs) on the same stream',
    baseline:
      'loopback: the same camera recorded with the app’s MediaRecorder settings and appended to MSE in the same page ' +
      '(no network, no server), with the player’s live-edge rule; playback time − preview time of the same frame',
    clip: { ...CLIP, frames: CLIP_FRAMES, bytes: rig.clip.bytes, generateMs: rig.clip.ms },
    viewers: f.viewers.map(({ path, ...v }) => ({ path: path.key, ...v })),
    previewFlow: f.previewFlow,
    cameraToPreview: f.cameraToPreview,
    loopback: f.loopback ? { ...f.loopback, status: measured.loopback?.status } : undefined,
    lateJoins: { ...f.joinSummary, joins: f.joins },
    clocks: {
      note: 'per page: offset (Date.now() − performance.now()) vs performance.timeOrigin; they should agree to ~1 ms',
      pages: (
        [
          ['seller', measured.stream.sellerState],
          ...measured.stream.viewers.map((v) => [`viewer ${v.path.key}`, v.state] as const),
          ['late-join seller', measured.lateJoins?.sellerState],
          ...(measured.lateJoins?.runs ?? []).map((r) => [`late ${r.index}`, r.state] as const),
        ] as Array<readonly [string, ProbeState | undefined]>
      ).map(([label, s]) => ({
        page: label,
        offsetMinusTimeOriginMs: s ? s.offsetMs - s.timeOrigin : Number.NaN,
      })),
    },
    problems: {
      seller: measured.stream.sellerProblems,
      lateJoinSeller: measured.lateJoins?.sellerProblems ?? [],
    },
    durationSec: (cleanedAt - rig.started) / 1000,
    verdicts,
  });
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  const empty = f.viewers.filter((v) => v.latency.n === 0);
  for (const v of empty)
    console.error(
      `!! no latency sample on ${v.path.label}: that viewer showed no frame the broadcaster showed`,
    );
  return empty.length === 0;
}
