import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { killHard, request, signUpShopper } from '../../test/checkout-drill.ts';
import { eventually } from '../../test/eventually.ts';
import { seedDataDirFromTemplate } from '../../test/pglite-template.ts';
import { connectToServerDatabase } from '../../test/server-database.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../test/throwaway-database.ts';
import { fanoutBatchFor } from './fan-out.ts';

/**
 * Issue 29 (ADR 0023): kill -9 during a 10,000-follower fan-out; after a restart everyone has
 * exactly one notification. The real server in a child process, on a DATA_DIR of its own (PGlite)
 * or a fresh PostgreSQL database (TEST_DATABASE_URL); the followers are written with SQL.
 *
 * The kill lands at a state the test has seen, not at a moment it guessed: the poll that finds
 * some batches committed and not all holds the fan-out there (on PostgreSQL an exclusive lock on
 * mail_outbox, so the next batch waits inside its transaction, its notifications written and not
 * committed; on PGlite, one session, a transaction held open on the server's socket, so the server
 * waits between two of its transactions), and the server is killed while it waits. The server
 * started next resumes from the committed cursor; once it has committed a batch of its own it is
 * stopped with SIGTERM, which ends the fan-out after the batch under way (a shutdown does not wait
 * for thousands of people more), and a third start finishes it.
 */

const databaseServerUrl = process.env.TEST_DATABASE_URL ?? '';
const onPostgres = databaseServerUrl !== '';
/** People per batch on the server's kind of database. */
const BATCH = fanoutBatchFor(onPostgres ? 'postgres' : 'pglite');

const FOLLOWERS = 10_000;
/** Every third follower has a verified address: only they are mailed. */
const VERIFIED = Math.floor(FOLLOWERS / 3);
/** The fan-out is held and killed once at least this many people are told (and not everyone). */
const KILL_AFTER = FOLLOWERS / 4;

const servers: ServerProcess[] = [];
const clients: pg.Client[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {});
  for (const server of servers) await server.stop();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

type Progress = { notified: number; done: boolean; notes: number; mails: number };

/** The event's row and what it wrote so far (counts as the caller's transaction sees them). */
async function progress(db: pg.Client | pg.Pool, eventKey: string): Promise<Progress | undefined> {
  const { rows } = await db.query<Progress>(
    `select f.notified, f.done_at is not null as done,
       (select count(*)::int from notifications where event_key = f.event_key) as notes,
       (select count(*)::int from mail_outbox where dedupe_key like 'notify:' || f.event_key || ':%') as mails
     from notification_fanouts f where f.event_key = $1`,
    [eventKey],
  );
  return rows[0];
}

/** The event's progress with no server running (PGlite: its DATA_DIR opened here, then closed). */
async function progressAtRest(dataDir: string, databaseUrl: string | undefined, eventKey: string) {
  if (databaseUrl) {
    const db = await connectToServerDatabase({ dataDir, databaseUrl });
    try {
      return await progress(db, eventKey);
    } finally {
      await db.end();
    }
  }
  const database = await openDatabase({ dataDir });
  try {
    return await progress(database.pool, eventKey);
  } finally {
    await database.close();
  }
}

/**
 * Polls until the fan-out has committed some batches and not all, and answers that state with the
 * fan-out held at it (see above); the caller kills the server and then calls `release`.
 */
