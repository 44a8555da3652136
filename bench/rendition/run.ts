/**
 * One ffmpeg of a row, as the server runs it (stdin in, the working folder as its cwd): live (fed
 * in real time, measured over a window after a warm-up, then ended as the server ends a stream)
 * or batch (fed as fast as it reads, for its top speed). Records what the figures need: CPU and
 * run-queue wait from /proc, ffmpeg's progress, the arrival of each keyframe fragment on stdout
 * (the WebSocket path) and of each HLS segment file (polled every 20 ms).
 */

import { type ChildProcessByStdio, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Fmp4Splitter } from '../../server/src/test/support.ts';
import { cpuSeconds, rssMb, runQueueWaitSeconds, sleep } from '../support.ts';
import { ffmpegArgs, LOW_DIR } from './args.ts';
import { stopAll, track } from './children.ts';
import type { Clip } from './clip.ts';
import { Feeder, type KeyframeWrite } from './feeder.ts';
import type { Row } from './options.ts';

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

const SEGMENT = /^seg-(\d{5})\.m4s$/;
const POLL_MS = 20;
/** How long an ended ffmpeg may take to write its last segment (the server's stopGraceMs). */
const STOP_GRACE_MS = 5000;

export interface ProgressPoint {
  at: number;
  outTimeUs: number;
  frame: number;
  dropFrames: number;
  dupFrames: number;
}

export interface Segment {
  name: string;
  /** When the finished file was first seen (performance.now()). */
  seenAt: number;
  durationSec: number;
  bytes: number;
}

/** The whole machine's CPU time from /proc/stat (all cores), in seconds: busy and stolen by the host. */
export function machineCpu(): { busySec: number; stealSec: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return { busySec: (user + nice + system + irq + softirq) / CLOCK_TICKS, stealSec: steal / CLOCK_TICKS };
}

export interface LiveRun {
  row: string;
  window: {
    from: number;
    to: number;
    cpuSec: number;
    runQueueSec: number;
    rssMb: number;
    /** All processes on the machine over the window (the other runs of a --parallel row included). */
    machineBusySec: number;
    machineStealSec: number;
    /** This node process (feeding, reading stdout, polling): part of the machine's, not ffmpeg's. */
    benchCpuSec: number;
  };
  progress: ProgressPoint[];
  keyframes: KeyframeWrite[];
  startedAt: number;
  maxBacklog: number;
  /** Arrival of each fragment that starts with a keyframe on stdout (performance.now()). */
  liveKeyframes: number[];
  liveBytes: number;
  main: Segment[];
  low: Segment[] | undefined;
  exitCode: number | null;
  signal: string | null;
  /** ffmpeg ended before the window did. */
  endedEarly: boolean;
  stderr: string;
}

export interface BatchRun {
  row: string;
  mediaSec: number;
  wallSec: number;
  cpuSec: number;
  exitCode: number | null;
  stderr: string;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds of this process's children that have ended and been waited for (cutime + cstime). */
function reapedChildrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

function start(row: Row, dir: string): { child: Child; stderr: () => string; progress: ProgressPoint[] } {
  mkdirSync(row.rendition ? path.join(dir, LOW_DIR) : dir, { recursive: true });
  const child = spawn('ffmpeg', ffmpegArgs(row.rendition), { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  // A child that died leaves a broken pipe behind: its exit is what counts.
  child.stdin.on('error', () => {});
  const progress: ProgressPoint[] = [];
  let tail = '';
  let pending = '';
  let block: Record<string, string> = {};
  child.stderr.on('data', (data: Buffer) => {
    pending += data.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^(\w+)=(.*)$/.exec(line.trim());
      if (!match?.[1]) {
        if (line.trim()) tail = `${tail}${line}\n`.slice(-2000);
        continue;
      }
      block[match[1]] = match[2] ?? '';
      if (match[1] === 'progress') {
        const outTimeUs = Number(block.out_time_us);
        if (Number.isFinite(outTimeUs))
          progress.push({
            at: performance.now(),
            outTimeUs,
            frame: Number(block.frame),
            dropFrames: Number(block.drop_frames),
            dupFrames: Number(block.dup_frames),
          });
        block = {};
      }
    }
  });
  return { child, stderr: () => tail.trim(), progress };
}

/** Waits for the child's end; kills it after the grace. */
async function ended(child: Child, graceMs: number): Promise<[number | null, string | null]> {
  if (child.exitCode !== null || child.signalCode !== null) return [child.exitCode, child.signalCode];
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
  clearTimeout(timer);
  return [code, signal];
}

/** Polls a folder for finished segment files: name → first seen. */
function watchSegments(dir: string): { seen: Map<string, number>; stop: () => void } {
  const seen = new Map<string, number>();
  const look = () => {
    if (!existsSync(dir)) return;
    const at = performance.now();
    for (const name of readdirSync(dir)) if (SEGMENT.test(name) && !seen.has(name)) seen.set(name, at);
  };
  const timer = setInterval(look, POLL_MS);
  return {
    seen,
    stop: () => {
      clearInterval(timer);
      look();
    },
  };
}

/** The playlist's segments in order, with their duration, size and when they were first seen. */
function segmentsOf(dir: string, seen: Map<string, number>): Segment[] {
  const file = path.join(dir, 'index.m3u8');
  if (!existsSync(file)) return [];
  const segments: Segment[] = [];
  let duration = Number.NaN;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) duration = Number(extinf[1]);
    else if (SEGMENT.test(line.trim())) {
      const name = line.trim();
      segments.push({
        name,
        seenAt: seen.get(name) ?? Number.NaN,
        durationSec: duration,
        bytes: existsSync(path.join(dir, name)) ? statSync(path.join(dir, name)).size : Number.NaN,
      });
    }
  }
  return segments;
}

