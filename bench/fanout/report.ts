/** The fan-out bench's table and JSON: the app against the floor per viewer count, then the slow viewer. */

import { percentile, type Row, report } from '../report.ts';
import { fixed } from '../support.ts';
import type { Options } from './options.ts';
import { figuresOf, type SlowRun, type WindowFigures, type WindowRun } from './phases.ts';

export interface CountRun {
  count: number;
  app: WindowRun;
  floor: WindowRun;
}

function countRows(run: CountRun): Row[] {
  const a = figuresOf(run.app);
  const f = figuresOf(run.floor);
  const n = run.count;
  const cpu: Row = {
    metric: `${n} viewers: server CPU`,
    value: a.serverCpuPercent,
    unit: '% core',
    baseline: f.serverCpuPercent,
    note:
      `app's ffmpeg ${fixed(a.ffmpegCpuPercent)} %; viewer processes ${fixed(a.clientsCpuPercent, 0)} / ${fixed(f.clientsCpuPercent, 0)} %; ` +
      `waiting for a CPU: server ${fixed(run.app.waitPercent.server, 0)} / ${fixed(run.floor.waitPercent.server, 0)} %, ` +
      `viewers ${fixed(run.app.waitPercent.clients, 0)} / ${fixed(run.floor.waitPercent.clients, 0)} %`,
  };
  if (n === 0) return [{ ...cpu, note: `no viewer but the reference; ${cpu.note}` }];
  return [
    cpu,
    {
      metric: `${n} viewers: rate per viewer, median`,
      value: a.medianMbps,
      unit: 'Mbit/s',
      baseline: f.medianMbps,
      note:
        `lowest ${fixed(a.minMbps, 2)} / ${fixed(f.minMbps, 2)}; at full rate ${a.atFullRate} / ${f.atFullRate} of ${n}; ` +
        `skipped ahead ${a.skipped} / ${f.skipped}; ` +
        `stream ${fixed(a.referenceMbps, 2)} / ${fixed(f.referenceMbps, 2)}`,
    },
    {
      metric: `${n} viewers: gap between messages, p99`,
      value: a.gapP99,
      unit: 'ms',
      baseline: f.gapP99,
      note: `p50 ${a.gapP50} / ${f.gapP50}; max ${fixed(a.gapMax, 0)} / ${fixed(f.gapMax, 0)}; closed ${a.closed} / ${f.closed}`,
    },
  ];
}

