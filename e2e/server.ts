import { startServerProcess } from '../server/src/test/support.ts';

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the real, built product the way `npm run serve` does, on a free port with a fresh data
 * directory (embedded database), and waits until /api/health answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServerProcess({ env });
  return {
    url: server.url,
    dataDir: server.dataDir,
    async stop() {
      await server.stop();
    },
  };
}
