/** Phase 3, judge and report: the figures against the targets, as the report's table and JSON. */

import { availableParallelism } from 'node:os';
import { type Row, report } from '../report.ts';
import { CLIP, CLIP_FRAMES } from './clip.ts';
import type { CpuUse } from './cpu.ts';
import { type Figures, figures, type StreamFigures, type ViewerFigures } from './figures.ts';
import type { Measured } from './measure.ts';
import { DEFAULTS, type Ingest, TARGET } from './options.ts';
import type { ProbeState } from './probe.ts';
import type { Rig } from './setup.ts';
import { fixed } from './stop.ts';

const INGEST: Record<Ingest, string> = { h264: 'H.264 ingest', vp8: 'VP8 ingest', rtmp: 'RTMP ingest' };
/** The ingests whose video the server copies (H.264), held to the CPU target. */
const COPIED: Ingest[] = ['h264', 'rtmp'];
/** The RTMP pacer's lateness (p99) worth a warning: the RTMP latencies are overstated by up to that. */
const LATE_WARNING_MS = 10;
const metOrMissed = (ok: boolean) => (ok ? 'met' : 'MISSED');
const loads = (values: number[]) => values.map((n) => n.toFixed(1)).join(' ');
const pathNote = (v: ViewerFigures) =>
  `data-path=${v.dataPath || '-'} data-engine=${v.dataEngine || '-'}` +
  (v.onPath ? '' : ` (NOT the forced ${v.path.query})`);
const cpuSplit = (c: CpuUse) =>
  `node ${fixed(c.serverPercent, 2)} %, ffmpeg ${fixed(c.ffmpegPercent, 2)} %` +
  (c.otherChildrenPercent > 0.005 ? `, other children ${fixed(c.otherChildrenPercent, 2)} %` : '');

const outputNote = (st: StreamFigures) =>
  st.output
    ? `out at ${fixed(st.output.fps, 0)} frames/s (${st.output.frames} frames in the last ${st.output.segments} HLS segments, ${fixed(st.output.seconds)} s)`
    : 'output frame rate unread';

/** The pipeline's output has far more frames than the camera: duplicated frames. */
const duplicating = (st: StreamFigures) => (st.output?.fps ?? 0) > CLIP.fps * 1.5;

export function verdictsOf(f: Figures): string[] {
  const s = f.joinSummary;
  return [
    ...f.streams.flatMap((st) =>
      st.viewers.map(
        (v) =>
          `${metOrMissed(v.latency.p50 <= v.path.targetP50Ms)}: ${INGEST[st.ingest]}, ${v.path.label} median glass-to-glass ` +
          `${fixed(v.latency.p50, 0)} ms ≤ ${v.path.targetP50Ms} ms; p95 ${fixed(v.latency.p95, 0)} ms` +
          (v.path.key === 'ws'
            ? ` (aim ≤ ${TARGET.aimMedianMs} ms: ${v.latency.p50 <= TARGET.aimMedianMs ? 'met' : 'not yet'})`
            : '') +
          (v.onPath ? '' : `; ${pathNote(v)}`) +
          (v.error ? ` (${v.error})` : ''),
      ),
    ),
    ...f.streams
      .filter((st) => COPIED.includes(st.ingest))
      .map(
        (st) =>
          `${metOrMissed(st.cpu.percent <= TARGET.h264CpuPercent)}: server + ffmpeg CPU for one H.264 stream ` +
          `(${INGEST[st.ingest]}) ${fixed(st.cpu.percent)} % of a core ≤ ${TARGET.h264CpuPercent} % (the clip is ${CLIP.height}p)`,
      ),
    ...f.streams.flatMap((st) => (st.encoder ? encoderWarnings(st.encoder) : [])),
    ...f.streams
      .filter(duplicating)
      .map(
        (st) =>
          `!! ${INGEST[st.ingest]}: the pipeline's output has ${fixed(st.output?.fps ?? Number.NaN, 0)} video frames per ` +
          `second of media for a ${CLIP.fps} fps camera (frames duplicated)`,
      ),
    ...(f.joins.length
      ? [
          `${metOrMissed(s.p95 <= TARGET.lateJoinFirstFrameMs)}: late joins (${s.count}, cold) ` +
            `navigation → first frame p95 ${fixed(s.p95, 0)} ms ≤ ${TARGET.lateJoinFirstFrameMs} ms; ` +
            `p50 ${fixed(s.p50, 0)} ms; ${f.joins.filter((j) => j.firstFrameMs <= TARGET.lateJoinFirstFrameMs).length} of ` +
            `${s.count} within it` +
            (s.failed ? `; ${s.failed} showed no frame` : '') +
            (s.notRun ? `; ${s.notRun} not run (the plan's end)` : ''),
        ]
      : []),
  ];
}

