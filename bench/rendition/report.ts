/** The figures of each row, the summary table, and bench/results/rendition*.json. */

import { availableParallelism } from 'node:os';
import { percentile, type Row as ReportRow, report } from '../report.ts';
import { fixed } from '../support.ts';
import type { Clip } from './clip.ts';
import {
  DEFAULTS,
  type Options,
  REAL_TIME_MIN,
  type Row,
  SERVER_BACKLOG_LIMIT_BYTES,
  SOURCE,
} from './options.ts';
import type { BatchRun, LiveRun, Segment } from './run.ts';

export interface RowRuns {
  row: Row;
  live: LiveRun[];
  batch: BatchRun | undefined;
}

interface Spread {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export interface RowFigures {
  key: string;
  label: string;
  streams: number;
  /** ffmpeg's CPU per stream over the window, % of one core (mean over the parallel streams). */
  cpuPercent: number;
  /** Over the copy row's, when it was measured in the run. */
  addedPercent: number;
  perCore: number;
  perMachine: number;
  /** Output media seconds per wall second over the window (the slowest stream). */
  realTime: number;
  keepsUp: boolean;
  /** Runnable but waiting for a CPU (other work on the machine), % of the window. */
  runQueuePercent: number;
  maxBacklogKb: number;
  /**
   * The whole machine's busy CPU over the window, % of one core (all cores: up to 100 × cores),
   * this node process's share (feeding and reading the streams), the rest that was neither (other
   * work on the machine); and CPU time the host stole from the VM.
   */
  machinePercent: number;
  benchPercent: number;
  otherPercent: number;
  stealPercent: number;
  /** ffmpeg's resident memory at the window's end, MB (the largest of the parallel streams). */
  rssMb: number;
  /** Input written (a keyframe) → its fragment on stdout (the WebSocket path), ms. */
  liveDelayMs: Spread;
  /** The keyframe that closes a segment written → the segment file there, ms. */
  segmentDelayMs: Spread;
  lowSegmentDelayMs: Spread | undefined;
  firstSegmentMs: number;
  lowFirstSegmentMs: number;
  kbps: number;
  lowKbps: number;
  dropFrames: number;
  dupFrames: number;
  /** Fed as fast as it reads: media seconds per wall second, and CPU per media second. */
  batchSpeed: number;
  batchCpuPercent: number;
  problems: string[];
  /** Every delay of the window in order, ms, one list per stream (for stalls and trends). */
  samples: { live: number[][]; main: number[][]; low: number[][] };
}

const spread = (values: number[]): Spread => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  max: values.length ? Math.max(...values) : Number.NaN,
});

const inWindow = (run: LiveRun, at: number) => at >= run.window.from && at <= run.window.to;

/** Segment k's end, as media time, matched to the keyframe written at that time (within 100 ms). */
function segmentDelays(run: LiveRun, segments: Segment[]): number[] {
  const first = run.keyframes[0]?.mediaMs ?? 0;
  const delays: number[] = [];
  let endMs = 0;
  for (const segment of segments) {
    endMs += segment.durationSec * 1000;
    let best = run.keyframes[0];
    for (const k of run.keyframes)
      if (Math.abs(k.mediaMs - first - endMs) < Math.abs((best?.mediaMs ?? 0) - first - endMs)) best = k;
    if (!best || Math.abs(best.mediaMs - first - endMs) > 100 || !inWindow(run, best.at)) continue;
    if (Number.isFinite(segment.seenAt)) delays.push(segment.seenAt - best.at);
  }
  return delays;
}

/** The fragment of the k-th keyframe on stdout against the k-th keyframe written. */
function liveDelays(run: LiveRun): number[] {
  return run.keyframes.flatMap((k, i) => {
    const arrived = run.liveKeyframes[i];
    return arrived !== undefined && inWindow(run, k.at) ? [arrived - k.at] : [];
  });
}

