import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';

/**
 * A PostgreSQL server of a test's own (initdb into a temp directory, on a free port of 127.0.0.1),
 * for fault tests that stop and restart it: the shared server on 5432 is never touched. PostgreSQL
 * refuses to run as root, so under root (CI) its binaries run as the `postgres` user.
 */

const PG_ROOT = '/usr/lib/postgresql';
const BINARIES = ['initdb', 'pg_ctl', 'postgres'];

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, pg_ctl and postgres, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  for (const version of versions) {
    const bin = path.join(PG_ROOT, version, 'bin');
    if (BINARIES.every((name) => existsSync(path.join(bin, name)))) return bin;
  }
  return undefined;
}

interface RunAs {
  /** The command line prefix that runs a binary as the server's owner. */
  prefix: string[];
  uid: number | undefined;
  gid: number | undefined;
}

/** Under root: `runuser -u postgres --`, with postgres's ids for the directory; else the current user. */
function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined, gid: undefined };
  const id = (flag: string) => {
    const result = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    return result.status === 0 ? Number.parseInt(result.stdout.trim(), 10) : undefined;
  };
  const uid = id('-u');
  const gid = id('-g');
  const runuser = spawnSync('runuser', ['--help']).status === 0;
  if (uid === undefined || gid === undefined || !runuser) return undefined;
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

/** Why a private PostgreSQL cannot run here, or undefined when it can. */
export function privatePostgresMissing(): string | undefined {
  if (!postgresBinDir()) return `no initdb, pg_ctl and postgres under ${PG_ROOT}/*/bin`;
  if (!runAs()) return 'running as root without a postgres user (or runuser) to run PostgreSQL as';
  return undefined;
}

export type ShutdownMode = 'smart' | 'fast' | 'immediate';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl restart -m <mode>`: down and back in one step. */
  restart(mode: ShutdownMode): Promise<void>;
  /** `pg_ctl stop -m <mode>`; resolves once the server is gone. */
  stop(mode: ShutdownMode): Promise<void>;
  /** `pg_ctl start`; resolves once it accepts connections. */
  start(): Promise<void>;
  /** The server's log so far. */
  log(): string;
  /** Stops it (immediate) and removes its directory. */
  destroy(): Promise<void>;
}

function run(command: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const [file = '', ...args] = command;
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command.join(' ')} failed (${signal ?? `code ${code}`}):\n${output}`));
    });
  });
}

/** initdb (trust authentication, fsync off: a test's data) and start on a free port of 127.0.0.1. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const as = runAs();
  if (!bin || !as) throw new Error(`no private PostgreSQL here: ${privatePostgresMissing()}`);
  const home = mkdtempSync(path.join(tmpdir(), 'ss-private-pg-'));
  if (as.uid !== undefined && as.gid !== undefined) chownSync(home, as.uid, as.gid);
  const dataDir = path.join(home, 'data');
  const logFile = path.join(home, 'postgres.log');
  const port = await freePort();
  const pgCtl = (...args: string[]) => [...as.prefix, path.join(bin, 'pg_ctl'), '-D', dataDir, ...args];

  await run(
    [
      ...as.prefix,
      path.join(bin, 'initdb'),
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--no-sync',
    ],
    60_000,
  );
  // The socket goes into the test's directory (/var/run/postgresql may not be writable).
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${home}`,
    '-c fsync=off',
    '-c max_connections=100',
  ].join(' ');
  const start = async () => {
    await run(pgCtl('start', '-w', '-t', '30', '-l', logFile, '-o', options), 40_000);
  };
  await start();

  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    // restart keeps the options of the last start (postmaster.opts).
    restart: async (mode) => {
      await run(pgCtl('restart', '-w', '-t', '30', '-m', mode, '-l', logFile), 40_000);
    },
    stop: async (mode) => {
      await run(pgCtl('stop', '-w', '-t', '30', '-m', mode), 40_000);
    },
    start,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      await run(pgCtl('stop', '-w', '-t', '30', '-m', 'immediate'), 40_000).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}
