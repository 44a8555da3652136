/**
 * CPU of the server and its ffmpeg children from /proc (Linux): user + system seconds over a
 * window, as % of one core. The server's own threads come from /proc/<pid>/stat (support.ts's
 * cpuSeconds); each live child's the same way; a child that ended and was reaped in the window
 * (a thumbnail's ffmpeg, a restarted pipeline) is in the server's cutime + cstime. Children are
 * found through /proc/<pid>/task/<tid>/children where the kernel has it, else by scanning
 * /proc/<n>/stat for the parent's pid.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds } from '../support.ts';
import { wait } from './stop.ts';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

const statFields = (pid: number): string[] | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "(comm) ": state is field 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
};

/** CPU seconds of the children the process has waited for (cutime + cstime); NaN once gone. */
export function reapedChildrenSeconds(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS : Number.NaN;
}

/** The live children (and their children) of a process. */
export function childrenOf(pid: number): number[] {
  let direct: number[];
  if (existsSync(`/proc/${pid}/task/${pid}/children`)) {
    direct = readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
          .split(' ')
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    });
  } else {
    direct = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((n) => statFields(n)?.[1] === String(pid));
  }
  return direct.flatMap((child) => [child, ...childrenOf(child)]);
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};

export interface CpuSnapshot {
  /** performance.now() */
  at: number;
  self: number;
  reaped: number;
  children: Map<number, { seconds: number; command: string }>;
}

export function snapshot(pid: number): CpuSnapshot {
  const children = new Map<number, { seconds: number; command: string }>();
  for (const child of childrenOf(pid)) {
    const seconds = cpuSeconds(child);
    if (Number.isFinite(seconds)) children.set(child, { seconds, command: commandLine(child) });
  }
  return { at: performance.now(), self: cpuSeconds(pid), reaped: reapedChildrenSeconds(pid), children };
}

const isFfmpeg = (command: string) => /(^|\/)ffmpeg\s/.test(command);

export interface CpuUse {
  wallSec: number;
  /** % of one core: the server and all its children, the server's own threads, ffmpeg (with the reaped children), other children. */
  percent: number;
  serverPercent: number;
  ffmpegPercent: number;
  otherChildrenPercent: number;
  /** The children alive at the end: pid, CPU seconds in the window, command line (cut). */
  children: Array<{ pid: number; seconds: number; command: string }>;
}

/** The CPU used between two snapshots of the same process. */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): CpuUse {
  const wallSec = (b.at - a.at) / 1000;
  const server = b.self - a.self;
  // Children that ended in the window were ffmpeg's (thumbnails, a restarted pipeline).
  let ffmpeg = b.reaped - a.reaped;
  let other = 0;
  const alive: CpuUse['children'] = [];
  for (const [pid, child] of b.children) {
    const seconds = child.seconds - (a.children.get(pid)?.seconds ?? 0);
    if (isFfmpeg(child.command)) ffmpeg += seconds;
    else other += seconds;
    alive.push({ pid, seconds, command: child.command.slice(0, 400) });
  }
  // A child alive at the start that ended since: its whole life is in the reaped time.
  for (const [pid, child] of a.children) if (!b.children.has(pid)) ffmpeg -= child.seconds;
  const percent = (seconds: number) => (100 * seconds) / wallSec;
  return {
    wallSec,
    percent: percent(server + ffmpeg + other),
    serverPercent: percent(server),
    ffmpegPercent: percent(ffmpeg),
    otherChildrenPercent: percent(other),
    children: alive,
  };
}

/** Measures the process's CPU over `seconds` of doing nothing else. */
export async function idleCpu(pid: number, seconds: number): Promise<CpuUse> {
  const a = snapshot(pid);
  await wait(seconds * 1000);
  return cpuBetween(a, snapshot(pid));
}

/** The process's ffmpeg children now. */
export const ffmpegChildren = (pid: number) =>
  childrenOf(pid).filter((child) => isFfmpeg(commandLine(child)));

/** Waits (at most maxMs) until the process has no ffmpeg child left: the last stream's pipeline is gone. */
export async function untilNoFfmpeg(pid: number, maxMs: number): Promise<number[]> {
  const deadline = Date.now() + maxMs;
  let left = ffmpegChildren(pid);
  while (left.length && Date.now() < deadline) {
    await wait(200);
    left = ffmpegChildren(pid);
  }
  return left;
}