function realTimeOf(run: LiveRun): number {
  const points = run.progress.filter((p) => inWindow(run, p.at));
  const a = points[0];
  const b = points.at(-1);
  if (!a || !b || b.at - a.at < 1000) return Number.NaN;
  return (b.outTimeUs - a.outTimeUs) / 1000 / (b.at - a.at);
}

/** kbit/s of the segments (video + audio), the last (cut by the end of the input) left out. */
function kbpsOf(segments: Segment[] | undefined): number {
  const whole = (segments ?? []).slice(0, -1);
  const seconds = whole.reduce((s, x) => s + x.durationSec, 0);
  return seconds ? (whole.reduce((s, x) => s + x.bytes, 0) * 8) / seconds / 1000 : Number.NaN;
}

function problemsOf(run: LiveRun): string[] {
  return [
    ...(run.endedEarly ? [`ffmpeg ended before the window did: ${run.stderr || 'no message'}`] : []),
    ...(run.exitCode !== 0
      ? [`ffmpeg exited with ${run.exitCode ?? run.signal}: ${run.stderr || 'no message'}`]
      : []),
    ...(run.maxBacklog > SERVER_BACKLOG_LIMIT_BYTES
      ? [`input backlog ${fixed(run.maxBacklog / 1e6)} MB: the server would have restarted this ffmpeg`]
      : []),
    ...(run.main.length === 0 ? ['no HLS segment written'] : []),
    ...(run.low && run.low.length === 0 ? ['no segment of the low rendition written'] : []),
  ];
}

export function figuresOf(runs: RowRuns[]): RowFigures[] {
  const cpus = availableParallelism();
  const figures = runs.map(({ row, live, batch }): RowFigures => {
    const cpu = live.map((r) => (r.window.cpuSec / (r.window.to - r.window.from)) * 100000);
    const cpuPercent = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    const realTime = Math.min(...live.map(realTimeOf));
    const lastProgress = live.map((r) => r.progress.at(-1));
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    return {
      key: row.key,
      label: row.label,
      streams: live.length,
      cpuPercent,
      addedPercent: Number.NaN,
      perCore: Math.floor(100 / cpuPercent),
      perMachine: Math.floor((100 * cpus) / cpuPercent),
      realTime,
      keepsUp: realTime >= REAL_TIME_MIN,
      runQueuePercent: mean(live.map((r) => (r.window.runQueueSec / (r.window.to - r.window.from)) * 100000)),
      maxBacklogKb: Math.max(...live.map((r) => r.maxBacklog)) / 1000,
      rssMb: Math.max(...live.map((r) => r.window.rssMb)),
      machinePercent: mean(
        live.map((r) => (r.window.machineBusySec / (r.window.to - r.window.from)) * 100000),
      ),
      benchPercent: mean(live.map((r) => (r.window.benchCpuSec / (r.window.to - r.window.from)) * 100000)),
      otherPercent: Number.NaN,
      stealPercent: mean(
        live.map((r) => (r.window.machineStealSec / (r.window.to - r.window.from)) * 100000),
      ),
      liveDelayMs: spread(live.flatMap(liveDelays)),
      segmentDelayMs: spread(live.flatMap((r) => segmentDelays(r, r.main))),
      lowSegmentDelayMs: live.some((r) => r.low)
        ? spread(live.flatMap((r) => segmentDelays(r, r.low ?? [])))
        : undefined,
      firstSegmentMs: mean(live.map((r) => (r.main[0]?.seenAt ?? Number.NaN) - r.startedAt)),
      lowFirstSegmentMs: mean(live.map((r) => (r.low?.[0]?.seenAt ?? Number.NaN) - r.startedAt)),
      kbps: mean(live.map((r) => kbpsOf(r.main))),
      lowKbps: mean(live.map((r) => kbpsOf(r.low))),
      dropFrames: Math.max(...lastProgress.map((p) => p?.dropFrames ?? 0)),
      dupFrames: Math.max(...lastProgress.map((p) => p?.dupFrames ?? 0)),
      batchSpeed: batch ? batch.mediaSec / batch.wallSec : Number.NaN,
      batchCpuPercent: batch ? (batch.cpuSec / batch.mediaSec) * 100 : Number.NaN,
      samples: {
        live: live.map((r) => liveDelays(r).map(Math.round)),
        main: live.map((r) => segmentDelays(r, r.main).map(Math.round)),
        low: live.map((r) => segmentDelays(r, r.low ?? []).map(Math.round)),
      },
      problems: [
        ...live.flatMap(problemsOf),
        ...(batch && batch.exitCode !== 0
          ? [`batch: ffmpeg exited with ${batch.exitCode}: ${batch.stderr}`]
          : []),
      ],
    };
  });
  const copy = figures.find((f) => f.key === 'copy');
  for (const f of figures) {
    f.addedPercent = copy ? f.cpuPercent - copy.cpuPercent : Number.NaN;
    f.otherPercent = f.machinePercent - f.cpuPercent * f.streams - f.benchPercent;
  }
  return figures;
}

