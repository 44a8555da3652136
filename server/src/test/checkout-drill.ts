import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import pg from 'pg';
import { newAccount } from './accounts.ts';
import { passesWithin } from './eventually.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.ts';

/**
 * A crash drill for checkout (issue 18), shared by the fault test and the takeover benchmark: two
 * real server processes on one PostgreSQL database (and Redis when given), buyers paying for one
 * product in a burst on instance A, and A killed with SIGKILL while some of them are charged but
 * their order is not written yet. Everything runs on 127.0.0.1.
 */

/** What one HTTP request answered; status 0 when it got no answer (the server died meanwhile). */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes, read field by field
  body: any;
  setCookies: string[];
}

/** A request as a browser on the server's own origin sends it, from `forwardedFor` behind the proxy. */
export async function request(
  server: ServerProcess,
  method: 'GET' | 'POST',
  path: string,
  options: { cookie?: string; body?: unknown; forwardedFor?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  if (method !== 'GET') headers.origin = server.url;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body, setCookies: response.headers.getSetCookie() };
  } catch {
    return { status: 0, body: undefined, setCookies: [] };
  }
}

export interface Pair {
  a: ServerProcess;
  b: ServerProcess;
  /** A connection pool on the drill's database, to read what the servers wrote. */
  pool: pg.Pool;
  /** Starts one more instance on the same database (after one was killed). */
  another(): Promise<ServerProcess>;
  /** Stops every instance (a killed one is left as it is), closes the pool, drops the database. */
  close(): Promise<void>;
}

/**
 * Two instances of the real server on a fresh database of the PostgreSQL server at `serverUrl`,
 * with Redis at `redisUrl` when given. TRUST_PROXY lets each drill buyer come from its own address
 * (X-Forwarded-For), so the per-address limits apply as to separate people.
 */
export async function startPair(options: {
  serverUrl: string;
  redisUrl?: string | undefined;
  label: string;
  stdio?: 'inherit' | 'ignore';
  /** More server settings, on top of the pair's (e.g. SOCKETS_PER_ADDRESS for many sockets from 127.0.0.1). */
  env?: Record<string, string>;
}): Promise<Pair> {
  const database: ThrowawayDatabase = await createThrowawayDatabase(options.serverUrl, options.label);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: 'true',
    DEMO_LIVE: 'false',
    // Each instance has a DATA_DIR of its own; media is not what the drills are about.
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, MEDIA_DIR_SHARED: 'true' } : {}),
    ...options.env,
  };
  const servers: ServerProcess[] = [];
  const pool = new pg.Pool({ connectionString: database.url, max: 3 });
  // close() drops the database with (force): a connection pool.end() has let go of but not yet
  // closed gets PostgreSQL's "terminating connection" (57P01), which the pool re-emits; with no
  // listener that was an uncaught exception in the test file.
  pool.on('error', () => {});
  const close = async () => {
    await Promise.allSettled(servers.map((server) => server.stop()));
    await pool.end().catch(() => undefined);
    await database.drop();
  };
  try {
    // A first: it migrates the database.
    servers.push(await startServerProcess({ env, stdio: options.stdio }));
    servers.push(await startServerProcess({ env, stdio: options.stdio }));
  } catch (error) {
    await close();
    throw error;
  }
  const [a, b] = servers as [ServerProcess, ServerProcess];
  const another = async () => {
    const server = await startServerProcess({ env, stdio: options.stdio });
    servers.push(server);
    return server;
  };
  return { a, b, pool, another, close };
}

export interface Shopper {
  handle: string;
  cookie: string;
  /** The address it comes from (X-Forwarded-For). */
  address: string;
}

let addresses = 0;
/** A fresh account signed up on `server` from an address of its own. */
export async function signUpShopper(server: ServerProcess): Promise<Shopper> {
  addresses += 1;
  const address = `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  const account = newAccount();
  const reply = await request(server, 'POST', '/api/auth/signup', { body: account, forwardedFor: address });
  const cookie = reply.setCookies.map((line) => line.split(';')[0]).find((c) => c?.startsWith('sid='));
  if (reply.status !== 201 || !cookie)
    throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { handle: account.handle, cookie, address };
}

/** A digital product of `stock` units listed by `seller` on `server` (the category is written directly). */
export async function listProduct(
  pair: Pair,
  server: ServerProcess,
  seller: Shopper,
  stock: number,
): Promise<string> {
  const category = await pair.pool.query<{ id: number }>(
    `insert into categories (name, slug) values ('Drill goods', 'drill-goods')
     on conflict (slug) do update set name = excluded.name returning id`,
  );
  const reply = await request(server, 'POST', '/api/products', {
    cookie: seller.cookie,
    forwardedFor: seller.address,
    body: {
      title: `Drop ${randomBytes(3).toString('hex')}`,
      description: 'One of a few.',
      priceCents: 4500,
      condition: 'new',
      categoryId: category.rows[0]?.id,
      stock,
      fulfillment: 'digital',
      shippingCents: 0,
    },
  });
  if (reply.status !== 201) throw new Error(`listing failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

export const openCheckout = (server: ServerProcess, shopper: Shopper, productId: string) =>
  request(server, 'POST', `/api/checkout/${productId}`, {
    cookie: shopper.cookie,
    forwardedFor: shopper.address,
  });

/** The local provider's card form, paid with the success card. */
export const payWithCard = (server: ServerProcess, clientSecret: string) =>
  request(server, 'POST', '/api/payments/local/confirm', {
    body: {
      clientSecret,
      card: { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' },
    },
  });

/** Payments the card network charged whose order does not exist (yet). */
export async function chargedWithoutOrder(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: number }>(`
    select count(*)::int as n from local_payment_intents i
    where i.status = 'succeeded' and i.payment_id is not null
      and not exists (select 1 from orders o where o.payment_id::text = i.payment_id)`);
  return result.rows[0]?.n ?? 0;
}

/** Sends SIGKILL and waits for the process to be gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  const exited = new Promise((resolve) => server.proc.once('exit', resolve));
  server.proc.kill('SIGKILL');
  await exited;
}

/**
 * Every shopper pays its session on `server` at once; as soon as at least `atLeast` payments are
 * charged without their order, the server is killed with SIGKILL. Answers each payment's reply
 * (status 0: no answer, the server died) and how many were charged without an order right after
 * the kill (the work left to another instance), or throws when the burst ended before that.
 */
export async function payInBurstAndKill(
  server: ServerProcess,
  pool: pg.Pool,
  secrets: string[],
  atLeast = 1,
): Promise<{ replies: Reply[]; killedAt: number; stranded: number }> {
  let burstOver = false;
  const burst = Promise.all(secrets.map((secret) => payWithCard(server, secret))).finally(() => {
    burstOver = true;
  });
  let killedAt = 0;
  while (!burstOver) {
    if ((await chargedWithoutOrder(pool)) >= atLeast) {
      await killHard(server);
      killedAt = performance.now();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const replies = await burst;
  if (!killedAt) throw new Error('every payment of the burst was settled before the kill could happen');
  return { replies, killedAt, stranded: await chargedWithoutOrder(pool) };
}

/** Polls `check` every 50 ms for at most `ms`; answers the ms it took, or undefined when it never held. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number | undefined> {
  const started = performance.now();
  return (await passesWithin('the check', check, ms)) ? performance.now() - started : undefined;
}
