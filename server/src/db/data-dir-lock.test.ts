import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDataDirFromTemplate } from '../test/pglite-template.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { newAccount } from '../test/test-app.ts';

/**
 * Issue 18: the embedded database's DATA_DIR lock, through real server processes. A stale lock
 * (a reused pid, a crash) never keeps a server from starting; a live server always does.
 */

const TEST_TIMEOUT = 120_000;
const onLinux = existsSync('/proc/self/stat');

let cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A data directory whose database is the migrated template: these tests are about its lock. */
async function dataDirForTest(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ss-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  await seedDataDirFromTemplate(dir);
  return dir;
}

async function start(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess({ dataDir, stdio: 'pipe' });
  cleanups.push(() => server.stop());
  return server;
}

/** A live process that has nothing to do with StreamShop. */
function unrelatedProcess(): ChildProcess {
  const child = spawn('sleep', ['120'], { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
function startTicksOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

function bootId(): string | null {
  return onLinux ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : null;
}

function lockRecord(dataDir: string) {
  const text = readFileSync(path.join(dataDir, 'server.lock'), 'utf8');
  return text.trim() ? (JSON.parse(text) as { pid: number; socketDir?: string }) : null;
}

async function health(server: ServerProcess): Promise<number> {
  return (await fetch(`${server.url}/api/health`)).status;
}

async function post(server: ServerProcess, url: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function killHard(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.proc.once('exit', resolve));
  server.proc.kill('SIGKILL');
  await exited;
}

describe('the DATA_DIR lock', () => {
  it(
    'is not held by a live but unrelated process that a stale lock names',
    async () => {
      const dataDir = await dataDirForTest();
      const sleeper = unrelatedProcess();
      const leftover = mkdtempSync(path.join(tmpdir(), 'ss-pg-'));
      cleanups.push(() => rmSync(leftover, { recursive: true, force: true }));
      // What a crashed server leaves when its pid now belongs to someone else (a container restart).
      writeFileSync(
        path.join(dataDir, 'server.lock'),
        JSON.stringify({
          pid: sleeper.pid,
          bootId: bootId(),
          startTicks: '1',
          method: 'process',
          hostname: hostname(),
          startedAt: '2020-01-01T00:00:00.000Z',
          socketDir: leftover,
        }),
      );

      const server = await start(dataDir);
      expect(await health(server)).toBe(200);
      expect(lockRecord(dataDir)?.pid).toBe(server.pid);
      expect(existsSync(leftover)).toBe(false);
      expect(server.output()).toContain(`Removed its socket folder ${leftover}`);
      expect(sleeper.exitCode).toBeNull();
    },
    TEST_TIMEOUT,
  );

  it(
    'is not held by a lock from before this version naming a live pid',
    async () => {
      const dataDir = await dataDirForTest();
      const sleeper = unrelatedProcess();
      writeFileSync(path.join(dataDir, 'server.lock'), String(sleeper.pid));

      const server = await start(dataDir);
      expect(await health(server)).toBe(200);
    },
    TEST_TIMEOUT,
  );

  it.runIf(onLinux)(
    'is held by the process a lock names when its pid, boot and start time all match',
    async () => {
      const dataDir = await dataDirForTest();
      const sleeper = unrelatedProcess();
      // As a server on a platform without file locks writes it: the record is the lock.
      writeFileSync(
        path.join(dataDir, 'server.lock'),
        JSON.stringify({
          pid: sleeper.pid,
          bootId: bootId(),
          startTicks: startTicksOf(sleeper.pid ?? 0),
          method: 'process',
          hostname: hostname(),
          startedAt: '2020-01-01T00:00:00.000Z',
        }),
      );

      await expect(start(dataDir)).rejects.toThrow(
        `The data directory ${dataDir} is in use by another server (pid ${sleeper.pid}`,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'refuses a second server while the first runs, and the first keeps serving',
    async () => {
      const dataDir = await dataDirForTest();
      const first = await start(dataDir);
      const account = newAccount();
      expect((await post(first, '/api/auth/signup', account)).status).toBe(201);
      const record = lockRecord(dataDir);
      expect(record?.pid).toBe(first.pid);

      const refused = startServerProcess({ dataDir, stdio: 'pipe' });
      await expect(refused).rejects.toThrow('exited with code 1 at start');
      await expect(refused).rejects.toThrow(
        `The data directory ${dataDir} is in use by another server (pid ${first.pid} on ${hostname()}, started `,
      );

      expect(await health(first)).toBe(200);
      expect(lockRecord(dataDir)).toEqual(record);
      expect(record?.socketDir && existsSync(record.socketDir)).toBe(true);
      const signin = await post(first, '/api/auth/signin', {
        handle: account.handle,
        password: account.password,
      });
      expect(signin.status).toBe(200);
    },
    TEST_TIMEOUT,
  );

  it(
    'is free again after kill -9; the data stays and the dead server’s socket folder goes',
    async () => {
      const dataDir = await dataDirForTest();
      const first = await start(dataDir);
      const account = newAccount();
      expect((await post(first, '/api/auth/signup', account)).status).toBe(201);
      const crashed = lockRecord(dataDir);
      const leftover = crashed?.socketDir ?? '';
      expect(existsSync(leftover)).toBe(true);

      await killHard(first);
      // What the crash left behind: the record and the socket folder.
      expect(lockRecord(dataDir)).toEqual(crashed);
      expect(existsSync(leftover)).toBe(true);

      const second = await start(dataDir);
      expect(await health(second)).toBe(200);
      expect(existsSync(leftover)).toBe(false);
      expect(second.output()).toContain(`(pid ${first.pid}, started`);
      expect(second.output()).toContain('did not stop cleanly');
      expect(second.output()).toContain(`Removed its socket folder ${leftover}`);
      const signin = await post(second, '/api/auth/signin', {
        handle: account.handle,
        password: account.password,
      });
      expect(signin.status).toBe(200);

      // A clean stop leaves no record to clean and removes its own socket folder.
      const ownSocketDir = lockRecord(dataDir)?.socketDir ?? '';
      expect(await second.stop()).toBe(0);
      expect(lockRecord(dataDir)).toBeNull();
      expect(existsSync(ownSocketDir)).toBe(false);
    },
    TEST_TIMEOUT,
  );
});
