import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type DataDirLock, type LockRecord, lockDataDir } from './data-dir-lock.ts';

export interface EmbeddedPostgres {
  /** Folder holding the unix socket `.s.PGSQL.5432`; pass it to pg as `host`. */
  socketDir: string;
  /** Worth a warning in the start log: leftovers of a crashed server cleaned, a lock fallback. */
  notices: string[];
  stop(): Promise<void>;
}

/** The prefix of every socket folder, so only such a folder is ever removed as a leftover. */
const SOCKET_DIR_PREFIX = 'ss-pg-';

/**
 * Removes what a server that held `dataDir` and crashed left behind: its socket folder. Returns
 * what it did, to be logged.
 */
function cleanLeftovers(dataDir: string, previous: LockRecord | null): string[] {
  if (!previous) return [];
  const who = `pid ${previous.pid}${previous.startedAt ? `, started ${previous.startedAt}` : ''}`;
  const notices = [`The previous server on ${dataDir} (${who}) did not stop cleanly; its lock was stale.`];
  const leftover = previous.socketDir;
  if (
    leftover &&
    path.isAbsolute(leftover) &&
    path.basename(leftover).startsWith(SOCKET_DIR_PREFIX) &&
    existsSync(leftover)
  ) {
    rmSync(leftover, { recursive: true, force: true });
    notices.push(`Removed its socket folder ${leftover}.`);
  }
  return notices;
}

/**
 * Starts PGlite in a worker thread. `dataDir` undefined keeps it in memory (tests).
 * The unix socket lives in a short temp folder: socket paths are limited to ~107 bytes.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  let unlock = () => {};
  let pgDir: string | undefined;
  const notices: string[] = [];
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = lockDataDir(dataDir);
    unlock = lock.release;
    if (lock.fallbackReason) {
      notices.push(
        `The data directory is locked by the server.lock file and its holder's process, not by an OS file lock: ${lock.fallbackReason}.`,
      );
    }
    notices.push(...cleanLeftovers(dataDir, lock.previous));
    pgDir = path.join(dataDir, 'pglite');
  }
  const socketDir = mkdtempSync(path.join(tmpdir(), SOCKET_DIR_PREFIX));
  lock?.record({ socketDir });
  const worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), {
    workerData: { dataDir: pgDir, socketPath: path.join(socketDir, '.s.PGSQL.5432') },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`embedded database exited with code ${code}`)));
      worker.once('message', (message: { type: string; message?: string }) => {
        if (message.type === 'ready') resolve();
        else reject(new Error(`embedded database failed to start: ${message.message}`));
      });
    });
  } catch (error) {
    await worker.terminate();
    rmSync(socketDir, { recursive: true, force: true });
    unlock();
    throw error;
  }
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', (error) => console.error('embedded database error', error));

  return {
    socketDir,
    notices,
    async stop() {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        worker.once('message', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage({ type: 'stop' });
      });
      await worker.terminate();
      rmSync(socketDir, { recursive: true, force: true });
      unlock();
    },
  };
}
