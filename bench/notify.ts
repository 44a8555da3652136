/**
 * Going live to 10,000 followers (issue 29, ADR 0023: the go-live fan-out in batches under a lease).
 *
 * The real server (server/src/main.ts) in a child process on 127.0.0.1: a fresh PGlite DATA_DIR by
 * default, a fresh database on a PostgreSQL server with `--database-url` (or DATABASE_URL). Setup,
 * not measured: the seller and the chatters sign up through the real route; the followers are
 * written with SQL (users and follows, generate_series; every third address verified, so a third
 * of them are mailed through the outbox), through the server's own database connection (PGlite's
 * socket, or the database URL); the seller creates a room.
 *
 * Measured, in the same room, one phase after the other:
 *
 *   baseline  the chatters (8 signed-in sockets, each sending one message every 1.25 s, staggered)
 *             time send → their own message back from the room, with no fan-out running (the
 *             room created, not live yet);
 *   fan-out   the seller goes live (POST /api/streams/:name/start) and the chatters go on until the
 *             fan-out is done (notification_fanouts.done_at), the same chat timed meanwhile;
 *   after     the same chat for as long again once it is done (the outbox may still be sending).
 *
 * From the database once done: start → the event recorded (the 2 s sweep), → the first and the last
 * batch's notifications (a batch's rows carry its transaction's start time, so distinct created_at
 * values count the batches), → done_at (after the last commit); batches and notifications per second
 * from the first batch to done; the counts (one notification per follower, one mail per verified
 * follower). The server's CPU over the fan-out (all threads, the PGlite worker included, /proc) and
 * the time its threads were runnable but waiting for a CPU (schedstat: on a busy machine, other work's share).
 *
 *   npm run bench -- notify [--followers=10000] [--chatters=8] [--every=1250] [--baseline=10]
 *     [--database-url=postgres://…] [--max-seconds=300]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) Exit code 1 when a count is
 * wrong (someone told twice or not at all); 3 when the hard cap stopped the run.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { connectToServerDatabase } from '../server/src/test/support.ts';
import { type Chatters, joinChatters } from './notify/chatters.ts';
import { percentile, type Row, report } from './report.ts';
import {
  type Account,
  type AppServer,
  client,
  cliFlags,
  cpuSeconds,
  createStorage,
  finishRun,
  fixed,
  runBench,
  runQueueWaitSeconds,
  type Storage,
  signUpAll,
  sleep,
  startAppServer,
  startHardCap,
  wallMs,
} from './support.ts';

type Db = Awaited<ReturnType<typeof connectToServerDatabase>>;

const stopAll = new AbortController();
const signal = stopAll.signal;

function parseOptions(argv: string[]) {
  const { value, number } = cliFlags(argv);
  const databaseUrl = value('database-url') || process.env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  return {
    followers: number('followers', 10_000, 1, 1_000_000),
    chatters: number('chatters', 8, 1, 100),
    everyMs: number('every', 1250, 1000, 60_000),
    baselineSec: number('baseline', 10, 2, 300),
    maxSeconds: number('max-seconds', 300, 30, 3600),
    databaseUrl,
  };
}

/** Writes `count` followers of the seller (every third address verified); answers how many are verified. */
async function seedFollowers(db: Db, sellerHandle: string, count: number, tag: string): Promise<number> {
  const seller = await db.query<{ id: string }>('select id from users where handle = $1', [sellerHandle]);
  const sellerId = seller.rows[0]?.id;
  if (!sellerId) throw new Error('the seller is not in the database');
  await db.query(
    `insert into users (handle, email, first_name, last_name, email_verified_at)
     select 'f' || $2 || '_' || g, 'f' || $2 || '_' || g || '@example.com', 'Bench', 'Follower ' || g,
       case when g % 3 = 0 then now() end
     from generate_series(1, $1::int) g`,
    [count, tag],
  );
  await db.query(
    `insert into follows (follower_id, seller_id)
     select id, $1 from users where handle like 'f' || $2 || '\\_%'`,
    [sellerId, tag],
  );
  return Math.floor(count / 3);
}