/** What went wrong with the RTMP encoder: frames written late (the error bound), dropped, an early exit. */
function encoderWarnings(encoder: NonNullable<StreamFigures['encoder']>): string[] {
  return [
    ...(encoder.handedLate.p99 > LATE_WARNING_MS
      ? [
          `!! RTMP ingest: the bench wrote 1 % of its frames more than ${fixed(encoder.handedLate.p99, 0)} ms after their ` +
            `slots (max ${fixed(encoder.handedLate.max, 0)} ms): the RTMP latencies are overstated by up to that`,
        ]
      : []),
    ...(encoder.dropped ? [`!! RTMP ingest: ${encoder.dropped} frames dropped, ffmpeg fell 3 s behind`] : []),
    ...(encoder.exitedEarly === undefined
      ? []
      : [
          `!! RTMP ingest: the encoder exited (${encoder.exitedEarly}) before End Stream: ${encoder.stderr.slice(-200)}`,
        ]),
  ];
}

/**
 * The latency rows' baseline: the loopback floor for the browser's ingests; for RTMP, which has no
 * MediaRecorder, the browser's H.264 ingest on the same path in this run (when it ran).
 */
function baselineOf(st: StreamFigures, v: ViewerFigures, f: Figures) {
  if (st.ingest !== 'rtmp') return f.loopback?.latency;
  return f.streams.find((other) => other.ingest === 'h264')?.viewers.find((o) => o.path.key === v.path.key)
    ?.latency;
}

/** The first stream: p50, p95, p99 and the flow per path; the others: p50 per path, p95/p99 in its note. */
function viewerRows(st: StreamFigures, v: ViewerFigures, f: Figures, full: boolean): Row[] {
  const bl = baselineOf(st, v, f);
  const label = `${INGEST[st.ingest]}, ${v.path.label} (${v.path.query})`;
  const p50: Row = {
    metric: `${label} p50`,
    value: v.latency.p50,
    unit: 'ms',
    ...(bl ? { baseline: bl.p50 } : {}),
    note:
      `target ≤ ${v.path.targetP50Ms} ms: ${metOrMissed(v.latency.p50 <= v.path.targetP50Ms)}; ${v.latency.n} frames; ` +
      (full ? '' : `p95 ${fixed(v.latency.p95, 0)}, p99 ${fixed(v.latency.p99, 0)} ms; `) +
      `${pathNote(v)}${v.error ? `; ${v.error}` : ''}`,
  };
  if (!full) return [p50];
  return [
    p50,
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
      ...(f.loopback && st.ingest !== 'rtmp' ? { baseline: f.loopback.flow.fps } : {}),
      note:
        `longest gap ${fixed(v.flow.longestGapMs, 0)} ms; skipped ${v.flow.skipped}, repeated ${v.flow.repeats}, ` +
        `seeks ${v.seeks}; unmatched ${v.unmatched}, undecoded ${v.undecoded}; first frame ${fixed(v.firstFrameMs, 0)} ms after goto; ` +
        `sockets ${v.sockets.join(', ') || 'none'}`,
    },
  ];
}

/** The RTMP encoder: how late its frames went in after their slots (the error bound), its own CPU. */
function encoderRows(st: StreamFigures): Row[] {
  const e = st.encoder;
  if (!e) return [];
  return [
    {
      metric: 'RTMP ingest, frame written to the encoder after its slot p99',
      value: e.handedLate.p99,
      unit: 'ms',
      note:
        `the broadcaster time is the slot (t0 + n/30): RTMP latencies are overstated by at most this; ` +
        `p50 ${fixed(e.handedLate.p50, 1)}, max ${fixed(e.handedLate.max, 0)} ms; ${e.handedLate.n} frames in the window, ` +
        `${e.dropped} dropped` +
        (e.exitedEarly === undefined ? '' : `; ffmpeg exited ${e.exitedEarly} early`),
    },
    {
      metric: 'RTMP ingest, the encoder (the bench’s ffmpeg) CPU',
      value: e.cpuPercent,
      unit: '% of a core',
      note: `not in the server's figure: ${e.command}`,
    },
  ];
}

