import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatClient, connectChat } from '../test/chat-client.ts';
import { eventually } from '../test/eventually.ts';
import {
  type PrivatePostgres,
  privatePostgresMissing,
  startPrivatePostgres,
} from '../test/private-postgres.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { newAccount } from '../test/test-app.ts';

/**
 * Issue 18: PostgreSQL restarts under two real server processes (server/src/main.ts) while buyers
 * check out and pay with the local provider and people chat. The test runs a PostgreSQL of its
 * own (initdb into a temp directory, a free port; the shared one is never touched) and restarts it
 * twice: `pg_ctl restart -m fast`, then an immediate stop with the database away for 3 s. The
 * processes must stay up with no unhandled rejection, say 503 (never 500) while it is away, and
 * afterwards: stock + orders = initial, one order per payment, every charged payment has its order,
 * no chat message accepted and then lost, sign-in works. How soon after the return each of these
 * came is printed (figures); the waits for them have a ceiling only a hang exceeds, so a loaded
 * machine makes the test slower, never red. It runs once, in the `server` project (its own
 * PostgreSQL either way).
 */
const missing = privatePostgresMissing();
if (missing)
  console.warn(`PostgreSQL is not installed here (${missing}): the PostgreSQL restart test is skipped`);
const skip = Boolean(missing) || Boolean(process.env.TEST_DATABASE_URL);

const PRODUCTS = 3;
const STOCK = 200;
const BUYERS = 6;
/** The immediate stop keeps PostgreSQL away this long. */
const OUTAGE_MS = 3000;
/**
 * How long after the database is back a recovery may take before the test calls it a hang (the
 * issue asks orders within 10 s; the figures say how soon they came).
 */
const RECOVERY_CEILING_MS = 45_000;
/** Longer than any answer should take; a request that takes longer counts as hung. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Under the chat bucket's refill (1 a second). */
const CHAT_EVERY_MS = 1200;

interface Answer {
  status: number;
  body: { code?: string; message?: string; [key: string]: unknown } | undefined;
  setCookie: string[];
}

/** A call to the API: its status and JSON body, or status 0 with the connection error. */
async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { cookie?: string; body?: unknown; ip?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: Answer['body'];
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = { message: text.slice(0, 200) };
    }
    return { status: response.status, body, setCookie: response.headers.getSetCookie() };
  } catch (error) {
    return { status: 0, body: { message: String(error) }, setCookie: [] };
  }
}

const cookieOf = (answer: Answer) => answer.setCookie.find((c) => c.startsWith('sid='))?.split(';')[0] ?? '';

interface Step {
  kind: 'checkout' | 'confirm' | 'signin';
  status: number;
  code: string | undefined;
  message: string | undefined;
  startedAt: number;
  endedAt: number;
  clientSecret?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls every 100 ms until `check` holds, at most `ms`. */
const within = (ms: number) => ({ timeoutMs: ms, intervalMs: 100 });

describe.skipIf(skip)('PostgreSQL restarts under two server processes', () => {
  let postgres: PrivatePostgres | undefined;
  const servers: ServerProcess[] = [];
  const sockets: ChatClient[] = [];
  let admin: pg.Pool | undefined;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    const env = {
      DATABASE_URL: postgres.url,
      SESSION_SECRET: 'p'.repeat(64),
      // Each buyer signs up and checks out from an address of its own (X-Forwarded-For).
      TRUST_PROXY: 'true',
      DEMO_LIVE: 'false',
      SOCKETS_PER_ADDRESS: '1000',
    };
    // The first migrates; the second waits on the migration lock, then finds nothing to do.
    for (let i = 0; i < 2; i++) servers.push(await startServerProcess({ env, stdio: 'pipe' }));
    admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
    admin.on('error', () => {});
  }, 90_000);

  afterAll(async () => {
    for (const client of sockets) client.socket.terminate();
    for (const server of servers) await server.stop();
    await admin?.end().catch(() => undefined);
    await postgres?.destroy();
  }, 60_000);