function slowRows(run: SlowRun, options: Options): Row[] {
  const w = figuresOf(run.with);
  const o = figuresOf(run.without);
  const { slow } = run;
  const n = options.slowNormal;
  type Figure = Exclude<keyof WindowFigures, 'atFullRateByGroup'>;
  const compare = (metric: string, key: Figure, unit: string, note?: string): Row => ({
    metric: `${n} viewers: ${metric}`,
    value: w[key],
    unit,
    baseline: o[key],
    ...(note ? { note } : {}),
  });
  const unthrottledAt = slow.unthrottledAt ?? Number.POSITIVE_INFINITY;
  const whileThrottled = slow.skips.filter((k) => k.at < unthrottledAt).length;
  const atKeyframe = slow.skips.filter((k) => k.resumedAtKeyframe).length;
  const missed = slow.skips.reduce((m, k) => m + k.missed, 0);
  const fragmentsPerSec = run.streamFragments / run.throttledSec;
  const streamBytesPerSec = run.with.referenceRate;
  const firstAfter = slow.skips.find((k) => k.at >= unthrottledAt);
  const stale = firstAfter ? firstAfter.bytesBefore - run.atUnthrottle.bytes : Number.NaN;
  const kernel = run.kernel;
  return [
    compare('rate per viewer, median', 'medianMbps', 'Mbit/s', `stream ${fixed(w.referenceMbps, 2)}`),
    compare('rate of the lowest viewer', 'minMbps', 'Mbit/s'),
    compare('at full rate', 'atFullRate', `of ${n}`),
    compare('skipped ahead by the server', 'skipped', `of ${n}`),
    compare('gap between messages, p99', 'gapP99', 'ms'),
    compare('largest gap', 'gapMax', 'ms'),
    compare('server CPU', 'serverCpuPercent', '% core'),
    {
      metric: 'server RSS growth with the slow viewer',
      value: run.rss.peak - run.rss.before,
      unit: 'MB',
      note: `before ${fixed(run.rss.before)}, peak ${fixed(run.rss.peak)}, end ${fixed(run.rss.end)} MB`,
    },
    {
      metric: 'slow viewer: received while throttled',
      value: (run.atUnthrottle.bytes * 8) / run.throttledSec / 1000,
      unit: 'kbit/s',
      note: `reads at most ${options.slowKbps} kbit/s, for ${fixed(run.throttledSec, 0)} s; ${run.atUnthrottle.fragments} of the stream's ${run.streamFragments} fragments`,
    },
    {
      metric: 'slow viewer: behind the others then',
      value: run.atUnthrottle.lateMs / 1000,
      unit: 's',
      note: 'its newest fragment: arrival there − arrival at the reference viewer',
    },
    ...(kernel
      ? [
          {
            metric: "slow viewer's connection in the kernel then",
            value: (kernel.serverSendQ + kernel.viewerRecvQ) / 1024 / 1024,
            unit: 'MB',
            note: `server's Send-Q ${fixed(kernel.serverSendQ / 1024, 0)} kB (at most ${fixed(kernel.maxServerSendQ / 1024, 0)}) + its Recv-Q ${fixed(kernel.viewerRecvQ / 1024, 0)} kB; not in the RSS`,
          },
        ]
      : []),
    {
      metric: 'slow viewer, unthrottled: stale bytes before its first skip',
      value: stale / 1024 / 1024,
      unit: 'MB',
      note: `≈ ${fixed(stale / streamBytesPerSec)} s of the stream, read at full speed`,
    },
    {
      metric: 'slow viewer: skipped ahead',
      value: slow.skips.length,
      unit: 'times',
      note: `${whileThrottled} seen while throttled; ${atKeyframe} resumed at a keyframe; ${missed} fragments missed (≈ ${fixed(missed / fragmentsPerSec)} s)`,
    },
    {
      metric: 'slow viewer, unthrottled: live again after',
      value: slow.liveAgainAt === undefined ? Number.NaN : (slow.liveAgainAt - unthrottledAt) / 1000,
      unit: 's',
      note: `< 0.5 s behind the reference viewer; late median over its life ${fixed(percentile(slow.lateMs, 50) / 1000)} s`,
    },
  ];
}

/** Prints and writes bench/results/fanout.json; answers whether the slow viewer cost the others nothing. */
export function reportFanout(
  runs: CountRun[],
  slow: SlowRun | undefined,
  options: Options,
  meta: Record<string, unknown>,
): boolean {
  const rows = runs.flatMap(countRows);
  const strip = (r: WindowRun) => ({
    ...r,
    gapHistogram: undefined,
    viewers: undefined,
    figures: figuresOf(r),
  });
  const sections: Parameters<typeof report>[3] = slow
    ? {
        'slow viewer': {
          rows: slowRows(slow, options),
          meta: {
            without: strip(slow.without),
            with: strip(slow.with),
            skips: slow.slow.skips,
            rss: slow.rss,
            kernel: slow.kernel,
          },
        },
      }
    : {};
  report(
    'fanout',
    rows,
    {
      ...meta,
      options,
      counts: runs.map((r) => ({ count: r.count, app: strip(r.app), floor: strip(r.floor) })),
    },
    sections,
  );
  if (!slow) return true;
  const w = figuresOf(slow.with);
  const o = figuresOf(slow.without);
  const unharmed = w.atFullRate >= o.atFullRate && w.medianMbps >= 0.95 * o.medianMbps;
  const bounded = slow.slow.skips.length > 0 && slow.slow.skips.every((s) => s.resumedAtKeyframe);
  console.log(
    `\nslow viewer: the others ${unharmed ? 'kept' : 'did NOT keep'} their rate; the slow one ` +
      (bounded ? 'was skipped ahead to keyframes' : 'was NOT skipped ahead to keyframes (yet)'),
  );
  return unharmed;
}
