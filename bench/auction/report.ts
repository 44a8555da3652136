/** The auction bench's figures, verdicts, table and JSON (bench/results/auction.json). */
import { availableParallelism } from 'node:os';
import { percentile, type Row, report } from '../report.ts';
import { countBy, fixed } from '../support.ts';
import { type BidResult, isRefused, isTaken } from './bidders.ts';
import type { Invariants } from './invariants.ts';
import { AIMS, type Options } from './options.ts';
import type { FanoutFigures } from './viewers.ts';

export interface RunFigures {
  results: BidResult[];
  app: FanoutFigures;
  floor: FanoutFigures | undefined;
  invariants: Invariants;
  /** GET /api/auctions/:id in the same burst shape (the view each bid reads after its commit). */
  viewBaselineMs: number[];
  serverCpuPct: number[];
  serverRunQueuePct: number[];
  /** The PostgreSQL backends of the run's database. */
  databaseCpuPct: number;
  clientCpuPct: number;
  auctionSec: number;
  loadAverage: { before: number[]; after: number[] };
  setup: { signUpSec: number; cardsSec: number; viewersJoinSec: number };
  ended: { frames: number; settleMs: number; onItsOwn: boolean; stuck?: Record<string, unknown> | undefined };
}

const stats = (values: number[]) => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : Number.NaN,
});

