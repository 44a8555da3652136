/**
 * Helpers shared by the benchmarks that drive the real app (chat, checkout, shop): timing, /proc
 * figures, a bounded pool, a fetch client, the run's storage (a PGlite DATA_DIR or a fresh
 * PostgreSQL database), the real server in a child process, sign-up and listing through the API,
 * and room sockets. Not a benchmark itself (run-all does not list it).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { freePort } from '../server/src/test/ports.ts';
import { startServerProcess } from '../server/src/test/server-process.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../server/src/test/throwaway-database.ts';

export { freePort };

export const root = fileURLToPath(new URL('..', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Wall-clock milliseconds with sub-millisecond resolution (performance.timeOrigin + performance.now()). */
export const wallMs = () => performance.timeOrigin + performance.now();
export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));
/** `--name=value` flags: the raw text, or a whole number within bounds (underscores allowed: 10_000). */
export function cliFlags(argv: string[]) {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw.replaceAll('_', ''));
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  return { value, number };
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export const countBy = (values: Array<string | number>) => {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
};

/** Runs fn(0) … fn(count − 1), at most `concurrency` at a time. */
export async function runPool<T>(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}

/** Waits until `done()` or `maxMs` passed, polling; answers whether `done()` became true. */
export async function waitFor(done: () => boolean, maxMs: number, pollMs = 20): Promise<boolean> {
  const deadline = performance.now() + maxMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Process figures from /proc (Linux)
// ---------------------------------------------------------------------------------------------

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds of a process, all its threads (the PGlite worker included); NaN once gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * Seconds the process's threads spent runnable but waiting for a CPU (the run-queue wait of
 * /proc/<pid>/task/<tid>/schedstat, summed over the threads alive now; NaN once gone): on a busy
 * machine, the part of a latency that is other work's, not the process's own.
 */
export function runQueueWaitSeconds(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
      } catch {}
    }
    return ns / 1e9;
  } catch {
    return Number.NaN;
  }
}

/** Resident set size in MB; NaN once gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP client
// ---------------------------------------------------------------------------------------------

const REQUEST_TIMEOUT_MS = 30_000;

export interface Reply {
  /** 0 when the request failed without an answer (connection error, timeout). */
  status: number;
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes, read field by field
  body: any;
  setCookies: string[];
  error?: string;
}

export interface Client {
  base: string;
  request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options?: { cookie?: string; body?: unknown; forwardedFor?: string },
  ): Promise<Reply>;
}

