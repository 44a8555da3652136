/**
 * The auction bench's setup, not measured: two real server processes on one fresh PostgreSQL
 * database with Redis (startPair), the seller and the bidders signed up through the real route
 * (half on each instance), every bidder's card saved (setup, the local provider's confirm, save),
 * and a live room with one digital product in its lineup.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { listProduct, type Pair, type ServerProcess, startPair } from '../../server/src/test/support.ts';
import {
  type Account,
  type Client,
  card,
  client,
  cpuSeconds,
  fixed,
  runPool,
  signUpAll,
} from '../support.ts';
import type { Options } from './options.ts';

export interface Bidder extends Account {
  /** 0: instance A, 1: instance B. */
  instance: 0 | 1;
  api: Client;
}

export interface Setup {
  pair: Pair;
  apis: [Client, Client];
  seller: Account;
  bidders: Bidder[];
  room: string;
  productId: string;
  signUpSec: number;
  cardsSec: number;
}

/** Throws unless a Redis server answers PING at `url` within 2 s. */
export async function checkRedis(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const timer = setTimeout(() => fail(new Error('no answer within 2 s')), 2000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Error(`Redis at ${url} is not reachable: ${error.message}`));
    };
    socket.once('error', fail);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.end();
      if (String(data).startsWith('+PONG')) resolve();
      else fail(new Error(`answered ${String(data).trim()}`));
    });
  });
}

/** The bidder's card, saved the way settings saves it; throws when any step is refused. */
async function saveCard(bidder: Bidder): Promise<void> {
  const as = { cookie: bidder.cookie, forwardedFor: bidder.address };
  const setup = await bidder.api.request('POST', '/api/payment-methods/setup', as);
  if (setup.status !== 200 && setup.status !== 201)
    throw new Error(`card setup of ${bidder.handle}: ${setup.status} ${JSON.stringify(setup.body)}`);
  const confirmed = await bidder.api.request('POST', '/api/payments/local/setups/confirm', {
    body: { clientSecret: setup.body.clientSecret, card: card() },
    forwardedFor: bidder.address,
  });
  if (confirmed.body?.status !== 'succeeded')
    throw new Error(
      `card confirm of ${bidder.handle}: ${confirmed.status} ${JSON.stringify(confirmed.body)}`,
    );
  const saved = await bidder.api.request('POST', '/api/payment-methods', {
    ...as,
    body: { setupRef: setup.body.setupRef },
  });
  if (saved.status !== 201)
    throw new Error(`saving the card of ${bidder.handle}: ${saved.status} ${JSON.stringify(saved.body)}`);
}

async function post(api: Client, who: Account, path: string, body?: unknown) {
  const reply = await api.request('POST', path, { cookie: who.cookie, forwardedFor: who.address, body });
  if (reply.status !== 200 && reply.status !== 201)
    throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function setUp(
  options: Options,
  signal: AbortSignal,
  started: (pair: Pair) => void,
): Promise<Setup> {
  await checkRedis(options.redisUrl);
  const pair = await startPair({
    serverUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    label: 'auctionbench',
    stdio: 'inherit',
    // Every bench viewer connects from 127.0.0.1.
    env: { SOCKETS_PER_ADDRESS: '1000000', LOG_LEVEL: 'warn' },
  });
  started(pair);
  const servers: [ServerProcess, ServerProcess] = [pair.a, pair.b];
  const apis = servers.map((s) => client(s.url, signal)) as [Client, Client];

  // Sign-up allows 20 accounts per address an hour, and with Redis that count outlives the run:
  // each run signs up from a fresh pair of second octets (10 accounts per address, bench/support).
  const tag = randomBytes(3).toString('hex');
  const octet = 100 + ((randomBytes(1)[0] ?? 0) % 120);
  const half = Math.ceil(options.bidders / 2);
  const t0 = performance.now();
  const handles = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `ab_${tag}_${from + i}`);
  const [onA, onB] = await Promise.all([
    signUpAll(apis[0], [`as_${tag}`, ...handles(0, half)], {
      concurrency: options.concurrency,
      octet,
      businessName: 'Auction Bench',
      signal,
    }),
    signUpAll(apis[1], handles(half, options.bidders - half), {
      concurrency: options.concurrency,
      octet: octet + 1,
      signal,
    }),
  ]);
  const [seller, ...firstHalf] = onA;
  if (!seller) throw new Error('no seller');
  const bidders: Bidder[] = [
    ...firstHalf.map((a) => ({ ...a, instance: 0 as const, api: apis[0] })),
    ...onB.map((a) => ({ ...a, instance: 1 as const, api: apis[1] })),
  ];
  const signUpSec = (performance.now() - t0) / 1000;
  console.log(`  ${bidders.length + 1} accounts signed up in ${fixed(signUpSec)} s`);

  const t1 = performance.now();
  await runPool(bidders.length, options.concurrency, (i) => saveCard(bidders[i] as Bidder));
  const cardsSec = (performance.now() - t1) / 1000;
  console.log(`  ${bidders.length} cards saved in ${fixed(cardsSec)} s`);

  const room = (await post(apis[0], seller, '/api/rooms', { title: 'Auction bench' })).roomName as string;
  await post(apis[0], seller, `/api/streams/${room}/start`);
  const productId = await listProduct(pair, pair.a, seller, 1);
  await post(apis[0], seller, `/api/streams/${room}/lineup`, { productId });
  return { pair, apis, seller, bidders, room, productId, signUpSec, cardsSec };
}

/** Starts the auction on A (sudden death: its end does not move); answers it and the local clock's end. */
export async function startAuction(setup: Setup, durationSec: number) {
  const sent = performance.now();
  const auction = await post(setup.apis[0], setup.seller, `/api/streams/${setup.room}/auctions`, {
    productId: setup.productId,
    startingBidCents: 1000,
    durationSec,
    suddenDeath: true,
  });
  const answered = performance.now();
  // The server's "now" is taken between sending and answering: half the round trip ago.
  const endsAtLocal =
    (sent + answered) / 2 + (Date.parse(auction.endsAt as string) - Date.parse(auction.serverNow as string));
  return { auction, endsAtLocal };
}

/**
 * CPU seconds of the PostgreSQL backends serving the run's database (the servers' pools), read
 * from /proc: call at the start, and the answer's `since()` gives the seconds spent since (a
 * backend opened meanwhile counts whole).
 */
export async function databaseCpu(pair: Pair): Promise<{ since(): Promise<number> }> {
  const backends = async () =>
    (
      await pair.pool.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((r) => r.pid);
  const before = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
  return {
    async since() {
      let total = 0;
      for (const pid of new Set([...before.keys(), ...(await backends())])) {
        const spent = cpuSeconds(pid) - (before.get(pid) ?? 0);
        if (Number.isFinite(spent)) total += spent;
      }
      return total;
    },
  };
}
