/**
 * The chat bench's servers, each in a child process: this file again, with ROLE_ENV set. A plain
 * `ws` floor server, or the app (PGlite or PostgreSQL, in-memory bus or Redis).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import type { InProcessServer } from '../../server/src/test/support.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const ROLE_ENV = 'STREAMSHOP_CHAT_BENCH_ROLE';
const JOB_ENV = 'STREAMSHOP_CHAT_BENCH_JOB';
/** A server child ends itself after this long whatever happens to its parent. */
const CHILD_MAX_LIFETIME_MS = 15 * 60_000;

export type ServerJob =
  | {
      kind: 'floor';
      encodeOnce: boolean;
      /** Sends every frame a client sends, as it came, to every socket (bench/auction's floor). */
      relay?: boolean;
    }
  | {
      kind: 'app';
      /** PostgreSQL URL; absent: embedded PGlite in a temp DATA_DIR. */
      databaseUrl?: string;
      /** Fan-out through Redis with this key prefix; absent: the in-memory bus. */
      redis?: { url: string; prefix: string };
      /** Sign up this many sender accounts and create the room (instance A only). */
      senders: number;
      /** The folder whose server/ to run (another commit's, bench/chat/before.ts); default this one. */
      source?: string;
    };

type ChildMessage =
  | { type: 'ready'; port: number; room?: string; cookies?: string[]; setupMs?: number }
  | { type: 'failed'; message: string };

async function serveFloor(job: Extract<ServerJob, { kind: 'floor' }>): Promise<() => Promise<void>> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 });
  await once(wss, 'listening');
  let id = 0;
  wss.on('connection', (socket) => {
    socket.send(JSON.stringify({ type: 'chat_history', messages: [] }));
    socket.on('message', (data) => {
      if (job.relay) {
        const payload = job.encodeOnce ? Buffer.from(String(data)) : String(data);
        for (const client of wss.clients) {
          if (client.readyState === WebSocket.OPEN) client.send(payload, { binary: false });
        }
        return;
      }
      let parsed: { type?: unknown; message?: unknown };
      try {
        parsed = JSON.parse(String(data));
      } catch {
        return;
      }
      if (parsed.type !== 'chat_message' || typeof parsed.message !== 'string') return;
      id += 1;
      const json = JSON.stringify({
        type: 'chat_message',
        id,
        username: 'bench_sender',
        message: parsed.message.trim(),
        timestamp: new Date().toISOString(),
      });
      const payload = job.encodeOnce ? Buffer.from(json) : json;
      for (const client of wss.clients) {
        if (client.readyState === WebSocket.OPEN) client.send(payload, { binary: false });
      }
    });
  });
  const address = wss.address();
  if (typeof address !== 'object' || !address) throw new Error('no TCP address');
  process.send?.({ type: 'ready', port: address.port } satisfies ChildMessage);
  return async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}

