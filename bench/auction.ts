/**
 * Live auctions under load (issue 28, ADR 0022: one truth per auction in PostgreSQL).
 *
 * Two real server processes (server/src/main.ts) on one fresh PostgreSQL database with Redis
 * between them (startPair, as server/src/modules/auctions/auction-instances.test.ts runs them), all
 * on 127.0.0.1. 500 bidders (half signed up on each instance, each with a saved card) bid on one
 * auction of a digital product, each on its own instance: bursts of 100 at once every 2 s, each
 * bid a maximum (a few increments over the next bid) or a one-tap bid at the next bid the room
 * shows (minNextBidCents); then 200 bids spread over the auction's last second, scheduled off
 * endsAt − serverNow. The auction runs 30 s in sudden death (its end does not move), so it ends by
 * itself on time. Meanwhile 2,000 viewers watch the room over WebSocket (/ws?room=), half on each
 * instance.
 *
 * Measured: each bid's latency (request sent → answer), for the bids the auction took (201
 * leading, 409 OUTBID) and, apart, the refused ones (409 TOO_LOW, AUCTION_ENDED), aim p99 ≤ 100 ms,
 * against GET /api/auctions/:id in the same bursts (the view a bid reads after its commit); and
 * bid → every viewer: from the auction_bid message's serverNow (the server's clock once the bid was
 * committed) to each viewer getting that version, aim p95 ≤ 200 ms, against a floor in the same
 * run: the chat bench's bare `ws` server (bench/chat/server.ts, relay mode), two of them, the same
 * viewers, the same messages at the same moments (bench/auction/floor.ts).
 *
 * Then, once the winner is charged, the invariants from the database (bench/auction/invariants.ts):
 * one winner, one order and one charge for the auction's payment; the final price and winner are
 * what applyBid gives from auction_bid_requests in version order; every bid answered as taken is
 * there (by clientBidId); no auction_bids row created at or after the auction's final ends_at.
 *
 * Setup, not measured: sign-ups through the real route (argon2) with TRUST_PROXY, 10 accounts per
 * X-Forwarded-For address from a fresh 10.<octet>.x.y range per run (sign-up allows 20 per
 * address an hour, and with Redis the count outlives the run); cards saved 16 at a time.
 *
 *   npm run bench -- auction [--bidders=500] [--viewers=2000] [--duration=30] [--burst=100]
 *     [--burst-every=2000] [--final=200] [--concurrency=16] [--database-url=postgres://…]
 *     [--redis-url=redis://…] [--max-seconds=900] [--no-floor]
 *
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test: a fresh database, dropped at
 * the end) and TEST_REDIS_URL (default redis://127.0.0.1:6379). Without them the run is skipped
 * and says so. Stops by itself after --max-seconds (exit code 3).
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Pair } from '../server/src/test/support.ts';
import { type BidResult, learn, type Market, runBidding } from './auction/bidders.ts';
import { runFloor } from './auction/floor.ts';
import { readInvariants } from './auction/invariants.ts';
import { parseOptions } from './auction/options.ts';
import { judgeAndReport } from './auction/report.ts';
import { waitForSettlement } from './auction/settle.ts';
import { databaseCpu, type Setup, setUp, startAuction } from './auction/setup.ts';
import { allDelivered, closeViewers, fanoutFigures, joinViewers } from './auction/viewers.ts';
import { cpuSeconds, fixed, runBench, runQueueWaitSeconds, sleep, startHardCap, waitFor } from './support.ts';

const stopAll = new AbortController();

/** GET /api/auctions/:id in bursts of `burst` at once, alternating instances: the view's own latency. */
async function viewBaseline(
  setup: Setup,
  auctionId: string,
  burst: number,
  bursts: number,
): Promise<number[]> {
  const ms: number[] = [];
  for (let b = 0; b < bursts; b++) {
    const replies = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        setup.apis[i % 2]?.request('GET', `/api/auctions/${auctionId}`),
      ),
    );
    for (const reply of replies) if (reply?.status === 200) ms.push(reply.ms);
    await sleep(200);
  }
  return ms;
}

