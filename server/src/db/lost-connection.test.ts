import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/ports.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../test/throwaway-database.ts';
import { type Database, openDatabase } from './client.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * Issue 18: a pooled connection that PostgreSQL ends (a restart, pg_terminate_backend) while it is
 * checked out. node-postgres emits 'error' on that client, and with nobody listening the process
 * ended; Drizzle's transaction never gives back a client whose BEGIN failed, so each such loss
 * also kept a pool slot forever. On PostgreSQL only: PGlite is one session that cannot be
 * terminated from another. (server/src/platform/database-restart.test.ts restarts a whole server.)
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)('a pooled connection lost while checked out', () => {
  let database: Database;
  const lost: Error[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    database.reportLostConnections((error) => lost.push(error));
  });

  afterAll(async () => {
    await database?.close();
  });

  const terminate = (pid: number) => database.pool.query('select pg_terminate_backend($1)', [pid]);

  it('fails that transaction as "database unavailable", is reported, and leaves the pool serving', async () => {
    // More losses than the pool has slots (10): a slot kept per loss would leave none.
    for (let i = 0; i < 12; i++) {
      const failure = await database.db
        .transaction(async (tx) => {
          const { pid } =
            (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0] ?? {};
          await terminate(pid ?? 0);
          // The loss arrives while the client is idle inside the transaction.
          await sleep(150);
          await tx.execute(sql`select 1`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    }
    expect(lost.length).toBeGreaterThanOrEqual(12);
    expect(lost.every((error) => isDatabaseUnavailable(error))).toBe(true);
    const answer = await database.db.transaction((tx) => tx.execute<{ one: number }>(sql`select 1 as one`));
    expect(answer.rows[0]?.one).toBe(1);
    expect(database.pool.waitingCount).toBe(0);
  });

  it('gives a lost client back to the pool at once; its holder releasing it later changes nothing', async () => {
    const client = await database.pool.connect();
    const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0] ?? {};
    const checkedOut = () => database.pool.totalCount - database.pool.idleCount;
    expect(checkedOut()).toBe(1);
    await terminate(pid ?? 0);
    // Back to the pool (and dropped by it) without its holder doing anything.
    await expect.poll(checkedOut, { timeout: 5000 }).toBe(0);
    expect(() => client.release()).not.toThrow();
    expect(() => client.release()).not.toThrow();
    expect((await database.pool.query('select 2 as two')).rows[0].two).toBe(2);
  });
});

describe('a PostgreSQL that accepts connections and never answers', () => {
  it('is not waited on at start: opening fails once the connect timeout is over', async () => {
    const silent = new Set<Socket>();
    const server = createServer((socket) => {
      silent.add(socket);
      socket.on('error', () => {});
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const failure = await Promise.race([
        openDatabase({
          databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`,
          connectTimeoutMs: 500,
        }).then(
          async (database) => {
            await database.close();
            return 'opened';
          },
          (error: unknown) => error,
        ),
        sleep(10_000).then(() => 'still waiting after 10 s'),
      ]);
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    } finally {
      for (const socket of silent) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** A TCP relay to PostgreSQL whose connections can all be reset (RST) at once, as a network fault. */
async function resettingRelay(target: URL) {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let hanging = false;
  const silent = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (hanging) {
      // Accepted, and never answered: a PostgreSQL that hangs rather than refuses.
      silent.add(client);
      client.on('error', () => {});
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    resetAll() {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
    },
    /** New connections are accepted and never answered (or, with false, relayed again). */
    hang(on: boolean) {
      hanging = on;
      if (!on) for (const socket of silent) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of silent) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!onPostgres)('a connection reset on the way to PostgreSQL', () => {
  let throwaway: ThrowawayDatabase;
  let relay: Awaited<ReturnType<typeof resettingRelay>>;
  let database: Database;

  beforeAll(async () => {
    throwaway = await createThrowawayDatabase(process.env.TEST_DATABASE_URL ?? '', 'reset');
    const target = new URL(throwaway.url);
    relay = await resettingRelay(target);
    const through = new URL(throwaway.url);
    through.hostname = '127.0.0.1';
    through.port = String(relay.port);
    database = await openDatabase({ databaseUrl: through.toString(), connectTimeoutMs: 1000 });
    database.reportLostConnections(() => {});
  });

  afterAll(async () => {
    await database?.close();
    await relay?.close();
    await throwaway?.drop();
  });

  it('fails the queries and transactions in flight as "database unavailable" (a raw ECONNRESET), then serves again', async () => {
    const inFlight = [
      database.db.execute(sql`select pg_sleep(2)`),
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await sleep(1000);
        await tx.execute(sql`select 2`);
      }),
    ].map((work) =>
      work.then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    await sleep(300);
    relay.resetAll();
    const failures = await Promise.all(inFlight);
    for (const failure of failures) expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    // The socket's own error, which only the pool can tell apart from another service's.
    const codes = failures.map((failure) =>
      failure instanceof DrizzleQueryError ? (failure.cause as { code?: string })?.code : undefined,
    );
    expect(codes).toContain('ECONNRESET');
    expect((await database.pool.query('select 3 as three')).rows[0].three).toBe(3);
  });

  it('fails a query as "database unavailable" when PostgreSQL hangs rather than refuses, then serves again', async () => {
    relay.hang(true);
    relay.resetAll(); // the pooled connections go: the next query needs a new one
    await expect.poll(() => database.pool.totalCount, { timeout: 5000 }).toBe(0);
    const failure = await Promise.race([
      database.db.execute(sql`select 1`).then(
        () => 'answered',
        (error: unknown) => error,
      ),
      sleep(10_000).then(() => 'still waiting after 10 s'),
    ]);
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    relay.hang(false);
    expect((await database.pool.query('select 4 as four')).rows[0].four).toBe(4);
  });
});
