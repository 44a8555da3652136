/** The real server for the bench: server/src/main.ts on a fresh PGlite DATA_DIR, in a child process. */

import type { ChildProcess } from 'node:child_process';
import { startServerProcess } from '../../server/src/test/server-process.ts';
import { stopAll } from './stop.ts';

export interface ServerHandle {
  proc: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** The real server on a fresh PGlite DATA_DIR (the shared launcher), stopped with the run. */
export async function startServer(
  dataDir: string,
  onStarted: (proc: ChildProcess) => void,
): Promise<ServerHandle> {
  const server = await startServerProcess({
    dataDir,
    signal: stopAll.signal,
    readyTimeoutMs: 60_000,
    env: { SHUTDOWN_GRACE_MS: '5000' },
  });
  onStarted(server.proc);
  return {
    proc: server.proc,
    base: server.url,
    async stop() {
      await server.stop();
    },
  };
}