async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const loadBefore = loadavg();
  console.log(
    `auction: ${options.bidders} bidders, ${options.viewers} viewers, two instances on PostgreSQL + Redis, ` +
      `${options.durationSec} s sudden death, bursts of ${options.burst} every ${options.burstEveryMs} ms, ` +
      `${options.finalBids} in the last second; ${availableParallelism()} CPUs, load ${loadBefore.map((n) => n.toFixed(1)).join(' ')}`,
  );
  if ((loadBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');

  let pair: Pair | undefined;
  const clearHardCap = startHardCap('auction', options.maxSeconds, stopAll, () => ({
    servers: pair ? [pair.a, pair.b].map((s) => ({ ...s, base: s.url })) : [],
    storage: undefined,
  }));
  let audience: Awaited<ReturnType<typeof joinViewers>> | undefined;
  try {
    let setup: Setup;
    try {
      setup = await setUp(options, stopAll.signal, (p) => {
        pair = p;
      });
    } catch (error) {
      if (pair) throw error;
      // No PostgreSQL or Redis here: say so, as the chat bench does.
      console.warn(`auction: skipped: ${error instanceof Error ? error.message : String(error)}`);
      return true;
    }
    const { pair: p, room } = setup;

    const t0 = performance.now();
    const urls = [p.a, p.b].map((s) => `${s.url.replace(/^http/, 'ws')}/ws?room=${encodeURIComponent(room)}`);
    audience = await joinViewers(urls, options.viewers);
    const viewersJoinSec = (performance.now() - t0) / 1000;
    console.log(`  ${options.viewers} viewers joined in ${fixed(viewersJoinSec)} s`);
    await sleep(2000); // the viewer counts of the joins die down

    const market: Market = { minNext: 0, version: 0 };
    audience.onNewVersion = (auction) =>
      learn(market, { minNextBidCents: auction.minNextBidCents, version: auction.version });
    const servers = [p.a, p.b];
    const cpuBefore = servers.map((s) => cpuSeconds(s.pid));
    const waitBefore = servers.map((s) => runQueueWaitSeconds(s.pid));
    const selfBefore = process.cpuUsage();
    const postgres = await databaseCpu(p);
    const { auction, endsAtLocal } = await startAuction(setup, options.durationSec);
    const auctionStarted = performance.now();
    learn(market, auction);
    console.log(`  auction ${auction.id} runs until ${auction.endsAt}`);

    const results: BidResult[] = await runBidding(
      setup.bidders,
      auction.id,
      endsAtLocal,
      options,
      market,
      stopAll.signal,
    );
    const auctionSec = (performance.now() - auctionStarted) / 1000;
    const serverCpuPct = servers.map(
      (s, i) => ((cpuSeconds(s.pid) - (cpuBefore[i] ?? 0)) / auctionSec) * 100,
    );
    const serverRunQueuePct = servers.map(
      (s, i) => ((runQueueWaitSeconds(s.pid) - (waitBefore[i] ?? 0)) / auctionSec) * 100,
    );
    const databaseCpuPct = ((await postgres.since()) / auctionSec) * 100;
    const self = process.cpuUsage(selfBefore);
    const clientCpuPct = ((self.user + self.system) / 1e6 / auctionSec) * 100;
    console.log(`  ${results.length} bids answered; waiting for the close and the charge`);

    const settlement = await waitForSettlement(setup, auction.id, 20_000);
    const done = settlement.auction;
    console.log(
      `  sold to @${done.result?.winner.handle} for ${done.result?.priceCents} cents ` +
        `(${fixed(settlement.settleMs, 0)} ms after the last answer${settlement.onItsOwn ? '' : ', after a nudge'})`,
    );
    const watching = audience;
    if (!(await waitFor(() => allDelivered(watching), 30_000, 50)))
      console.warn('  !! not every viewer got every auction_bid within 30 s');

    const sentAtByVersion = new Map<number, number>();
    for (const r of results) if (r.version !== undefined) sentAtByVersion.set(r.version, r.sentAt);
    const app = fanoutFigures(audience, sentAtByVersion);
    const invariants = await readInvariants(p, auction.id, setup.productId, results);
    const viewBaselineMs = await viewBaseline(setup, auction.id, options.burst, 10);
    const ended = { frames: audience.endedFrames, ...settlement, auction: undefined };
    const { timeline } = audience;
    await closeViewers(audience);
    audience = undefined;
    console.log(`  app fan-out: p95 ${fixed(app.p95)} ms over ${app.delivered} deliveries; the floor next`);
    const floor = options.noFloor ? undefined : await runFloor(timeline, app.messages, options.viewers);
    if (floor) console.log(`  floor fan-out: p95 ${fixed(floor.p95)} ms over ${floor.delivered} deliveries`);
    return judgeAndReport(options, {
      results,
      app,
      floor,
      invariants,
      viewBaselineMs,
      serverCpuPct,
      serverRunQueuePct,
      databaseCpuPct,
      clientCpuPct,
      auctionSec,
      loadAverage: { before: loadBefore, after: loadavg() },
      setup: { signUpSec: setup.signUpSec, cardsSec: setup.cardsSec, viewersJoinSec },
      ended,
    });
  } finally {
    clearHardCap();
    await closeViewers(audience);
    await pair?.close();
    console.log(`auction: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
}

await runBench('auction', stopAll, main);
