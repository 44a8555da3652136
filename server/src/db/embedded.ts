import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface EmbeddedPostgres {
  /** Folder holding the unix socket `.s.PGSQL.5432`; pass it to pg as `host`. */
  socketDir: string;
  stop(): Promise<void>;
}

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file with our pid, so two servers never open the same database folder. */
function lockDataDir(dir: string): () => void {
  const lockFile = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(holder) && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another server (pid ${holder}). Stop it or set DATA_DIR to another folder.`,
        );
      }
      rmSync(lockFile, { force: true }); // stale lock of a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}`);
}

/**
 * Starts PGlite in a worker thread. `dataDir` undefined keeps it in memory (tests).
 * The unix socket lives in a short temp folder: socket paths are limited to ~107 bytes.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  let unlock = () => {};
  let pgDir: string | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
    pgDir = path.join(dataDir, 'pglite');
  }
  const socketDir = mkdtempSync(path.join(tmpdir(), 'ss-pg-'));
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
