/** Phase 3, judge and report: the figures against the targets, as the report's table and JSON. */

import { availableParallelism } from 'node:os';
import { type Row, report } from '../report.ts';
import { CLIP, CLIP_FRAMES } from './clip.ts';
import { type Figures, figures } from './figures.ts';
import type { Measured } from './measure.ts';
import { DEFAULTS, TARGET } from './options.ts';
import type { ProbeState } from './probe.ts';
import type { Rig } from './setup.ts';
import { fixed } from './stop.ts';

export function verdictsOf(f: Figures): string[] {
  const { latency, joins } = f;
  const medianMet = latency.p50 <= TARGET.medianMs;
  return [
    `${medianMet ? 'met' : 'MISSED'}: median glass-to-glass ${fixed(latency.p50, 0)} ms ≤ ${TARGET.medianMs} ms` +
      ` (aim ≤ ${TARGET.aimMedianMs} ms: ${latency.p50 <= TARGET.aimMedianMs ? 'met' : 'not yet'}); p95 ${fixed(latency.p95, 0)} ms`,
    ...joins.map(
      (j) =>
        `${j.firstFrameMs <= TARGET.lateJoinFirstFrameMs ? 'met' : 'MISSED'}: late join ${j.index} ` +
        `(${fixed(j.atStreamSec, 0)} s into the stream): first frame ${fixed(j.firstFrameMs, 0)} ms after navigation start ≤ ${TARGET.lateJoinFirstFrameMs} ms` +
        (j.error ? ` (${j.error})` : ''),
    ),
  ];
}

export function rowsOf(f: Figures, measured: Measured): Row[] {
  const { latency, quiet, viewerFlow, previewFlow, joins, cameraToPreview } = f;
  const lb = f.loopback;
  const bl = lb?.latency;
  const medianMet = latency.p50 <= TARGET.medianMs;
  return [
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
      ...(lb ? { baseline: lb.flow.fps } : {}),
      note: `preview ${fixed(previewFlow.fps)}/s; the clip is ${CLIP.fps} fps`,
    },
    {
      metric: 'viewer longest gap between frames',
      value: viewerFlow.longestGapMs,
      unit: 'ms',
      ...(lb ? { baseline: lb.flow.longestGapMs } : {}),
      note: `preview ${fixed(previewFlow.longestGapMs, 0)} ms`,
    },
    {
      metric: 'viewer frames skipped / repeated',
      value: viewerFlow.skipped,
      unit: '',
      note: `live-edge jumps (seeks) ${f.viewerSeeks}; repeated or backwards ${viewerFlow.repeats}; preview skipped ${previewFlow.skipped}; unmatched ${f.unmatched}, undecoded ${f.viewerUndecoded} (preview ${f.previewUndecoded})`,
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
      value: measured.viewerFirstFrameMs,
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
}

/** Judges the run, prints the table and writes bench/results/latency*.json; true when there was a sample. */
export function judgeAndReport(rig: Rig, measured: Measured, cleanedAt: number): boolean {
  const { options } = rig;
  const f = figures(measured);
  const verdicts = verdictsOf(f);
  const name = options.seconds === DEFAULTS.seconds ? 'latency' : `latency-${options.seconds}s`;
  report(name, rowsOf(f, measured), {
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
      'on the preview and on the viewer <video>, canvas decode; time = expectedDisplayTime in wall time (per-page ' +
      'Date.now() offset); latency = viewer time − preview time of the same frame; one Chromium, separate contexts',
    baseline:
      'loopback: the same camera recorded with the app’s MediaRecorder settings and appended to MSE in the same page ' +
      '(no network, no server), with the player’s live-edge rule; playback time − preview time of the same frame',
    clip: { ...CLIP, frames: CLIP_FRAMES, bytes: rig.clip.bytes, generateMs: rig.clip.ms },
    latency: { ...f.latency, unmatched: f.unmatched, undecoded: f.viewerUndecoded, perSecond: f.perSecond },
    quiet: f.quiet,
    viewerFlow: { ...f.viewerFlow, seeks: f.viewerSeeks },
    previewFlow: f.previewFlow,
    cameraToPreview: f.cameraToPreview,
    loopback: f.loopback ? { ...f.loopback, status: measured.loopback?.status } : undefined,
    lateJoins: f.joins,
    viewerFirstFrameMs: measured.viewerFirstFrameMs,
    clocks: {
      note: 'per page: offset (Date.now() − performance.now()) vs performance.timeOrigin; they should agree to ~1 ms',
      pages: (
        [
          ['seller', measured.sellerState],
          ['viewer', measured.viewerState],
          ...measured.lateJoinRuns.map((r) => [`late ${r.index}`, r.state] as const),
        ] as Array<readonly [string, ProbeState | undefined]>
      ).map(([label, s]) => ({
        page: label,
        offsetMinusTimeOriginMs: s ? s.offsetMs - s.timeOrigin : Number.NaN,
      })),
    },
    problems: measured.problems,
    durationSec: (cleanedAt - rig.started) / 1000,
    verdicts,
  });
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  if (f.latency.n === 0) {
    console.error('!! no latency sample: the viewer showed no frame the broadcaster showed');
    return false;
  }
  return true;
}
