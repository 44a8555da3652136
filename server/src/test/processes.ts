import { readFileSync } from 'node:fs';

/** Whether process `pid` is still running; a zombie (exited, not yet reaped) is not (Linux's /proc). */
export function isAlive(pid: number): boolean {
  try {
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