const ms = (n: number) => (Number.isFinite(n) ? `${fixed(n, 0)}` : '-');
const pair = (s: Spread | undefined) => (s?.n ? `${ms(s.p50)} / ${ms(s.p95)}` : '-');

/** One line per row: what goes into docs/benchmarks.md. */
export function summaryTable(figures: RowFigures[]): Record<string, string | number>[] {
  return figures.map((f) => ({
    row: f.label + (f.streams > 1 ? ` ×${f.streams}` : ''),
    'CPU % of a core': fixed(f.cpuPercent),
    'added over copy': f.key === 'copy' || Number.isNaN(f.addedPercent) ? '' : fixed(f.addedPercent),
    'fit 1 / all cores': `${f.perCore} / ${f.perMachine}`,
    'real time ×': fixed(f.realTime, 2),
    'batch ×': Number.isNaN(f.batchSpeed) ? '' : fixed(f.batchSpeed, 1),
    'WS delay p50/p95 ms': pair(f.liveDelayMs),
    'HLS 1080 p50/p95 ms': pair(f.segmentDelayMs),
    'HLS low p50/p95 ms': pair(f.lowSegmentDelayMs),
    'first seg ms': `${ms(f.firstSegmentMs)}${f.lowSegmentDelayMs ? ` / ${ms(f.lowFirstSegmentMs)}` : ''}`,
    'low kbit/s': f.lowSegmentDelayMs ? fixed(f.lowKbps, 0) : '',
    'CPU wait %': fixed(f.runQueuePercent),
    'other work %': fixed(f.otherPercent),
    'RSS MB': fixed(f.rssMb, 0),
  }));
}