  it('stays up, answers 503 while the database is away, and loses nothing', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const db = admin as pg.Pool;
    const pgServer = postgres as PrivatePostgres;
    const start = performance.now();
    const at = () => Math.round(performance.now() - start);
    let nextIp = 1;
    const freshIp = () => `10.77.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

    // A seller with products and a room, buyers, two people who chat.
    const signUp = async (base: string) => {
      const account = newAccount();
      const ip = freshIp();
      const answer = await call(base, 'POST', '/api/auth/signup', { body: account, ip });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return { ...account, ip, cookie: cookieOf(answer) };
    };
    const seller = await signUp(a.url);
    const categoryId = (
      await db.query(
        `insert into categories (name, slug) values ('Records', 'records')
         on conflict (slug) do update set name = excluded.name returning id`,
      )
    ).rows[0].id as number;
    const products: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const listed = await call(a.url, 'POST', '/api/products', {
        cookie: seller.cookie,
        body: {
          title: `Pressing ${i}`,
          description: 'Plays clean.',
          priceCents: 1500 + i,
          condition: 'used',
          categoryId,
          stock: STOCK,
          fulfillment: 'digital',
          shippingCents: 0,
        },
      });
      expect(listed.status, JSON.stringify(listed.body)).toBe(201);
      products.push(listed.body?.id as string);
    }
    const room = await call(a.url, 'POST', '/api/rooms', {
      cookie: seller.cookie,
      body: { title: 'Restart room' },
    });
    expect(room.status).toBe(201);
    const roomName = room.body?.roomName as string;
    const buyers = [];
    for (let i = 0; i < BUYERS; i++) buyers.push(await signUp(servers[i % 2]?.url ?? ''));

    // Health of both, every 200 ms, from start to end.
    /** Each answer of GET /api/health: when it was asked (`askedAt`) and answered (`at`). */
    const health: Array<{
      askedAt: number;
      at: number;
      server: number;
      status: number;
      body: Answer['body'];
    }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        await Promise.all(
          servers.map(async (server, i) => {
            const askedAt = at();
            const answer = await call(server.url, 'GET', '/api/health');
            health.push({ askedAt, at: at(), server: i, status: answer.status, body: answer.body });
          }),
        );
        await sleep(200);
      }
    })();

    // Buyers: check out on one instance, pay on the other, again and again.
    const steps: Step[] = [];
    let buying = true;
    const step = async (kind: Step['kind'], run: () => Promise<Answer>, clientSecret?: string) => {
      const startedAt = at();
      const answer = await run();
      const record: Step = {
        kind,
        status: answer.status,
        code: answer.body?.code,
        message: answer.body?.message,
        startedAt,
        endedAt: at(),
        ...(clientSecret ? { clientSecret } : {}),
      };
      steps.push(record);
      return { answer, record };
    };
    const shoppers = buyers.map(async (buyer, i) => {
      let round = 0;
      while (buying) {
        const product = products[(i + round) % PRODUCTS] ?? '';
        const [here, there] = round % 2 ? [a, b] : [b, a];
        round += 1;
        const opened = await step('checkout', () =>
          call(here.url, 'POST', `/api/checkout/${product}`, {
            cookie: buyer.cookie,
            body: {},
            ip: buyer.ip,
          }),
        );
        const clientSecret = opened.answer.body?.clientSecret;
        if (opened.answer.status === 200 && typeof clientSecret === 'string') {
          await step(
            'confirm',
            () =>
              call(there.url, 'POST', '/api/payments/local/confirm', {
                body: {
                  clientSecret,
                  card: {
                    number: TEST_CARDS.success,
                    expMonth: 12,
                    expYear: new Date().getFullYear() + 3,
                    cvc: '123',
                  },
                },
                ip: buyer.ip,
              }),
            clientSecret,
          );
        }
        await sleep(100);
      }
    });

    // Two people chat, one on each instance; each counts its own messages coming back.
    const chat = await Promise.all(
      [buyers[0], buyers[1]].map(async (talker, i) => {
        const server = servers[i] as ServerProcess;
        const client = await connectChat(server.url.replace(/^http/, 'ws'), roomName, talker?.cookie);
        sockets.push(client);
        await client.next('chat_history');
        const echoed = new Map<string, number>();
        const refused: Array<{ code: string; message: string }> = [];
        client.socket.on('message', (data) => {
          const message = JSON.parse(data.toString());
          if (message.type === 'chat_message' && message.username === talker?.handle) {
            echoed.set(message.message, (echoed.get(message.message) ?? 0) + 1);
          }
          if (message.type === 'error') refused.push({ code: message.code, message: message.message });
        });
        return { client, sent: [] as string[], echoed, refused };
      }),
    );
    let chatting = true;
    const talkers = chat.map(async (talker, i) => {
      let n = 0;
      while (chatting) {
        const text = `talker ${i} line ${n++}`;
        talker.sent.push(text);
        talker.client.send({ type: 'chat_message', message: text });
        await sleep(CHAT_EVERY_MS);
      }
    });

    const figures: Record<string, unknown> = {};
    /** Fails at once, with what it printed, when an instance has exited. */
    const bothAlive = () => {
      for (const [i, server] of servers.entries()) {
        if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
          const how = server.proc.signalCode ?? `code ${server.proc.exitCode}`;
          throw new Error(`instance ${i} exited (${how}):\n${server.output().slice(-4000)}`);
        }
      }
    };
    /** From the database being back to both healths ok and a checkout and a payment answered 200. */
    const recovery = async (label: string, backAt: number) => {
      const healthy = [false, false];
      await eventually(
        `${label}: both instances healthy`,
        () => {
          bothAlive();
          for (const entry of health) {
            if (entry.at >= backAt && entry.status === 200 && entry.body?.status === 'ok')
              healthy[entry.server] = true;
          }
          return healthy.every(Boolean);
        },
        within(RECOVERY_CEILING_MS),
      );
      const firstOk = (server: number) =>
        health.find((entry) => entry.server === server && entry.at >= backAt && entry.body?.status === 'ok')
          ?.at;
      await eventually(
        `${label}: a checkout and a payment succeed`,
        () =>
          (['checkout', 'confirm'] as const).every((kind) =>
            steps.some((s) => s.kind === kind && s.startedAt >= backAt && s.status === 200),
          ),
        within(RECOVERY_CEILING_MS),
      );
      const firstSuccess = (kind: Step['kind']) =>
        steps
          .filter((s) => s.kind === kind && s.startedAt >= backAt && s.status === 200)
          .map((s) => s.endedAt);
      figures[label] = {
        healthOkAfterMs: [0, 1].map((server) => (firstOk(server) ?? Number.NaN) - backAt),
        firstCheckoutOkAfterMs: Math.min(...firstSuccess('checkout')) - backAt,
        firstPaymentOkAfterMs: Math.min(...firstSuccess('confirm')) - backAt,
      };
    };

    await sleep(2000);
    expect(steps.filter((s) => s.status === 200).length).toBeGreaterThan(0);

    // 1. A fast shutdown and start again (pg_ctl restart -m fast): sessions are terminated.
    const fastAt = at();
    await pgServer.restart('fast');
    const fastBackAt = at();
    figures.fastRestartTookMs = fastBackAt - fastAt;
    await recovery('afterFastRestart', fastBackAt);
    await sleep(1500);

    // 2. An immediate stop (as a crash), away for 3 s, then started again.
    const stopAt = at();
    await pgServer.stop('immediate');
    const downAt = at();
    await sleep(OUTAGE_MS / 2);
    const signinDuringOutage = await step('signin', () =>
      call(b.url, 'POST', '/api/auth/signin', {
        body: { handle: seller.handle, password: seller.password },
        ip: seller.ip,
      }),
    );
    await sleep(Math.max(0, OUTAGE_MS - (at() - downAt)));
    const startAt = at();
    await pgServer.start();
    const backAt = at();
    const backAtClock = new Date();
    figures.outage = { stopTookMs: downAt - stopAt, awayMs: startAt - downAt, startTookMs: backAt - startAt };
    await recovery('afterImmediateStop', backAt);
    await sleep(1500);

    buying = false;
    chatting = false;
    await Promise.all([...shoppers, ...talkers]);

    // Every charged payment (the local provider's succeeded intents) has its order after the
    // database's return.
    const chargedWithoutOrder = async () =>
      Number(
        (
          await db.query(`
            select count(*) as n from local_payment_intents i
            left join orders o on o.payment_id::text = i.payment_id
            where i.status = 'succeeded' and i.payment_id is not null and o.id is null`)
        ).rows[0].n,
      );
    await eventually(
      'every charged payment has its order',
      async () => {
        return (await chargedWithoutOrder()) === 0;
      },
      within(Math.max(0, backAt + RECOVERY_CEILING_MS - at())),
    ).catch(async (error) => {
      const detail = await db.query(`
        select i.id, i.payment_id, i.updated_at as charged_at, p.status as payment_status,
          e.attempts, e.next_attempt_at, e.delivered_at, now() as now
        from local_payment_intents i
        left join orders o on o.payment_id::text = i.payment_id
        left join payments p on p.id::text = i.payment_id
        left join local_webhook_events e on e.payload like '%' || i.id || '%'
        where i.status = 'succeeded' and i.payment_id is not null and o.id is null`);
      console.error('Charged without an order:', detail.rows, figures);
      throw error;
    });
    // How long the slowest order took after its charge, and how long after the database's return
    // the last order of a charge made before it appeared (the webhook's retry after the outage).
    const lateness = (
      await db.query(
        `select extract(epoch from max(o.created_at - i.updated_at)) * 1000 as charge_to_order,
           extract(epoch from max(o.created_at) filter (where i.updated_at < $1) - $1) * 1000 as after_return
         from local_payment_intents i join orders o on o.payment_id::text = i.payment_id
         where i.status = 'succeeded'`,
        [backAtClock],
      )
    ).rows[0];
    figures.longestChargeToOrderMs = Math.round(Number(lateness.charge_to_order));
    figures.lastOrderAfterReturnMs = Math.round(Number(lateness.after_return));

    polling = false;
    await poller;

    // Sign-in works again on both instances.
    for (const server of servers) {
      const signin = await call(server.url, 'POST', '/api/auth/signin', {
        body: { handle: seller.handle, password: seller.password },
        ip: seller.ip,
      });
      expect(signin.status, JSON.stringify(signin.body)).toBe(200);
    }

    // Stock + orders = initial, per product; one order per payment; every paid checkout's order.
    const stock = await db.query(
      `select p.id, p.stock, count(o.id) as orders from products p
       left join orders o on o.product_id = p.id and o.status in ('paid', 'shipped', 'delivered')
       where p.id = any($1) group by p.id, p.stock`,
      [products],
    );
    for (const row of stock.rows) expect(row.stock + Number(row.orders), `product ${row.id}`).toBe(STOCK);
    const perPayment = await db.query(
      'select payment_id, count(*) as n from orders group by payment_id having count(*) > 1',
    );
    expect(perPayment.rows).toEqual([]);
    const succeededWithoutOrder = await db.query(`
      select p.id from payments p left join orders o on o.payment_id = p.id
      where p.kind = 'checkout' and p.status = 'succeeded' and o.id is null`);
    expect(succeededWithoutOrder.rows).toEqual([]);
    const confirmedOk = steps
      .filter((s) => s.kind === 'confirm' && s.status === 200)
      .map((s) => s.clientSecret);
    const ordersOfConfirmed = await db.query(
      `select count(*) as n from payments p join orders o on o.payment_id = p.id where p.client_secret = any($1)`,
      [confirmedOk],
    );
    expect(Number(ordersOfConfirmed.rows[0].n)).toBe(confirmedOk.length);

    // Chat: each message came back once or was refused with a reason; none accepted and then lost
    // (one accepted just before the outage is saved from the chat journal once the database is
    // back: the writer retries at most 5 s apart).
    for (const talker of chat) {
      expect([...talker.echoed.values()].every((n) => n === 1)).toBe(true);
      expect(talker.echoed.size + talker.refused.length).toBe(talker.sent.length);
      for (const refusal of talker.refused) expect(refusal.code).toBe('UNAVAILABLE');
    }
    const accepted = chat.flatMap((talker) => talker.sent.filter((text) => talker.echoed.has(text)));
    const unsaved = async () => {
      const rows = await db.query(`select message from chat_messages where kind = 'user'`);
      const stored = new Set(rows.rows.map((row) => row.message));
      return accepted.filter((text) => !stored.has(text));
    };
    await eventually(
      'every accepted chat message saved',
      async () => (await unsaved()).length === 0,
      within(RECOVERY_CEILING_MS),
    ).catch(async (error) => {
      console.error('Accepted, not saved:', await unsaved());
      throw error;
    });

    // While the database was away: health said so (503 not_ready, database down) on both.
    for (const server of [0, 1]) {
      const away = health.filter(
        (entry) => entry.server === server && entry.askedAt > downAt && entry.at < startAt,
      );
      expect(away.length).toBeGreaterThan(0);
      for (const entry of away) {
        expect(entry.status).toBe(503);
        expect(entry.body).toMatchObject({ status: 'not_ready', database: 'down', down: ['database'] });
      }
    }
    expect(signinDuringOutage.record.status).toBe(503);

    const byStatus: Record<string, number> = {};
    for (const s of steps) {
      const key = `${s.kind} ${s.status}${s.code ? ` ${s.code}` : ''}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
    }
    figures.answers = byStatus;
    figures.chat = chat.map((talker) => ({
      sent: talker.sent.length,
      accepted: talker.echoed.size,
      refused: talker.refused.length,
    }));
    figures.orders = stock.rows.reduce((sum, row) => sum + Number(row.orders), 0);
    console.info('PostgreSQL restart figures:', JSON.stringify(figures, null, 2));