function streamRows(st: StreamFigures, f: Figures, index: number): Row[] {
  const full = index === 0;
  const browser = st.ingest !== 'rtmp';
  const cpuTarget = COPIED.includes(st.ingest)
    ? `target ≤ ${TARGET.h264CpuPercent} %: ${metOrMissed(st.cpu.percent <= TARGET.h264CpuPercent)}; `
    : '';
  return [
    ...st.viewers.flatMap((v) => viewerRows(st, v, f, full)),
    ...encoderRows(st),
    ...(full && browser
      ? [
          {
            metric: `${INGEST[st.ingest]}, broadcaster preview frames shown/s`,
            value: st.previewFlow.fps,
            unit: '/s',
            note: `the clip is ${CLIP.fps} fps; longest gap ${fixed(st.previewFlow.longestGapMs, 0)} ms; skipped ${st.previewFlow.skipped}; undecoded ${st.previewUndecoded}`,
          },
          {
            metric: 'camera → preview (captureTime) p50',
            value: st.cameraToPreview.p50,
            unit: 'ms',
            note: st.cameraToPreview.n
              ? `p95 ${fixed(st.cameraToPreview.p95, 0)} ms; ${st.cameraToPreview.n} frames`
              : 'Chromium gave no captureTime',
          },
        ]
      : []),
    {
      metric: `${INGEST[st.ingest]}, server + ffmpeg CPU`,
      value: st.cpu.percent,
      unit: '% of a core',
      ...(f.idle ? { baseline: f.idle.percent } : {}),
      note:
        `${cpuTarget}${cpuSplit(st.cpu)}${st.encoder ? ` (the bench's encoder apart: ${fixed(st.encoder.cpuPercent)} %)` : ''}; publisher sent ${st.mimeType || '?'}, video ${st.video}, ` +
        `${outputNote(st)}; ` +
        `${fixed(st.cpu.wallSec, 0)} s window, 3 viewers; load ${loads(st.loadAverage.from)} → ${loads(st.loadAverage.to)}`,
    },
  ];
}

function joinRows(f: Figures): Row[] {
  const s = f.joinSummary;
  if (!f.joins.length) return [];
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
      note: `target ≤ ${TARGET.lateJoinFirstFrameMs} ms: ${metOrMissed(s.p95 <= TARGET.lateJoinFirstFrameMs)}; max ${fixed(s.max, 0)} ms`,
    },
    ...f.joins.map(
      (j): Row => ({
        metric: `late join ${j.index}: navigation → first frame`,
        value: j.firstFrameMs,
        unit: 'ms',
        note:
          `${fixed(j.atStreamSec, 0)} s into the stream, on ${j.dataPath || '?'}; HTML ${fixed(j.htmlMs, 0)}, ` +
          `DOMContentLoaded ${fixed(j.domContentLoadedMs, 0)}, room API ${fixed(j.streamApiMs, 0)}, media socket ` +
          `created ${fixed(j.mediaSocketCreatedMs, 0)} / open ${fixed(j.mediaSocketOpenMs, 0)} / first bytes ` +
          `${fixed(j.firstMediaBytesMs, 0)} ms; ${marksText(j.marks)}first frame ${fixed(j.firstFrameLatencyMs, 0)} ms behind, ` +
          `then p50 ${fixed(j.settledLatencyMs, 0)} ms` +
          (j.error ? `; ${j.error}` : ''),
      }),
    ),
  ];
}

/** The player's marks in time order: "shell-start 410, reset 620, … ms; " (nothing when there are none). */
function marksText(marks: Record<string, number>): string {
  const steps = Object.entries(marks).sort((a, b) => a[1] - b[1]);
  if (steps.length === 0) return '';
  return `player ${steps.map(([name, at]) => `${name.replace(/^live-video:/, '')} ${at}`).join(', ')} ms; `;
}

