/**
 * The measured phases. A fan-out phase: N viewers join a target (the app's /ws/media or the floor),
 * spread over the viewer children; after the warm-up a window of fixed length in which the target's
 * CPU (/proc: its own threads; the app's ffmpeg apart), its RSS and every viewer's bytes, messages
 * and gaps are taken; then they leave. The slow-viewer phase: the same window with `slowNormal`
 * viewers on the app, then a slow viewer joins and reads until the server first skipped it
 * (at most `slowFill` s), and the window again with it there.
 */

import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { type CpuUse, cpuBetween, snapshot } from '../latency/cpu.ts';
import { cpuSeconds, rssMb, runQueueWaitSeconds, sleep, sum } from '../support.ts';
import type { Options } from './options.ts';
import { connectSlowViewer, type Reference, type SlowViewer } from './reference.ts';
import { GAP_BUCKETS, type ViewerGroup, type ViewerWindow } from './viewers.ts';

export interface Target {
  label: string;
  url: string;
  pid: number;
  /** The bench's own full-speed viewer on it: the stream's rate over each window. */
  reference: Reference;
}

export interface WindowRun {
  seconds: number;
  cpu: CpuUse;
  /** The viewer children's CPU, % of one core. */
  clientsCpuPercent: number;
  /** Time runnable but waiting for a CPU (schedstat), % of the window: the target's threads, the viewer children's. */
  waitPercent: { server: number; clients: number };
  /** The reference viewer's rate over the window (bytes/s). */
  referenceRate: number;
  viewers: ViewerWindow[];
  gapHistogram: number[];
  rssMb: number;
  loadAverage: number[];
}

export interface WindowFigures {
  viewers: number;
  /** Per-viewer received rate (Mbit/s): median, lowest. */
  medianMbps: number;
  minMbps: number;
  referenceMbps: number;
  /** Viewers that received at least 90 % of what the reference viewer did; the same per viewer child. */
  atFullRate: number;
  atFullRateByGroup: number[];
  /** Gaps between two binary messages of a viewer (ms), over every viewer. */
  gapP50: number;
  gapP99: number;
  gapMax: number;
  /** Viewers the server skipped ahead at least once in the window (a jump in their fragments' numbers). */
  skipped: number;
  closed: number;
  serverCpuPercent: number;
  ffmpegCpuPercent: number;
  clientsCpuPercent: number;
  rssMb: number;
}

const mbps = (bytes: number, seconds: number) => (bytes * 8) / seconds / 1e6;

function histogramPercentile(histogram: number[], p: number): number {
  const total = sum(histogram);
  if (!total) return Number.NaN;
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    seen += histogram[ms] ?? 0;
    if (seen >= (p / 100) * total) return ms;
  }
  return histogram.length - 1;
}

export function figuresOf(run: WindowRun): WindowFigures {
  const rates = run.viewers.map((v) => mbps(v.bytes, run.seconds)).sort((a, b) => a - b);
  const referenceMbps = mbps(run.referenceRate, 1);
  return {
    viewers: run.viewers.length,
    medianMbps: rates[Math.floor(rates.length / 2)] ?? Number.NaN,
    minMbps: rates[0] ?? Number.NaN,
    referenceMbps,
    atFullRate: rates.filter((r) => r >= 0.9 * referenceMbps).length,
    atFullRateByGroup: [...new Set(run.viewers.map((v) => v.group))].map(
      (g) =>
        run.viewers.filter((v) => v.group === g && mbps(v.bytes, run.seconds) >= 0.9 * referenceMbps).length,
    ),
    gapP50: histogramPercentile(run.gapHistogram, 50),
    gapP99: histogramPercentile(run.gapHistogram, 99),
    gapMax: Math.max(0, ...run.viewers.map((v) => v.maxGapMs)),
    skipped: run.viewers.filter((v) => v.skips > 0).length,
    closed: run.viewers.filter((v) => v.closed).length,
    serverCpuPercent: run.cpu.serverPercent,
    ffmpegCpuPercent: run.cpu.ffmpegPercent,
    clientsCpuPercent: run.clientsCpuPercent,
    rssMb: run.rssMb,
  };
}