    // Every answer was a success or a clean refusal: no 500, no hang, no dropped connection.
    // Besides 503 while the database was away, two 409s may follow a payment the outage cut short:
    // its card was charged and its order waits for the webhook (the buyer's next checkout of the
    // product hands back the same payment: already complete), or its hold was written but its
    // session not attached (still being set up, until a checkout takes it over 10 s on).
    const clean = (s: Step) =>
      s.status === 200 ||
      (s.status === 503 && s.code === 'SERVICE_UNAVAILABLE') ||
      (s.status === 409 && s.kind === 'confirm' && s.message === 'This payment is already complete.') ||
      (s.status === 409 &&
        s.kind === 'checkout' &&
        s.message?.startsWith('Your payment is still being set up'));
    const unclean = steps.filter((s) => !clean(s));
    if (unclean.length > 0) {
      const errors = servers.flatMap((server) =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50')),
      );
      console.error('Logged errors:', errors.join('\n'));
    }
    expect(unclean).toEqual([]);

    // Both processes are still up, and nothing went unhandled.
    for (const [i, server] of servers.entries()) {
      expect(server.proc.exitCode, server.output()).toBeNull();
      const final = await call(server.url, 'GET', '/api/health');
      expect(final.status).toBe(200);
      expect(final.body, `instance ${i}`).toMatchObject({ status: 'ok', unhandledRejections: 0 });
      expect(server.output()).not.toMatch(/Unhandled rejection|uncaught/i);
    }
  }, 240_000);
});