/** Plain fetch against `base`; every request also ends when `signal` aborts (the run's hard cap). */
export function client(base: string, signal?: AbortSignal): Client {
  return {
    base,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.cookie) headers.cookie = options.cookie;
      if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
      // What a browser on the app's own origin sends (the server's CSRF check wants it same-origin);
      // like the web client, a content type only with a body.
      if (method !== 'GET') headers.origin = base;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const started = performance.now();
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        const ms = performance.now() - started;
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {}
        return { status: response.status, ms, body, setCookies: response.headers.getSetCookie() };
      } catch (error) {
        return {
          status: 0,
          ms: performance.now() - started,
          body: undefined,
          setCookies: [],
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        };
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Storage (setup before the server starts, counting after it stopped) and the server process
// ---------------------------------------------------------------------------------------------

export interface Storage {
  label: 'PGlite' | 'PostgreSQL';
  dataDir: string;
  /** The run's own database on the PostgreSQL server; absent: PGlite in dataDir. */
  databaseUrl?: string;
  drop(): Promise<void>;
}

/** A fresh temp DATA_DIR, and with `serverUrl` a fresh database on that PostgreSQL server (`bench` names both). */
export async function createStorage(serverUrl: string | undefined, bench: string): Promise<Storage> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `ss-${bench}-bench-`));
  if (!serverUrl) {
    return { label: 'PGlite', dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  let database: ThrowawayDatabase;
  try {
    database = await createThrowawayDatabase(serverUrl, `${bench}bench`);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    label: 'PostgreSQL',
    dataDir,
    databaseUrl: database.url,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

export type Query = <R>(text: string, values?: unknown[]) => Promise<R[]>;

/** Opens the run's database in this process (the server must not be running on PGlite: one process only). */
export async function withDatabase<T>(storage: Storage, fn: (query: Query) => Promise<T>): Promise<T> {
  const { openDatabase } = await import('../server/src/db/client.ts');
  // openDatabase runs the migrations, so the schema exists before the server first starts.
  const database = await openDatabase(
    storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : { dataDir: storage.dataDir },
  );
  try {
    return await fn(async (text, values) => (await database.pool.query(text, values)).rows);
  } finally {
    await database.close();
  }
}

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

// ---------------------------------------------------------------------------------------------
// Accounts and products through the API
// ---------------------------------------------------------------------------------------------

export const PASSWORD = 'bench-password-123';
/** The local provider's card that always succeeds (TEST_CARDS.success). */
export const SUCCESS_CARD = '4242424242424242';
/**
 * Accounts behind one X-Forwarded-For address: at most the sign-up limit per address (20 an hour)
 * and the open checkout holds per address (MAX_HOLDS_PER_ADDRESS, 10, in
 * server/src/modules/checkout/checkout.ts), since a burst may have every account of an address
 * holding a unit at once. Each account's checkouts then come from its own address too.
 */
const ACCOUNTS_PER_ADDRESS = 10;

export const card = () => ({
  number: SUCCESS_CARD,
  expMonth: 12,
  expYear: new Date().getFullYear() + 3,
  cvc: '123',
});

export interface Account {
  handle: string;
  cookie: string;
  /** The X-Forwarded-For address it signed up from; send it on its checkouts (holds per address). */
  address: string;
}

export function sidCookie(reply: Reply): string {
  const sid = reply.setCookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('sid='));
  if (!sid) throw new Error(`no session cookie (status ${reply.status}: ${JSON.stringify(reply.body)})`);
  return sid;
}

/**
 * Signs up one account per handle through the real route (argon2 included), `concurrency` at a
 * time; the first gets a business name (the seller). Sign-up allows 20 accounts per client address
 * per hour and checkout 10 open holds per address, so each batch of ACCOUNTS_PER_ADDRESS (10) comes
 * with its own X-Forwarded-For address 10.<octet>.x.y (the server must trust the proxy), kept in
 * the account for its checkouts: the limits apply exactly as to real clients. With Redis the
 * sign-up limit outlives the run, so such runs pass a fresh `octet`.
 */
export async function signUpAll(
  api: Client,
  handles: string[],
  options: { concurrency?: number; octet?: number; businessName?: string; signal?: AbortSignal } = {},
): Promise<Account[]> {
  const octet = options.octet ?? 77;
  return runPool(handles.length, options.concurrency ?? 8, async (i) => {
    options.signal?.throwIfAborted();
    const handle = handles[i] as string;
    const block = Math.floor(i / ACCOUNTS_PER_ADDRESS);
    const address = `10.${octet}.${Math.floor(block / 250)}.${(block % 250) + 1}`;
    const reply = await api.request('POST', '/api/auth/signup', {
      body: {
        firstName: 'Bench',
        lastName: `Account ${i}`,
        handle,
        email: `${handle}@example.com`,
        password: PASSWORD,
        ...(i === 0 && options.businessName ? { businessName: options.businessName } : {}),
      },
      forwardedFor: address,
    });
    if (reply.status !== 201)
      throw new Error(`sign-up ${handle}: ${reply.status} ${reply.error ?? JSON.stringify(reply.body)}`);
    return { handle, cookie: sidCookie(reply), address };
  });
}

/** Lists a product through POST /api/products; answers its id. */
export async function listProduct(
  api: Client,
  seller: Account,
  product: { categoryId: number; title: string; stock: number; priceCents?: number; description?: string },
): Promise<string> {
  const reply = await api.request('POST', '/api/products', {
    cookie: seller.cookie,
    body: {
      title: product.title,
      description: product.description ?? 'One drop, many buyers.',
      priceCents: product.priceCents ?? 4500,
      condition: 'new',
      categoryId: product.categoryId,
      stock: product.stock,
    },
  });
  if (reply.status !== 201) throw new Error(`listing: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id as string;
}

/** Inserts one category (there is no API for categories); on PGlite before the server starts. */
export async function insertCategory(storage: Storage, name: string, slug: string): Promise<number> {
  return withDatabase(storage, async (query) => {
    const [row] = await query<{ id: number }>(
      'insert into categories (name, slug) values ($1, $2) returning id',
      [name, slug],
    );
    if (!row) throw new Error('no category inserted');
    return row.id;
  });
}

// ---------------------------------------------------------------------------------------------
// Room sockets
// ---------------------------------------------------------------------------------------------

export interface RoomFrame {
  type?: string;
  [key: string]: unknown;
}

/**
 * Opens one room socket (/ws?room=…, no compression, 30 s bound) and resolves once its
 * chat_history arrived. Every frame goes to onFrame with its receive time (wallMs(), taken before
 * parsing), `undefined` for a frame that is not JSON; onClose hears a close after the join.
 */
export function joinRoom(
  url: string,
  options: {
    cookie?: string | undefined;
    onFrame(frame: RoomFrame | undefined, receivedAt: number): void;
    onClose?(code: number): void;
  },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      handshakeTimeout: 30_000,
      ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
    });
    let joined = false;
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no chat_history within 30 s from ${url}`));
    }, 30_000);
    socket.on('message', (data) => {
      const receivedAt = wallMs();
      let frame: RoomFrame | undefined;
      try {
        frame = JSON.parse(String(data)) as RoomFrame;
      } catch {
        frame = undefined;
      }
      if (!joined && frame?.type === 'chat_history') {
        joined = true;
        clearTimeout(timer);
        resolve(socket);
      }
      options.onFrame(frame, receivedAt);
    });
    socket.once('error', (error) => {
      if (!joined) {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.once('close', (code) => {
      if (!joined) {
        clearTimeout(timer);
        reject(new Error(`closed with ${code} before chat_history`));
      } else options.onClose?.(code);
    });
  });
}

/** Closes every socket (1000), terminating any that has not closed within 3 s. */
export async function closeSockets(sockets: Array<WebSocket | undefined>): Promise<void> {
  await Promise.all(
    sockets.filter(Boolean).map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (!socket || socket.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, 3000);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close(1000);
        }),
    ),
  );
}