/** `count` viewers join `url`, spread over the groups; throws when any could not. */
async function openViewers(groups: ViewerGroup[], url: string, count: number): Promise<void> {
  const shares = groups.map(
    (_, i) => Math.floor(count / groups.length) + (i < count % groups.length ? 1 : 0),
  );
  const opened = await Promise.all(groups.map((g, i) => g.open(url, shares[i] ?? 0)));
  const failed = opened.flatMap((o) => o.failed);
  if (failed.length) throw new Error(`${failed.length}+ viewers could not join ${url}: ${failed[0]}`);
}

/** One window of `seconds` on the target with the viewers already there. */
async function measureWindow(target: Target, groups: ViewerGroup[], seconds: number): Promise<WindowRun> {
  await Promise.all(groups.map((g) => g.mark()));
  const cpuFrom = snapshot(target.pid);
  const clientsFrom = sum(groups.map((g) => cpuSeconds(g.pid)));
  const referenceFrom = target.reference.bytes();
  const waitFrom = [runQueueWaitSeconds(target.pid), sum(groups.map((g) => runQueueWaitSeconds(g.pid)))];
  const startedAt = performance.now();
  await sleep(seconds * 1000);
  const cpu = cpuBetween(cpuFrom, snapshot(target.pid));
  const elapsed = (performance.now() - startedAt) / 1000;
  const referenceRate = (target.reference.bytes() - referenceFrom) / elapsed;
  const clientsCpuPercent = (100 * (sum(groups.map((g) => cpuSeconds(g.pid))) - clientsFrom)) / elapsed;
  const waitTo = [runQueueWaitSeconds(target.pid), sum(groups.map((g) => runQueueWaitSeconds(g.pid)))];
  const waitPercent = {
    server: (100 * ((waitTo[0] ?? 0) - (waitFrom[0] ?? 0))) / elapsed,
    clients: (100 * ((waitTo[1] ?? 0) - (waitFrom[1] ?? 0))) / elapsed,
  };
  const windows = await Promise.all(groups.map((g) => g.collect()));
  const gapHistogram = new Array<number>(GAP_BUCKETS).fill(0);
  for (const w of windows)
    w.gapHistogram.forEach((n, i) => {
      gapHistogram[i] = (gapHistogram[i] ?? 0) + n;
    });
  return {
    seconds: Math.max(...windows.map((w) => w.seconds)),
    cpu,
    clientsCpuPercent,
    waitPercent,
    referenceRate,
    viewers: windows.flatMap((w, group) => w.viewers.map((v) => ({ ...v, group }))),
    gapHistogram,
    rssMb: rssMb(target.pid),
    loadAverage: loadavg(),
  };
}

/** N viewers on the target: join, warm up, one window, leave. */
export async function fanoutPhase(
  target: Target,
  groups: ViewerGroup[],
  count: number,
  options: Options,
): Promise<WindowRun> {
  const joinedAt = performance.now();
  await openViewers(groups, target.url, count);
  const joinSec = (performance.now() - joinedAt) / 1000;
  await sleep(options.warmup * 1000);
  try {
    const run = await measureWindow(target, groups, options.seconds);
    const f = figuresOf(run);
    console.log(
      `  ${target.label}, ${count} viewers (joined in ${joinSec.toFixed(1)} s): ` +
        `server ${f.serverCpuPercent.toFixed(1)} % of a core, viewers ${f.medianMbps.toFixed(2)} Mbit/s median ` +
        `(min ${f.minMbps.toFixed(2)}, ${f.atFullRate}/${count} at full rate, ${f.skipped} skipped ahead), ` +
        `gap p99 ${f.gapP99} ms, ` +
        `clients ${f.clientsCpuPercent.toFixed(0)} % (at full rate per child: ${f.atFullRateByGroup.join(', ')}); ` +
        `waiting for a CPU: server ${run.waitPercent.server.toFixed(0)} %, clients ${run.waitPercent.clients.toFixed(0)} %`,
    );
    return run;
  } finally {
    await Promise.all(groups.map((g) => g.closeAll()));
    // The closes reach the server before the next phase.
    await sleep(1000);
  }
}

export interface SlowRun {
  without: WindowRun;
  /** The window at the end of the slow viewer's throttled reading. */
  with: WindowRun;
  slow: SlowViewer;
  /** How long it read throttled (s). */
  throttledSec: number;
  /** The reference viewer's fragments while the slow viewer read throttled. */
  streamFragments: number;
  /** Payload bytes it had received, and how far behind the others it was, when its reading was unthrottled. */
  atUnthrottle: { bytes: number; fragments: number; lateMs: number };
  rss: { before: number; peak: number; end: number };
  /** The kernel's queues of its connection at the end of the throttled reading (bytes); the server's Send-Q at most. */
  kernel: { serverSendQ: number; viewerRecvQ: number; maxServerSendQ: number } | undefined;
}