async function holdMidway(
  db: pg.Client,
  eventKey: string,
): Promise<{ at: Progress; release(): Promise<void> }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await db.query('begin');
    if (onPostgres) await db.query('lock table mail_outbox in exclusive mode');
    const now = await progress(db, eventKey);
    if (now && now.notified >= KILL_AFTER && now.notified < FOLLOWERS && !now.done) {
      return {
        at: now,
        release: async () => {
          await db.query('rollback').catch(() => {});
        },
      };
    }
    await db.query('rollback');
    if (now?.done) throw new Error('the fan-out finished before the test could hold it midway');
    if (Date.now() > deadline) throw new Error(`no fan-out midway within 60 s: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a go-live fan-out killed midway', () => {
  it('kill -9 during a 10,000-follower fan-out: after restarts everyone has exactly one notification, and each verified follower one mail', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-fanout-kill-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let database: ThrowawayDatabase | undefined;
    if (onPostgres) {
      database = await createThrowawayDatabase(databaseServerUrl, 'fanoutkill');
      const made = database;
      cleanups.push(() => made.drop());
    }
    // Its embedded database starts migrated (the subject is the restart, not the first start).
    if (!onPostgres) await seedDataDirFromTemplate(dataDir);
    const env: Record<string, string> = {
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DEMO_LIVE: 'false',
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const start = async () => {
      const server = await startServerProcess({ env, dataDir, stdio: 'pipe' });
      servers.push(server);
      const db = await connectToServerDatabase({ dataDir, databaseUrl: database?.url });
      clients.push(db);
      return { server, db };
    };

    const first = await start();
    const seller = await signUpShopper(first.server);
    const sellerId = (
      await first.db.query<{ id: string }>('select id from users where handle = $1', [seller.handle])
    ).rows[0]?.id;
    expect(sellerId).toBeDefined();
    await first.db.query(
      `insert into users (handle, email, first_name, last_name, email_verified_at)
         select 'fan_' || g, 'fan_' || g || '@example.com', 'Fan', 'Number ' || g,
           case when g % 3 = 0 then now() end
         from generate_series(1, $1::int) g`,
      [FOLLOWERS],
    );
    await first.db.query(
      `insert into follows (follower_id, seller_id) select id, $1 from users where handle like 'fan\\_%'`,
      [sellerId],
    );

    const as = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      request(first.server, method, url, { cookie: seller.cookie, forwardedFor: seller.address, body });
    const room = await as('POST', '/api/rooms', { title: 'Ten thousand fans' });
    expect(room.status).toBe(201);
    const roomName: string = room.body.roomName;
    const streamId = (
      await first.db.query<{ id: string }>('select id from streams where room_name = $1', [roomName])
    ).rows[0]?.id;
    const eventKey = `live:${streamId}`;

    const startedAt = performance.now();
    expect((await as('POST', `/api/streams/${roomName}/start`)).status).toBe(200);
    const held = await holdMidway(first.db, eventKey);
    if (onPostgres) {
      // The next batch is inside its transaction, waiting to queue its mail: the kill lands there.
      await eventually(
        'the next batch waiting on mail_outbox',
        async () => {
          // Within a transaction PostgreSQL shows the activity it read first, unless told to read again.
          await first.db.query('select pg_stat_clear_snapshot()');
          return (
            await first.db.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and wait_event_type = 'Lock'
                   and query like '%insert into mail_outbox%'`,
            )
          ).rows[0]?.n;
        },
        (n) => n === 1,
      );
    }
    await killHard(first.server);
    const killedAfterMs = performance.now() - startedAt;
    if (onPostgres) {
      // The dead server's waiting statement ends as its crash would end it: rolled back.
      await first.db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()`,
      );
    }
    await held.release();
    expect(held.at.notified % BATCH).toBe(0);
    expect(held.at.notes).toBe(held.at.notified);
    // The batch the kill interrupted left nothing: what is there is what was committed before.
    if (onPostgres) expect(await progress(first.db, eventKey)).toEqual(held.at);

    // The restart takes the event over (once the dead server's lease ran out) from its cursor.
    const restartedAt = performance.now();
    const second = await start();
    const upAfterMs = performance.now() - restartedAt;
    const resumed = await eventually(
      'the restarted server resumed the fan-out',
      () => progress(second.db, eventKey),
      (p) => (p?.notified ?? 0) > held.at.notified,
      60_000,
    );
    const resumedAfterMs = performance.now() - restartedAt;

    // Stopped (SIGTERM) midway in turn, it stops after the batch under way, not at the fan-out's end.
    const stopAt = performance.now();
    expect(await second.server.stop()).toBe(0);
    const stopMs = performance.now() - stopAt;
    const stopped = await progressAtRest(dataDir, database?.url, eventKey);
    expect(stopped?.done).toBe(false);
    expect(stopped?.notes).toBe(stopped?.notified);

    const thirdAt = performance.now();
    const third = await start();
    const finished = await eventually(
      'the fan-out finished after the next start',
      () => progress(third.db, eventKey),
      (p) => p?.done === true,
      60_000,
    );
    const finishedAfterMs = performance.now() - thirdAt;

    const batches = (p: Progress | undefined) => (p?.notified ?? 0) / BATCH;
    console.log(
      `fan-out on ${onPostgres ? 'PostgreSQL' : 'PGlite'}, ${FOLLOWERS / BATCH} batches: kill -9 ` +
        `${Math.round(killedAfterMs)} ms after the start, after ${batches(held.at)} batches ` +
        `(${held.at.notes} notifications, ${held.at.mails} mails); restarted: up in ${Math.round(upAfterMs)} ms, ` +
        `first batch of its own committed ${Math.round(resumedAfterMs)} ms after the restart began; ` +
        `SIGTERM after ${batches(resumed)} batches: exited in ${Math.round(stopMs)} ms after ${batches(stopped)}; ` +
        `the next start finished it ${Math.round(finishedAfterMs)} ms after it began`,
    );

    // Everyone once, the seller never, and the count the fan-out kept agrees.
    expect(finished?.notified).toBe(FOLLOWERS);
    const counts = await third.db.query<{
      notes: number;
      people: number;
      missing: number;
      seller: number;
      twice: number;
    }>(
      `select
           (select count(*)::int from notifications where event_key = $1) as notes,
           (select count(distinct user_id)::int from notifications where event_key = $1) as people,
           (select count(*)::int from follows f where f.seller_id = $2 and not exists
              (select 1 from notifications n where n.user_id = f.follower_id and n.event_key = $1)) as missing,
           (select count(*)::int from notifications where user_id = $2) as seller,
           (select count(*)::int from (select user_id from notifications group by user_id having count(*) > 1) d) as twice`,
      [eventKey, sellerId],
    );
    expect(counts.rows[0]).toEqual({ notes: FOLLOWERS, people: FOLLOWERS, missing: 0, seller: 0, twice: 0 });

    // One mail per verified follower, under the event's dedupe key, to that follower's address.
    const mails = await third.db.query<{ mails: number; matched: number; unverified: number }>(
      `select
           (select count(*)::int from mail_outbox where dedupe_key like 'notify:' || $1 || ':%') as mails,
           (select count(*)::int from follows f join users u on u.id = f.follower_id
              join mail_outbox m on m.dedupe_key = 'notify:' || $1 || ':' || u.id and m.to_address = u.email
            where f.seller_id = $2 and u.email_verified_at is not null) as matched,
           (select count(*)::int from mail_outbox m join users u on m.to_address = u.email
            where m.dedupe_key like 'notify:' || $1 || ':%' and u.email_verified_at is null) as unverified`,
      [eventKey, sellerId],
    );
    expect(mails.rows[0]).toEqual({ mails: VERIFIED, matched: VERIFIED, unverified: 0 });
    // One event for the stream, however many sweeps saw it.
    const events = await third.db.query<{ n: number }>(
      'select count(*)::int as n from notification_fanouts where seller_id = $1',
      [sellerId],
    );
    expect(events.rows[0]?.n).toBe(1);
  }, 300_000);
});
