/**
 * The run's ffmpeg children and its end: every child is tracked while it runs; the hard cap, a
 * signal or the process's exit kills those still running (SIGKILL) and removes the temp folder.
 */

import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Aborted by the hard cap or a signal: every wait of the run listens to it. */
export const stopAll = new AbortController();

const running = new Set<ChildProcess>();

/** Tracks a child until the function answered is called (or it closes). */
export function track(child: ChildProcess): () => void {
  running.add(child);
  const untrack = () => running.delete(child);
  child.once('close', untrack);
  return () => {
    untrack();
  };
}

function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * After `maxSeconds` (or on SIGINT / SIGTERM): every child killed, `temp` removed, exit code 3
 * (130 for a signal). Answers the function that takes it all back at the end of a run.
 */
export function armHardCap(name: string, maxSeconds: number, temp: string): () => void {
  const end = (code: number, reason: string) => {
    console.error(`!! ${name}: ${reason}; stopping`);
    stopAll.abort(new Error(reason));
    killAll();
    rmSync(temp, { recursive: true, force: true });
    process.exit(code);
  };
  const timer = setTimeout(() => end(3, `the hard cap of ${maxSeconds} s is reached`), maxSeconds * 1000);
  timer.unref();
  const onSignal = (signal: NodeJS.Signals) => end(130, `${signal} received`);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', killAll);
  return () => {
    clearTimeout(timer);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('exit', killAll);
    killAll();
    rmSync(temp, { recursive: true, force: true });
  };
}
