/** The real server (server/src/main.ts) in a child process, on the run's storage. */
import type { ChildProcess } from 'node:child_process';
import { freePort, startServerProcess } from '../../server/src/test/support.ts';
import type { Storage } from './storage.ts';

export { freePort };

export interface AppServer {
  proc: ChildProcess;
  pid: number;
  base: string;
  stop(): Promise<number | null>;
}

/**
 * The real server (server/src/main.ts) in a child process on a free port of 127.0.0.1, on the
 * run's storage, with TRUST_PROXY=true (sign-up's per-address limit then reads X-Forwarded-For);
 * `env` adds variables (REDIS_URL). Resolves once GET /api/health answers 200 (60 s bound).
 */
export async function startAppServer(
  storage: Storage,
  options: { signal?: AbortSignal; env?: Record<string, string> } = {},
): Promise<AppServer> {
  const server = await startServerProcess({
    dataDir: storage.dataDir,
    readyTimeoutMs: 60_000,
    signal: options.signal,
    env: {
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
      TRUST_PROXY: 'true',
      // Every bench viewer connects from 127.0.0.1.
      SOCKETS_PER_ADDRESS: '1000000',
      SHUTDOWN_GRACE_MS: '10000',
      ...options.env,
    },
  });
  return { proc: server.proc, pid: server.pid, base: server.url, stop: server.stop };
}
