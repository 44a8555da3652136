import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_ENV_KEYS } from '../config.ts';
import { seedDataDirFromTemplate } from './pglite-template.ts';
import { freePort } from './ports.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  proc: ChildProcess;
  pid: number;
  dataDir: string;
  /** What the server printed so far (stdout and stderr), with stdio 'pipe'; '' otherwise. */
  output(): string;
  /** SIGTERM, SIGKILL after 15 s; removes the data directory if this launcher made it. */
  stop(): Promise<number | null>;
}

export interface ServerProcessOptions {
  /** Set on top of the defaults (the shell's own server settings never leak in). */
  env?: Record<string, string>;
  /**
   * Default: a fresh temp directory, removed on stop, whose embedded database starts as a copy of
   * the migrated template (test/pglite-template.ts). A directory given here is used as it is.
   */
  dataDir?: string;
  /** How long to wait for /api/health (default 90 s). */
  readyTimeoutMs?: number;
  signal?: AbortSignal;
  /** The server's output: shown (default), dropped, or kept for `output()` and start errors. */
  stdio?: 'inherit' | 'ignore' | 'pipe';
  /** `node` (default) runs main.ts itself; `npm` runs it as `npm run serve` does, npm's pid in `pid`. */
  launcher?: 'node' | 'npm';
}

/**
 * The real server (server/src/main.ts, as `npm run serve` runs it) in a child process on a free
 * port of 127.0.0.1, resolved once GET /api/health answers 200. Used by e2e specs and benchmarks.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'ss-server-'));
  // A data directory of its own starts from the migrated embedded database (seconds saved per server).
  if (ownsDataDir && !options.env?.DATABASE_URL) await seedDataDirFromTemplate(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of CONFIG_ENV_KEYS) delete env[key];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    // Several servers run at once: RTMP only where a test gives it a port.
    RTMP_PORT: '0',
    ...options.env,
  });
  const [command, args] =
    options.launcher === 'npm'
      ? ['npm', ['run', '--silent', 'serve']]
      : [process.execPath, ['--import', 'tsx', 'server/src/main.ts']];
  const proc = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', options.stdio ?? 'inherit', options.stdio ?? 'inherit'],
  });
  let output = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  proc.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  // 'close' comes after the output streams end.
  const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  const stop = async (): Promise<number | null> => {
    let code = proc.exitCode;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      code = await exited;
      clearTimeout(timer);
    }
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    return code;
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      if (proc.exitCode !== null || proc.signalCode !== null) {
        await closed;
        const how = proc.signalCode ?? `code ${proc.exitCode}`;
        throw new Error(`the server exited with ${how} at start${output ? `:\n${output}` : ''}`);
      }
      try {
        const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the server did not become healthy at ${url} in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, proc, pid: proc.pid ?? 0, dataDir, output: () => output, stop };
}
