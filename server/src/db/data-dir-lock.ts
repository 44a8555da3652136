import {
  closeSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import { isRunning, ownIdentity, type ProcessIdentity } from './process-identity.ts';

/**
 * `DATA_DIR/server.lock`: one server per data directory (ADR 0017).
 *
 * The lock is an OS file lock on that file (fcntl open-file-description locks on Linux, flock on
 * macOS, LockFileEx on Windows), taken without waiting. The kernel drops it when its holder dies,
 * however it dies, so a crash never leaves a lock behind and a reused pid means nothing. The file
 * also holds a record of the holder — who it is and its socket folder — for the refusal message
 * and so the next server can clean what a crashed one left.
 *
 * Where the platform has no file locks (no addon for it, or a file system that refuses them) the
 * file itself is the lock, and a holder counts as gone when the process it names no longer runs:
 * same pid, same boot and same start time (process-identity.ts).
 */

export class DataDirLockedError extends Error {}

/** What a holder writes into server.lock. */
export interface LockRecord extends ProcessIdentity {
  /** How the holder locks: 'os' (file lock) or 'process' (the file's presence). */
  method: LockMethod;
  hostname: string;
  startedAt: string;
  /** The holder's unix-socket folder (embedded.ts), removed by whoever finds it left behind. */
  socketDir?: string;
}

export type LockMethod = 'os' | 'process';

export interface DataDirLock {
  method: LockMethod;
  /** Why the OS lock is not used (method 'process'). */
  fallbackReason?: string;
  /** The record of a holder that stopped without releasing (crashed); null after a clean stop. */
  previous: LockRecord | null;
  /** Rewrites this server's record with its socket folder, once that exists. */
  record(extra: Pick<LockRecord, 'socketDir'>): void;
  release(): void;
}

interface OsFileLock {
  tryLock(fd: number): boolean;
  unlock(fd: number): void;
}

const LOCK_FILE = 'server.lock';
/** tryLock errors meaning the file system does not do locks. */
const NO_LOCKS = new Set(['ENOLCK', 'EOPNOTSUPP', 'ENOTSUP', 'ENOSYS', 'EINVAL']);

let osFileLock: OsFileLock | Error | undefined;
function loadOsFileLock(): OsFileLock | Error {
  if (osFileLock === undefined) {
    try {
      osFileLock = createRequire(import.meta.url)('fs-native-extensions') as OsFileLock;
    } catch (error) {
      osFileLock = error instanceof Error ? error : new Error(String(error));
    }
  }
  return osFileLock;
}

function parseRecord(text: string): LockRecord | null {
  if (!text.trim()) return null;
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (typeof value !== 'object' || value === null || typeof value.pid !== 'number') return null;
    return {
      pid: value.pid,
      bootId: typeof value.bootId === 'string' ? value.bootId : null,
      startTicks: typeof value.startTicks === 'string' ? value.startTicks : null,
      method: value.method === 'process' ? 'process' : 'os',
      hostname: typeof value.hostname === 'string' ? value.hostname : '',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
      ...(typeof value.socketDir === 'string' ? { socketDir: value.socketDir } : {}),
    };
  } catch {
    return null;
  }
}

function readRecord(file: string): LockRecord | null {
  try {
    return parseRecord(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function lockedError(dir: string, holder: LockRecord | null): DataDirLockedError {
  const who = holder
    ? ` (pid ${holder.pid}${holder.hostname ? ` on ${holder.hostname}` : ''}${holder.startedAt ? `, started ${holder.startedAt}` : ''})`
    : '';
  return new DataDirLockedError(
    `The data directory ${dir} is in use by another server${who}. Stop it or set DATA_DIR to another folder.`,
  );
}

function newRecord(method: LockMethod, extra: Pick<LockRecord, 'socketDir'>): string {
  const record: LockRecord = {
    ...ownIdentity(),
    method,
    hostname: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    ...extra,
  };
  return `${JSON.stringify(record)}\n`;
}

/** Locks `dir` for this process, or throws DataDirLockedError naming the server that holds it. */
export function lockDataDir(dir: string): DataDirLock {
  const file = path.join(dir, LOCK_FILE);
  const os = loadOsFileLock();
  if (os instanceof Error) return lockByProcess(dir, file, `the file-lock addon did not load: ${os.message}`);

  // Opened without truncating: until the lock is ours, the holder's record must stay as it is.
  const fd = openSync(file, 'a+');
  let granted: boolean;
  try {
    granted = os.tryLock(fd);
  } catch (error) {
    closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NO_LOCKS.has(code)) return lockByProcess(dir, file, `the file system refuses file locks (${code})`);
    throw error;
  }
  if (!granted) {
    closeSync(fd);
    throw lockedError(dir, readRecord(file));
  }
  const previous = readRecord(file);
  // A holder without OS locks (another platform sharing the folder) is judged by its process.
  if (previous?.method === 'process' && isRunning(previous)) {
    os.unlock(fd);
    closeSync(fd);
    throw lockedError(dir, previous);
  }
  const record = (extra: Pick<LockRecord, 'socketDir'>) => {
    ftruncateSync(fd, 0);
    // 'a+' appends: after the truncate this is the whole file.
    writeSync(fd, newRecord('os', extra));
  };
  record({});
  return {
    method: 'os',
    previous,
    record,
    release() {
      // Emptied, not removed: removing a locked file lets a waiter lock the old file while a
      // newcomer creates and locks a new one. An empty record means "stopped cleanly".
      ftruncateSync(fd, 0);
      os.unlock(fd);
      closeSync(fd);
    },
  };
}

/** The file's presence is the lock; a holder whose process no longer runs has left it stale. */
function lockByProcess(dir: string, file: string, fallbackReason: string): DataDirLock {
  let previous: LockRecord | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      // Written at once: an empty file would look like a clean stop to another starting server.
      writeSync(fd, newRecord('process', {}));
      closeSync(fd);
      return {
        method: 'process',
        fallbackReason,
        previous,
        record(extra) {
          // Replaced in one step: a half-written file would look stale to another starting server.
          const next = `${file}.${process.pid}`;
          writeFileSync(next, newRecord('process', extra));
          renameSync(next, file);
        },
        release() {
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readRecord(file);
      if (holder && isRunning(holder)) throw lockedError(dir, holder);
      // Empty (a clean stop under OS locks), unreadable (an older server's bare pid) or stale.
      previous = holder;
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}: another server is starting there.`);
}