type Fanout = {
  event_at: number | null;
  done_at: number | null;
  first_at: number | null;
  last_at: number | null;
  batches: number;
  notes: number;
  people: number;
  mails: number;
};

/** The event's figures (wall-clock ms from the database's clock, the same machine's). */
async function fanoutFigures(db: Db, eventKey: string): Promise<Fanout | undefined> {
  const { rows } = await db.query<Fanout>(
    `select extract(epoch from f.created_at) * 1000 as event_at, extract(epoch from f.done_at) * 1000 as done_at,
       extract(epoch from n.first_at) * 1000 as first_at, extract(epoch from n.last_at) * 1000 as last_at,
       n.batches, n.notes, n.people,
       (select count(*)::int from mail_outbox where dedupe_key like 'notify:' || f.event_key || ':%') as mails
     from notification_fanouts f,
       lateral (select min(created_at) as first_at, max(created_at) as last_at,
         count(distinct created_at)::int as batches, count(*)::int as notes, count(distinct user_id)::int as people
         from notifications where event_key = f.event_key) n
     where f.event_key = $1`,
    [eventKey],
  );
  const row = rows[0];
  // node-postgres gives numerics as text.
  return (
    row &&
    (Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : Number(v)])) as Fanout)
  );
}

const stats = (values: number[]) => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : Number.NaN,
});