/** The connection's queues from `ss` (Linux); undefined when ss is missing or does not list it. */
function kernelQueues(
  serverPort: number,
  viewerPort: number,
): { serverSendQ: number; viewerRecvQ: number } | undefined {
  try {
    const lines = execFileSync('ss', ['-tnH', 'state', 'established'], { encoding: 'utf8' }).split('\n');
    const row = (local: number, peer: number) =>
      lines
        .map((l) => l.trim().split(/\s+/))
        .find((c) => c[2]?.endsWith(`:${local}`) && c[3]?.endsWith(`:${peer}`));
    const server = row(serverPort, viewerPort);
    const viewer = row(viewerPort, serverPort);
    if (!server || !viewer) return undefined;
    return { serverSendQ: Number(server[1]), viewerRecvQ: Number(viewer[0]) };
  } catch {
    return undefined;
  }
}

export async function slowPhase(target: Target, groups: ViewerGroup[], options: Options): Promise<SlowRun> {
  await openViewers(groups, target.url, options.slowNormal);
  await sleep(options.warmup * 1000);
  try {
    const without = await measureWindow(target, groups, options.seconds);
    const rss = { before: rssMb(target.pid), peak: 0, end: 0 };
    rss.peak = rss.before;
    const newestBefore = target.reference.newest();
    const slow = await connectSlowViewer(target.url, (options.slowKbps * 1000) / 8, target.reference);
    const ports = [Number(new URL(target.url).port), slow.client.socket.localPort ?? 0] as const;
    let maxServerSendQ = 0;
    const sampler = setInterval(() => {
      rss.peak = Math.max(rss.peak, rssMb(target.pid));
      maxServerSendQ = Math.max(maxServerSendQ, kernelQueues(...ports)?.serverSendQ ?? 0);
    }, 500);
    try {
      // Throttled for slowFill s; the window is its last `seconds`.
      await sleep(Math.max(0, options.slowFill - options.seconds) * 1000);
      const withSlow = await measureWindow(target, groups, options.seconds);
      clearInterval(sampler);
      rss.end = rssMb(target.pid);
      rss.peak = Math.max(rss.peak, rss.end);
      const queues = kernelQueues(...ports);
      const throttledSec = (performance.now() - slow.connectedAt) / 1000;
      const streamFragments = target.reference.newest() - newestBefore;
      const atUnthrottle = { bytes: slow.bytes, fragments: slow.fragments, lateMs: slow.lastLateMs };
      // Its network recovers: it reads as fast as the bytes come, until it is live again (20 s at most).
      slow.unthrottledAt = performance.now();
      slow.client.setReadRate(undefined);
      const recoverUntil = performance.now() + 20_000;
      while (slow.liveAgainAt === undefined && performance.now() < recoverUntil) await sleep(100);
      const f = figuresOf(withSlow);
      console.log(
        `  slow viewer (${options.slowKbps} kbit/s) beside ${options.slowNormal}: ` +
          `${(atUnthrottle.lateMs / 1000).toFixed(1)} s behind after ${throttledSec.toFixed(0)} s; the others ` +
          `${f.medianMbps.toFixed(2)} Mbit/s median (min ${f.minMbps.toFixed(2)}), gap p99 ${f.gapP99} ms; ` +
          `unthrottled: skipped ${slow.skips.length}×, live again ` +
          (slow.liveAgainAt === undefined
            ? 'not within 20 s'
            : `after ${((slow.liveAgainAt - slow.unthrottledAt) / 1000).toFixed(1)} s`),
      );
      return {
        without,
        with: withSlow,
        slow,
        throttledSec,
        streamFragments,
        atUnthrottle,
        rss,
        kernel: queues && { ...queues, maxServerSendQ: Math.max(maxServerSendQ, queues.serverSendQ) },
      };
    } finally {
      clearInterval(sampler);
      slow.client.close();
    }
  } finally {
    await Promise.all(groups.map((g) => g.closeAll()));
    await sleep(1000);
  }
}
