import { readFileSync } from 'node:fs';

/**
 * Which process this is: its pid, plus (on Linux) the boot it runs in and the moment it started
 * in that boot, so a pid reused by an unrelated process after a crash or a container restart is
 * told apart from the process that wrote it. Without /proc, bootId and startTicks are null and
 * only the pid is compared.
 */
export interface ProcessIdentity {
  pid: number;
  /** /proc/sys/kernel/random/boot_id: changes at every boot. */
  bootId: string | null;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot when the process started. */
  startTicks: string | null;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function bootId(): string | null {
  return readOrNull('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

/** Field 22 (starttime) of /proc/<pid>/stat; field 2 is the command name in parentheses, which may hold spaces. */
function startTicks(pid: number | 'self'): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  return fields[19] ?? null;
}

export function ownIdentity(): ProcessIdentity {
  return { pid: process.pid, bootId: bootId(), startTicks: startTicks('self') };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process `identity` names still runs. A pid that exists is that process only if it
 * started at the same moment of the same boot; where either side lacks those, the pid decides.
 */
export function isRunning(identity: ProcessIdentity): boolean {
  if (!Number.isInteger(identity.pid) || identity.pid <= 0) return false;
  const currentBoot = bootId();
  if (identity.bootId && currentBoot && identity.bootId !== currentBoot) return false;
  if (!pidExists(identity.pid)) return false;
  const started = startTicks(identity.pid);
  if (identity.startTicks && started) return identity.startTicks === started;
  return true;
}