export function rowsOf(f: Figures, rig: Rig, measured: Measured): Row[] {
  return [
    {
      metric: 'machine load average (1 min) before',
      value: rig.loadAverageBefore[0] ?? Number.NaN,
      unit: '',
      note: `before ${loads(rig.loadAverageBefore)}, after ${loads(measured.loadAverageAfter)} (1, 5, 15 min); ${availableParallelism()} CPUs`,
    },
    ...f.streams.flatMap((st, i) => streamRows(st, f, i)),
    ...(f.idle
      ? [
          {
            metric: 'server CPU, idle (no stream)',
            value: f.idle.percent,
            unit: '% of a core',
            note: `${cpuSplit(f.idle)}; ${fixed(f.idle.wallSec, 0)} s`,
          },
        ]
      : []),
    ...joinRows(f),
  ];
}

const clockPages = (measured: Measured) =>
  (
    [
      ...measured.streams.flatMap((st) => [
        ...(st.sellerState ? [[`${st.ingest} seller`, st.sellerState] as const] : []),
        ...st.viewers.map((v) => [`${st.ingest} viewer ${v.path.key}`, v.state] as const),
      ]),
      ['late-join seller', measured.lateJoins?.sellerState],
      ...(measured.lateJoins?.runs ?? []).map((r) => [`late ${r.index}`, r.state] as const),
    ] as Array<readonly [string, ProbeState | undefined]>
  ).map(([page, s]) => ({ page, offsetMinusTimeOriginMs: s ? s.offsetMs - s.timeOrigin : Number.NaN }));

/** Judges the run, prints the table and writes bench/results/latency*.json; true when every viewer had samples. */
export function judgeAndReport(rig: Rig, measured: Measured, cleanedAt: number): boolean {
  const { options } = rig;
  const f = figures(measured);
  const verdicts = verdictsOf(f);
  const name =
    'latency' +
    (options.seconds === DEFAULTS.seconds ? '' : `-${options.seconds}s`) +
    (options.ingests.length === 1 ? `-${options.ingests[0]}` : '');
  report(name, rowsOf(f, rig, measured), {
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
      'per ingest a stream with one viewer per delivery path (?path=ws, ?path=hls, ?path=hlsjs); CPU = the server ' +
      'process and its ffmpeg children (/proc utime + stime, reaped children’s cutime + cstime) over the window. ' +
      'RTMP ingest: ffmpeg as OBS (libx264 veryfast zerolatency, keyframe every 1 s, 1.5 Mbit/s CBR, AAC, FLV) ' +
      'reads raw frames and PCM from the bench, which writes frame n at its slot t0 + n/30 (wall clock); the ' +
      'broadcaster time of frame n is its slot, so the latency includes the encoder, and the pacer’s lateness ' +
      '(encoder.handedLate) bounds the error; the encoder’s CPU is reported apart (encoder.cpuPercent)',
    baseline:
      'loopback: the same camera recorded with the app’s MediaRecorder settings and appended to MSE in the same page ' +
      '(no network, no server), with the player’s live-edge rule; playback time − preview time of the same frame; ' +
      'for the RTMP rows, the browser’s H.264 ingest on the same path in this run; CPU: the idle server before any stream',
    clip: { ...CLIP, frames: CLIP_FRAMES, bytes: rig.clip.bytes, generateMs: rig.clip.ms },
    streams: f.streams.map((st, i) => ({
      ...st,
      viewers: st.viewers.map(({ path, ...v }) => ({ path: path.key, ...v })),
      sellerProblems: measured.streams[i]?.sellerProblems ?? [],
    })),
    idleCpu: f.idle,
    loopback: f.loopback ? { ...f.loopback, status: measured.loopback?.status } : undefined,
    lateJoins: { ...f.joinSummary, joins: f.joins, sellerProblems: measured.lateJoins?.sellerProblems ?? [] },
    clocks: {
      note: 'per page: offset (Date.now() − performance.now()) vs performance.timeOrigin; they should agree to ~1 ms',
      pages: clockPages(measured),
    },
    durationSec: (cleanedAt - rig.started) / 1000,
    verdicts,
  });
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  const empty = f.streams.flatMap((st) =>
    st.viewers.filter((v) => v.latency.n === 0).map((v) => [st, v] as const),
  );
  for (const [st, v] of empty)
    console.error(
      `!! no latency sample for ${INGEST[st.ingest]} on ${v.path.label}: no frame matched the broadcaster's`,
    );
  return empty.length === 0;
}