async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const servers: AppServer[] = [];
  let storage: Storage | undefined;
  let db: Db | undefined;
  let chatters: Chatters | undefined;
  const clearHardCap = startHardCap('notify', options.maxSeconds, stopAll, () => ({ servers, storage }));
  const loadBefore = loadavg();
  const label = options.databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(
    `notify: ${options.followers.toLocaleString('en')} followers, ${options.chatters} chatters every ${options.everyMs} ms; ` +
      `1 instance, ${label}; ${availableParallelism()} CPUs, load ${loadBefore.map((n) => n.toFixed(1)).join(' ')}`,
  );
  if ((loadBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');
  try {
    storage = await createStorage(options.databaseUrl, 'notify');
    const server = await startAppServer(storage, { signal });
    servers.push(server);
    const api = client(server.base, signal);
    const tag = randomBytes(3).toString('hex');
    const accounts = await signUpAll(
      api,
      [
        `notify_seller_${tag}`,
        ...Array.from({ length: options.chatters }, (_, i) => `notify_chat_${tag}_${i}`),
      ],
      { concurrency: 4, octet: 100 + randomInt(150), businessName: 'Notify Bench Records', signal },
    );
    const [seller, ...chatterAccounts] = accounts as [Account, ...Account[]];
    db = await connectToServerDatabase({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    const tSeed = performance.now();
    const verified = await seedFollowers(db, seller.handle, options.followers, tag);
    console.log(
      `  ${options.followers.toLocaleString('en')} followers written in ${fixed((performance.now() - tSeed) / 1000)} s`,
    );
    const room = await api.request('POST', '/api/rooms', {
      cookie: seller.cookie,
      body: { title: 'Notify bench' },
    });
    if (room.status !== 201) throw new Error(`create room: ${room.status} ${JSON.stringify(room.body)}`);
    const roomName = room.body.roomName as string;
    const stream = await db.query<{ id: string }>('select id from streams where room_name = $1', [roomName]);
    const eventKey = `live:${stream.rows[0]?.id}`;
    const url = `${server.base.replace(/^http/, 'ws')}/ws?room=${encodeURIComponent(roomName)}`;
    chatters = await joinChatters(url, chatterAccounts, options.everyMs);

    // Baseline: the same room, nothing fanning out.
    chatters.run('baseline');
    await sleep(options.baselineSec * 1000);
    signal.throwIfAborted();

    // Live: the chat goes on while the followers are told.
    chatters.run('fan-out');
    const cpuBefore = cpuSeconds(server.pid);
    const waitBefore = runQueueWaitSeconds(server.pid);
    const startAt = wallMs();
    const start = await api.request('POST', `/api/streams/${roomName}/start`, { cookie: seller.cookie });
    if (start.status !== 200) throw new Error(`go live: ${start.status} ${JSON.stringify(start.body)}`);
    for (;;) {
      signal.throwIfAborted();
      const done = await db.query<{ done: boolean }>(
        'select done_at is not null as done from notification_fanouts where event_key = $1',
        [eventKey],
      );
      if (done.rows[0]?.done) break;
      await sleep(100);
    }
    const fanoutSec = (wallMs() - startAt) / 1000;
    const cpuPct = ((cpuSeconds(server.pid) - cpuBefore) / fanoutSec) * 100;
    const waitPct = ((runQueueWaitSeconds(server.pid) - waitBefore) / fanoutSec) * 100;
    chatters.run('after');
    await sleep(Math.max(options.baselineSec, fanoutSec) * 1000);
    await chatters.pause();
    const figures = await fanoutFigures(db, eventKey);
    if (!figures) throw new Error('no fan-out recorded');

    const phases = ['baseline', 'fan-out', 'after'] as const;
    const chat = Object.fromEntries(
      phases.map((phase) => {
        const ms = chatters?.samples.filter((s) => s.phase === phase).map((s) => s.ms) ?? [];
        const lost = [...(chatters?.pending.values() ?? [])].filter((p) => p.phase === phase).length;
        return [phase, { ...stats(ms), lost }];
      }),
    ) as Record<(typeof phases)[number], ReturnType<typeof stats> & { lost: number }>;
    const f = figures;
    const from = (at: number | null) => (at === null ? Number.NaN : at - startAt);
    const spanSec = ((f.done_at ?? Number.NaN) - (f.first_at ?? Number.NaN)) / 1000;
    const ok = f.notes === options.followers && f.people === options.followers && f.mails === verified;
    const rows: Row[] = [
      { metric: 'start → event recorded', value: from(f.event_at), unit: 'ms', note: 'the 2 s sweep' },
      { metric: 'start → first batch', value: from(f.first_at), unit: 'ms' },
      { metric: 'start → last batch', value: from(f.last_at), unit: 'ms', note: 'its transaction began' },
      { metric: 'start → fan-out done', value: from(f.done_at), unit: 'ms', note: 'after the last commit' },
      { metric: 'batches', value: f.batches, unit: '' },
      { metric: 'batches per second', value: f.batches / spanSec, unit: '/s', note: 'first batch → done' },
      { metric: 'notifications per second', value: f.notes / spanSec, unit: '/s' },
      { metric: 'server CPU during the fan-out', value: cpuPct, unit: '%', note: 'all threads' },
      {
        metric: 'server waiting for a CPU meanwhile',
        value: waitPct,
        unit: '%',
        note: 'runnable, not running (schedstat)',
      },
      ...(['p50', 'p95', 'p99', 'max'] as const).map((p) => ({
        metric: `chat echo ${p} during the fan-out`,
        value: chat['fan-out'][p],
        unit: 'ms',
        baseline: chat.baseline[p],
        note:
          p === 'p50'
            ? `${chat['fan-out'].n} messages (baseline ${chat.baseline.n}); after: ${fixed(chat.after[p])} ms`
            : `after: ${fixed(chat.after[p])} ms`,
      })),
      {
        metric: 'chat messages not echoed',
        value: chat['fan-out'].lost,
        unit: '',
        baseline: chat.baseline.lost,
      },
      {
        metric: 'notifications / mails',
        value: f.notes,
        unit: '',
        note: `${f.people} people, ${f.mails} mails of ${verified} verified: ${ok ? 'exact' : 'WRONG'}`,
      },
    ];
    report('notify', rows, {
      storage: label,
      followers: options.followers,
      verified,
      chatters: options.chatters,
      everyMs: options.everyMs,
      loadAverage: { before: loadBefore, after: loadavg() },
      fanout: { ...f, startAt },
      chat,
      chatErrors: chatters.errors,
      counts: ok ? 'exact' : 'wrong',
    });
    if (!ok) console.error('!! the counts are wrong: someone was told twice or not at all');
    return ok;
  } finally {
    clearHardCap();
    await chatters?.close();
    await db?.end().catch(() => {});
    for (const s of servers.splice(0)) await s.stop();
    await finishRun('notify', started, storage);
  }
}

await runBench('notify', stopAll, main);