function reportRows(figures: RowFigures[]): ReportRow[] {
  const copy = figures.find((f) => f.key === 'copy');
  const cpus = availableParallelism();
  return figures.flatMap((f): ReportRow[] => [
    {
      metric: `${f.label}: ffmpeg CPU per stream`,
      value: f.cpuPercent,
      unit: '% of a core',
      ...(copy && f !== copy ? { baseline: copy.cpuPercent } : {}),
      note:
        `${f.streams} stream(s) at once; fits ${f.perCore} per core, ${f.perMachine} on ${cpus} cores; ` +
        `its threads waited for a CPU ${fixed(f.runQueuePercent)} % of the window; the machine was busy ` +
        `${fixed(f.machinePercent)} % of a core, ${fixed(f.benchPercent)} of it this bench's node process and ` +
        `${fixed(f.otherPercent)} other work; host steal ` +
        `${fixed(f.stealPercent)} %; ${fixed(f.rssMb, 0)} MB resident; batch: ${fixed(f.batchSpeed, 1)}× real time at ` +
        `${fixed(f.batchCpuPercent)} % of a core per real-time second`,
    },
    {
      metric: `${f.label}: real-time factor`,
      value: f.realTime,
      unit: '×',
      note:
        `${f.keepsUp ? 'keeps up' : 'FALLS BEHIND'} (≥ ${REAL_TIME_MIN}); input backlog at most ${fixed(f.maxBacklogKb, 0)} kB; ` +
        `dropped ${f.dropFrames}, duplicated ${f.dupFrames} frames` +
        (f.problems.length ? `; !! ${f.problems.join('; ')}` : ''),
    },
    {
      metric: `${f.label}: keyframe written → on stdout (WebSocket path) p50`,
      value: f.liveDelayMs.p50,
      unit: 'ms',
      ...(copy && f !== copy ? { baseline: copy.liveDelayMs.p50 } : {}),
      note: `p95 ${ms(f.liveDelayMs.p95)}, max ${ms(f.liveDelayMs.max)} ms; ${f.liveDelayMs.n} keyframes`,
    },
    {
      metric: `${f.label}: closing keyframe written → 1080p HLS segment p50`,
      value: f.segmentDelayMs.p50,
      unit: 'ms',
      ...(copy && f !== copy ? { baseline: copy.segmentDelayMs.p50 } : {}),
      note:
        `p95 ${ms(f.segmentDelayMs.p95)}, max ${ms(f.segmentDelayMs.max)} ms; ${f.segmentDelayMs.n} segments; first ` +
        `segment ${ms(f.firstSegmentMs)} ms after the first frame; ${fixed(f.kbps, 0)} kbit/s`,
    },
    ...(f.lowSegmentDelayMs
      ? [
          {
            metric: `${f.label}: closing keyframe written → low HLS segment p50`,
            value: f.lowSegmentDelayMs.p50,
            unit: 'ms',
            ...(copy ? { baseline: copy.segmentDelayMs.p50 } : {}),
            note:
              `p95 ${ms(f.lowSegmentDelayMs.p95)}, max ${ms(f.lowSegmentDelayMs.max)} ms; ${f.lowSegmentDelayMs.n} ` +
              `segments; first segment ${ms(f.lowFirstSegmentMs)} ms after the first frame; ${fixed(f.lowKbps, 0)} kbit/s ` +
              '(video + audio)',
          },
        ]
      : []),
  ]);
}

export function writeReport(
  runs: RowRuns[],
  options: Options,
  context: { clip: Clip; loadAverageBefore: number[]; loadAverageAfter: number[]; durationSec: number },
): RowFigures[] {
  const figures = figuresOf(runs);
  const name =
    'rendition' +
    (options.parallel > 1 ? `-x${options.parallel}` : '') +
    (options.seconds === DEFAULTS.seconds ? '' : `-${options.seconds}s`);
  const { clip } = context;
  report(name, reportRows(figures), {
    options: { ...options, rows: options.rows.map((r) => r.key) },
    machine: {
      cpus: availableParallelism(),
      loadAverageBefore: context.loadAverageBefore,
      loadAverageAfter: context.loadAverageAfter,
    },
    source: { ...SOURCE, bytes: clip.bytes, videoFrames: clip.videoFrames, keyframes: clip.keyframes },
    clipGenerateMs: clip.generateMs,
    method:
      'one ffmpeg per stream, spawned as the server spawns its pipeline (its arguments: pipelineArgs(true); a rendition ' +
      'adds a scaled libx264 stream written as a second HLS playlist by the same tee muxer); a 1080p30 FLV clip fed into ' +
      'stdin in real time and looped; CPU = /proc/<pid>/stat utime + stime of ffmpeg over the window; real time = ' +
      "ffmpeg's out_time advance over wall time in the window; delays from the write of a keyframe to its fragment on " +
      'stdout and to the file of the HLS segment it closes (folders polled every 20 ms)',
    figures,
    durationSec: context.durationSec,
  });
  console.log(`\n${name}: summary (ffmpeg only; the server's own relay CPU comes on top)`);
  console.table(summaryTable(figures));
  for (const f of figures) for (const p of f.problems) console.error(`!! ${f.label}: ${p}`);
  return figures;
}