async function serveApp(job: Extract<ServerJob, { kind: 'app' }>): Promise<() => Promise<void>> {
  // Loaded file by file from the source tree being measured, which may be another commit's
  // (`--before=<ref>`, bench/chat/before.ts) without test/support.ts; the types are this
  // checkout's, through support.ts.
  const from = (file: string) => pathToFileURL(path.join(job.source ?? root, 'server/src', file)).href;
  const { testConfig, newAccount, sessionCookie } = (await import(from('test/test-app.ts'))) as Pick<
    InProcessServer,
    'testConfig' | 'newAccount' | 'sessionCookie'
  >;
  const { buildApp } = (await import(from('app.ts'))) as Pick<InProcessServer, 'buildApp'>;
  const { openDatabase } = (await import(from('db/client.ts'))) as Pick<InProcessServer, 'openDatabase'>;
  const { redisBus } = (await import(from('platform/bus.ts'))) as Pick<InProcessServer, 'redisBus'>;

  // testConfig makes a fresh temp folder: the DATA_DIR (PGlite files when there is no databaseUrl).
  // Every bench viewer connects from 127.0.0.1.
  const config = testConfig({ logLevel: 'warn', socketsPerAddress: 1_000_000 });
  const cleanups: Array<() => Promise<unknown> | unknown> = [
    () => rmSync(config.dataDir, { recursive: true, force: true }),
  ];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };
  try {
    const database = await openDatabase(
      job.databaseUrl ? { databaseUrl: job.databaseUrl } : { dataDir: config.dataDir },
    );
    cleanups.push(() => database.close());
    const bus = job.redis ? redisBus(job.redis.url, job.redis.prefix) : undefined;
    if (bus) cleanups.push(() => bus.close());
    const app = await buildApp(config, { database, autoEnd: false, ...(bus ? { bus } : {}) });
    cleanups.push(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('no TCP address');

    let setup: { room?: string; cookies?: string[]; setupMs?: number } = {};
    if (job.senders > 0) {
      // Sender accounts go through the real sign-up route (validation, argon2, session store):
      // the sid cookies are ordinary sessions. Sign-up allows 20 per client address per hour, and
      // the server trusts no proxy header, so each batch of 20 is injected in-process from its own
      // peer address (light-my-request's remoteAddress, which is what request.ip reads): the limit
      // applies exactly as to 20 real clients each, and no request leaves the process.
      const t0 = performance.now();
      const cookies: string[] = [];
      for (let i = 0; i < job.senders; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: newAccount({ firstName: 'Bench', lastName: `Sender ${i}` }),
          remoteAddress: `127.0.${1 + Math.floor(i / 20 / 250)}.${1 + (Math.floor(i / 20) % 250)}`,
        });
        if (response.statusCode !== 201)
          throw new Error(`sign-up ${i}: ${response.statusCode} ${response.body}`);
        cookies.push(sessionCookie(response));
      }
      const created = await app.inject({
        method: 'POST',
        url: '/api/rooms',
        headers: { cookie: cookies[0] ?? '' },
        payload: { title: 'Chat bench' },
      });
      if (created.statusCode !== 201) throw new Error(`create room: ${created.statusCode} ${created.body}`);
      setup = { room: created.json().roomName, cookies, setupMs: performance.now() - t0 };
    }
    process.send?.({ type: 'ready', port: address.port, ...setup } satisfies ChildMessage);
    return cleanup;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function child(): Promise<void> {
  setTimeout(() => {
    console.error('chat bench server: maximum lifetime reached, exiting');
    process.exit(3);
  }, CHILD_MAX_LIFETIME_MS).unref();
  const job = JSON.parse(process.env[JOB_ENV] ?? '{}') as ServerJob;
  let close: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await close?.();
    } finally {
      process.exit(0);
    }
  };
  // Stop when told to, or when the parent goes away (the IPC channel closes).
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stop') void stop();
  });
  process.once('disconnect', () => void stop());
  try {
    close = job.kind === 'floor' ? await serveFloor(job) : await serveApp(job);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.send?.({ type: 'failed', message } satisfies ChildMessage);
    process.exit(1);
  }
}

export interface ServerHandle {
  proc: ChildProcess;
  pid: number;
  url: string;
  ready: Extract<ChildMessage, { type: 'ready' }>;
  stop(): Promise<void>;
}

export async function startServer(job: ServerJob, label: string): Promise<ServerHandle> {
  const proc = fork(self, [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [ROLE_ENV]: 'server', [JOB_ENV]: JSON.stringify(job) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    if (proc.connected) proc.send({ type: 'stop' });
    const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const ready = await new Promise<Extract<ChildMessage, { type: 'ready' }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label}: not ready within 120 s`)), 120_000);
      proc.once('message', (message: ChildMessage) => {
        clearTimeout(timer);
        if (message.type === 'ready') resolve(message);
        else reject(new Error(`${label} failed to start: ${message.message}`));
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${label} exited with code ${code} before it was ready`));
      });
    });
    proc.removeAllListeners('exit');
    return { proc, pid: proc.pid ?? 0, url: `ws://127.0.0.1:${ready.port}`, ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (process.env[ROLE_ENV] === 'server') await child();