/** Sleeps until `at` (performance.now()), waking every second to see whether ffmpeg is still there. */
async function until(at: number, child: Child): Promise<boolean> {
  while (performance.now() < at) {
    if (stopAll.signal.aborted) throw stopAll.signal.reason;
    if (child.exitCode !== null || child.signalCode !== null) return false;
    await sleep(Math.min(1000, at - performance.now()));
  }
  return child.exitCode === null && child.signalCode === null;
}

/** Fed in real time: `warmupSec`, then the measured `seconds`, then the input ends. */
export async function runLive(
  row: Row,
  clip: Clip,
  dir: string,
  warmupSec: number,
  seconds: number,
): Promise<LiveRun> {
  const { child, stderr, progress } = start(row, dir);
  const pid = child.pid ?? -1;
  const output = new Fmp4Splitter();
  const liveKeyframes: number[] = [];
  let liveBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    liveBytes += chunk.length;
    for (const event of output.push(chunk)) if (event.kind === 'group') liveKeyframes.push(performance.now());
  });
  const mainWatch = watchSegments(dir);
  const writesLow = row.rendition !== undefined && row.rendition.preset !== 'none';
  const lowWatch = writesLow ? watchSegments(path.join(dir, LOW_DIR)) : undefined;
  const feeder = new Feeder(clip, child.stdin);
  const feeding = feeder.paced();

  while (Number.isNaN(feeder.startedAt)) await sleep(5);
  const from = feeder.startedAt + warmupSec * 1000;
  const to = from + seconds * 1000;
  const window = {
    from,
    to,
    cpuSec: Number.NaN,
    runQueueSec: Number.NaN,
    rssMb: Number.NaN,
    machineBusySec: Number.NaN,
    machineStealSec: Number.NaN,
    benchCpuSec: Number.NaN,
  };
  let endedEarly = !(await until(from, child));
  if (!endedEarly) {
    const cpu0 = cpuSeconds(pid);
    const wait0 = runQueueWaitSeconds(pid);
    const machine0 = machineCpu();
    const bench0 = process.cpuUsage();
    window.from = performance.now();
    endedEarly = !(await until(to, child));
    window.to = performance.now();
    window.cpuSec = cpuSeconds(pid) - cpu0;
    window.runQueueSec = runQueueWaitSeconds(pid) - wait0;
    window.rssMb = rssMb(pid);
    const machine1 = machineCpu();
    window.machineBusySec = machine1.busySec - machine0.busySec;
    window.machineStealSec = machine1.stealSec - machine0.stealSec;
    const bench = process.cpuUsage(bench0);
    window.benchCpuSec = (bench.user + bench.system) / 1e6;
  }

  feeder.stop();
  await feeding;
  child.stdin.end();
  const [exitCode, signal] = await ended(child, STOP_GRACE_MS);
  mainWatch.stop();
  lowWatch?.stop();
  return {
    row: row.key,
    window,
    progress,
    keyframes: feeder.keyframes,
    startedAt: feeder.startedAt,
    maxBacklog: feeder.maxBacklog,
    liveKeyframes,
    liveBytes,
    main: segmentsOf(dir, mainWatch.seen),
    low: lowWatch ? segmentsOf(path.join(dir, LOW_DIR), lowWatch.seen) : undefined,
    exitCode,
    signal,
    endedEarly,
    stderr: stderr(),
  };
}

/** Fed as fast as it reads: `mediaSeconds` of the loop, until ffmpeg has written it all and exited. */
export async function runBatch(row: Row, clip: Clip, dir: string, mediaSeconds: number): Promise<BatchRun> {
  const cpu0 = reapedChildrenCpuSeconds();
  const started = performance.now();
  const { child, stderr } = start(row, dir);
  child.stdout.resume();
  const feeder = new Feeder(clip, child.stdin);
  await feeder.unpaced(mediaSeconds, stopAll.signal);
  const [exitCode] = await ended(child, 120_000);
  return {
    row: row.key,
    mediaSec: feeder.mediaMs / 1000,
    wallSec: (performance.now() - started) / 1000,
    cpuSec: reapedChildrenCpuSeconds() - cpu0,
    exitCode,
    stderr: stderr(),
  };
}
