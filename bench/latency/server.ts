/**
 * The real server for the bench: server/src/main.ts on a fresh PGlite DATA_DIR (or the PostgreSQL
 * database BENCH_DATABASE_URL names), in a child process, with RTMP ingest on a free port.
 */

import type { ChildProcess } from 'node:child_process';
import { freePort, startServerProcess } from '../../server/src/test/support.ts';
import { stopAll } from './stop.ts';

export interface ServerHandle {
  proc: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/**
 * The real server on a fresh PGlite DATA_DIR (the shared launcher), stopped with the run. The
 * launcher turns RTMP off (RTMP_PORT=0); the bench's encoder needs it, on a port of its own.
 */
export async function startServer(
  dataDir: string,
  onStarted: (proc: ChildProcess) => void,
): Promise<ServerHandle> {
  const rtmpPort = await freePort();
  const server = await startServerProcess({
    dataDir,
    signal: stopAll.signal,
    readyTimeoutMs: 60_000,
    env: {
      // BENCH_DATABASE_URL: the same run on PostgreSQL (an empty database) instead of embedded PGlite.
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      SHUTDOWN_GRACE_MS: '5000',
      RTMP_PORT: String(rtmpPort),
      RTMP_URL: `rtmp://127.0.0.1:${rtmpPort}/live`,
    },
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