/** Prints the verdicts and the table, writes the JSON; true when every invariant held. */
export function judgeAndReport(options: Options, run: RunFigures): boolean {
  const { results, app, floor, invariants } = run;
  const taken = stats(results.filter(isTaken).map((r) => r.ms));
  const refused = stats(results.filter(isRefused).map((r) => r.ms));
  const finalAll = results.filter((r) => r.phase === 'final');
  const final = stats(finalAll.filter((r) => isTaken(r) || isRefused(r)).map((r) => r.ms));
  const view = stats(run.viewBaselineMs);
  const byStatus = countBy(results.map((r) => (r.code ? `${r.status} ${r.code}` : String(r.status))));
  const other = results.filter((r) => !isTaken(r) && !isRefused(r)).length;
  const tookOnA = stats(results.filter((r) => isTaken(r) && r.instance === 0).map((r) => r.ms));
  const tookOnB = stats(results.filter((r) => isTaken(r) && r.instance === 1).map((r) => r.ms));
  const finalSlip = stats(finalAll.map((r) => r.slipMs));
  // Each burst is sent at once: the time its last answer took is how long the burst queued.
  const waves = new Map<number, number>();
  for (const r of results) if (r.wave >= 0) waves.set(r.wave, Math.max(waves.get(r.wave) ?? 0, r.ms));
  const drain = stats([...waves.values()]);

  const checks: Record<string, boolean> = {
    ...invariants.checks,
    'the winner charged on its own (no nudge)': run.ended.onItsOwn,
    'every bid answered 201 or 409': other === 0,
    'every viewer got every auction_bid': app.lost === 0,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  console.log('\nauction: invariants');
  for (const [name, ok] of Object.entries(checks)) console.log(`  ${mark(ok)}: ${name}`);
  console.log(
    `  winner @${invariants.winnerHandle} at ${invariants.priceCents} cents (replay: @${invariants.replayedLeaderHandle} at ${invariants.replayedPriceCents}); ` +
      `${invariants.takenRequests} taken requests, ${invariants.recordedNotAnsweredTaken} recorded but not answered as taken; ` +
      `orders ${invariants.ordersForPayment}, charges ${invariants.chargesForPayment}; ` +
      `last bid ${fixed(invariants.lastBidBeforeEndMs)} ms before the end, ${invariants.bidsAtOrAfterEnd} at or after it`,
  );
  if (invariants.lateBids.length)
    console.log(`  bids at or after the end: ${JSON.stringify(invariants.lateBids)}`);
  console.log(`  answers: ${JSON.stringify(byStatus)}`);
  const aim = (value: number, limit: number) =>
    value <= limit ? `aim ≤ ${limit} ms: met` : `aim ≤ ${limit} ms: NOT met`;

  const rows: Row[] = [
    {
      metric: 'bids sent',
      value: results.length,
      unit: 'requests',
      note: `${taken.n} taken, ${refused.n} refused, ${other} other`,
    },
    {
      metric: 'taken bid (201/409 OUTBID) p50',
      value: taken.p50,
      unit: 'ms',
      baseline: view.p50,
      note: 'baseline: GET /api/auctions/:id, same bursts',
    },
    { metric: 'taken bid p95', value: taken.p95, unit: 'ms', baseline: view.p95 },
    {
      metric: 'taken bid p99',
      value: taken.p99,
      unit: 'ms',
      baseline: view.p99,
      note: aim(taken.p99, AIMS.bidP99Ms),
    },
    {
      metric: 'taken bid p99 on A / on B',
      value: tookOnA.p99,
      unit: 'ms',
      note: `B: ${fixed(tookOnB.p99)} ms`,
    },
    { metric: 'refused bid (TOO_LOW/AUCTION_ENDED) p50', value: refused.p50, unit: 'ms' },
    { metric: 'refused bid p95', value: refused.p95, unit: 'ms' },
    { metric: 'refused bid p99', value: refused.p99, unit: 'ms' },
    {
      metric: 'a burst answered in (p50)',
      value: drain.p50,
      unit: 'ms',
      note: `max ${fixed(drain.max, 0)} ms for ${options.burst} bids: ${fixed(drain.p50 / options.burst)} ms per bid, one at a time under the row lock`,
    },
    {
      metric: 'final-second bids answered p99',
      value: final.p99,
      unit: 'ms',
      note: `${finalAll.filter(isTaken).length} taken, ${finalAll.filter((r) => r.code === 'AUCTION_ENDED').length} AUCTION_ENDED of ${finalAll.length}; send slip p99 ${fixed(finalSlip.p99)} ms`,
    },
    {
      metric: 'bid rows taken in the final second',
      value: invariants.bidRowsInFinalSecond,
      unit: 'rows',
      note: `last ${fixed(invariants.lastBidBeforeEndMs)} ms before endsAt`,
    },
    {
      metric: 'bid → every viewer p50',
      value: app.p50,
      unit: 'ms',
      ...(floor ? { baseline: floor.p50 } : {}),
      note: 'serverNow of auction_bid → receipt; baseline: bare ws floor',
    },
    {
      metric: 'bid → every viewer p95',
      value: app.p95,
      unit: 'ms',
      ...(floor ? { baseline: floor.p95 } : {}),
      note: aim(app.p95, AIMS.viewerP95Ms),
    },
    {
      metric: 'bid → every viewer p99',
      value: app.p99,
      unit: 'ms',
      ...(floor ? { baseline: floor.p99 } : {}),
    },
    {
      metric: 'bid → last viewer of a message p95',
      value: app.lastViewerP95,
      unit: 'ms',
      ...(floor ? { baseline: floor.lastViewerP95 } : {}),
    },
    {
      metric: 'leading bid sent → viewer p95',
      value: app.sentToViewerP95,
      unit: 'ms',
      note: 'request sent → each viewer has its version',
    },
    {
      metric: 'auction_bid messages × viewers',
      value: app.delivered,
      unit: 'deliveries',
      ...(floor ? { baseline: floor.delivered } : {}),
      note: `${app.messages} messages × ${options.viewers}; lost ${app.lost}, duplicates ${app.duplicates}`,
    },
    {
      metric: 'server CPU (A + B)',
      value: run.serverCpuPct.reduce((a, b) => a + b, 0),
      unit: '%',
      note: `PostgreSQL backends ${fixed(run.databaseCpuPct, 0)}%; A ${fixed(run.serverCpuPct[0] ?? 0, 0)}%, B ${fixed(run.serverCpuPct[1] ?? 0, 0)}%; waiting for a CPU ${run.serverRunQueuePct.map((p) => `${fixed(p, 0)}%`).join(' + ')}; clients ${fixed(run.clientCpuPct, 0)}%`,
    },
    {
      metric: 'invariants held',
      value: Object.values(checks).filter(Boolean).length,
      unit: `of ${Object.keys(checks).length}`,
    },
  ];
  report('auction', rows, {
    options: { ...options, databaseUrl: undefined, redisUrl: undefined },
    cpus: availableParallelism(),
    loadAverage: run.loadAverage,
    aims: AIMS,
    auctionSec: run.auctionSec,
    setup: run.setup,
    answers: byStatus,
    burstAnswered: drain,
    databaseCpuPct: run.databaseCpuPct,
    serverCpuPct: run.serverCpuPct,
    serverRunQueuePct: run.serverRunQueuePct,
    clientCpuPct: run.clientCpuPct,
    bidLatency: {
      taken,
      refused,
      final,
      takenOnA: tookOnA,
      takenOnB: tookOnB,
      finalSendSlip: finalSlip,
      viewBaseline: view,
    },
    fanout: { app, floor },
    invariants,
    checks,
    ended: run.ended,
  });
  return Object.values(checks).every(Boolean);
}
