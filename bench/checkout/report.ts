/** The checkout bench's checks and verdicts, its table and its JSON. */
import { availableParallelism, loadavg } from 'node:os';
import type { Burst, Setup, ViaApi } from '../checkout.ts';
import { percentile, type Row, report } from '../report.ts';
import { countBy, fixed, type Storage } from '../support.ts';
import type { DatabaseCounts } from './database.ts';
import { DEFAULTS, type Options } from './options.ts';

/** Figures, verdicts and the report; true when every check held. */
export function judgeAndReport(
  options: Options,
  storage: Storage,
  setup: Setup,
  burst: Burst,
  viaApi: ViaApi,
  db: DatabaseCounts,
  machine: { loadAverageBefore: number[]; exitCode: number | null },
): boolean {
  const { accounts, floorProduct, floorHealth, signUpSec, serverStartSec, warmupOrders } = setup;
  // The burst's outcomes, its pace, and the latency samples of each step.
  const { purchases, sessions, refused, confirmed, checkoutOther, confirmOther } = burst;
  const { t0, burstSec, serverCpuPct, lastCheckoutAt, lastConfirmAt, checkoutsPerSec, purchasesPerSec } =
    burst;
  const { checkoutMs, sessionMs, refusedMs, confirmMs, totalMs } = burst;
  const {
    sellerOrders,
    ordersSettledMs,
    again,
    againStatuses,
    againRefused,
    buyerListFailures,
    buyerOrdersViaApi,
    buyersWithTwoViaApi,
    stockViaApi,
  } = viaApi;
  const { loadAverageBefore, exitCode } = machine;
  const oversells = Math.max(0, db.orders - options.stock);
  const duplicates = db.orders - db.distinctPayments;
  const buyersWithTwo = db.orders - db.distinctBuyers;
  const otherStatuses = checkoutOther.length + confirmOther.length;
  const expectedSold = Math.min(options.stock, options.buyers);
  const checks = {
    oversell: oversells === 0,
    duplicates: duplicates === 0 && buyersWithTwo === 0 && buyersWithTwoViaApi === 0,
    errors: otherStatuses === 0 && buyerListFailures === 0,
    sold: db.orders === expectedSold && sessions.length === expectedSold && confirmed.length === expectedSold,
    stock: db.stock === options.stock - expectedSold && stockViaApi === db.stock,
    api: sellerOrders === db.orders && buyerOrdersViaApi === db.orders,
    charges: db.chargedIntents === db.orders,
    reconfirm: againRefused === again.length,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  const verdicts = [
    `${mark(checks.oversell)}: oversells ${oversells} (orders ${db.orders} of ${options.stock} units)`,
    `${mark(checks.duplicates)}: duplicates ${duplicates} (orders ${db.orders}, distinct payments ${db.distinctPayments}); ` +
      `buyers with two orders ${buyersWithTwo} (API: ${buyersWithTwoViaApi})`,
    `${mark(checks.errors)}: statuses other than 200/409 ${otherStatuses} ` +
      `(checkout ${JSON.stringify(countBy(checkoutOther.map((p) => p.checkout.status)))}, ` +
      `confirm ${JSON.stringify(countBy(confirmOther.map((p) => p.confirm?.status ?? 'none')))})`,
    `${mark(checks.sold)}: sold exactly ${expectedSold}: ${sessions.length} sessions → ${confirmed.length} paid → ${db.orders} orders`,
    `${mark(checks.stock)}: final stock ${db.stock} (API ${stockViaApi}), expected ${options.stock - expectedSold}`,
    `${mark(checks.api)}: the API agrees: seller's analytics ${sellerOrders} orders, buyers' lists ${buyerOrdersViaApi}`,
    `${mark(checks.charges)}: charged at the provider ${db.chargedIntents} = orders ${db.orders}`,
    `${mark(checks.reconfirm)}: a paid session confirmed again: ${againRefused} of ${again.length} refused with 409`,
  ];

  const floorP = (p: number) => percentile(floorProduct.samples, p);
  const rows: Row[] = [
    {
      metric: 'checkout sessions opened/s (200 + 409)',
      value: checkoutsPerSec,
      unit: '/s',
      baseline: floorProduct.perSec,
      note: `${purchases.length} in ${fixed((lastCheckoutAt - t0) / 1000, 2)} s; baseline GET product/s`,
    },
    {
      metric: 'purchases/s (paid, order created)',
      value: purchasesPerSec,
      unit: '/s',
      note: `${confirmed.length} in ${fixed((lastConfirmAt - t0) / 1000, 2)} s from the first request`,
    },
  ];
  /** p50, p95 and p99 of one step's samples against the GET-product floor; `note(p)` beside each. */
  const percentileRows = (metric: (p: number) => string, samples: number[], note: (p: number) => string) => {
    for (const p of [50, 95, 99])
      rows.push({
        metric: metric(p),
        value: percentile(samples, p),
        unit: 'ms',
        baseline: floorP(p),
        note: note(p),
      });
  };
  percentileRows(
    (p) => `open checkout p${p} (all ${checkoutMs.length})`,
    checkoutMs,
    (p) =>
      p === 99
        ? ''
        : `200s p${p} ${fixed(percentile(sessionMs, p))} ms, 409s p${p} ${fixed(percentile(refusedMs, p))} ms`,
  );
  percentileRows(
    (p) => `confirm payment p${p} (${confirmMs.length})`,
    confirmMs,
    (p) => (p === 50 ? 'includes handing the webhook over (the order is written before it answers)' : ''),
  );
  percentileRows(
    (p) => `whole purchase p${p} (${totalMs.length})`,
    totalMs,
    (p) => (p === 50 ? 'open checkout → payment answered' : ''),
  );
  rows.push(
    {
      metric: 'floor: GET /api/products/:id p50 / p95 / p99',
      value: floorP(50),
      unit: 'ms',
      note: `p95 ${fixed(floorP(95))}, p99 ${fixed(floorP(99))} ms; ${Math.round(floorProduct.perSec)}/s; statuses ${JSON.stringify(floorProduct.statuses)}`,
    },
    {
      metric: 'floor: GET /api/health p50 / p95 / p99',
      value: percentile(floorHealth.samples, 50),
      unit: 'ms',
      note: `p95 ${fixed(percentile(floorHealth.samples, 95))}, p99 ${fixed(percentile(floorHealth.samples, 99))} ms; ${Math.round(floorHealth.perSec)}/s; statuses ${JSON.stringify(floorHealth.statuses)}`,
    },
    {
      metric: 'checkout 200 (sessions)',
      value: sessions.length,
      unit: '',
      note: `expected ${expectedSold}`,
    },
    {
      metric: 'checkout 409 (sold out / all held)',
      value: refused.length,
      unit: '',
      note: JSON.stringify(countBy(refused.map((p) => p.checkout.code ?? '?'))),
    },
    {
      metric: 'other statuses and errors (checkout + confirm)',
      value: otherStatuses,
      unit: '',
      note: 'must be 0',
    },
    { metric: 'payments succeeded (confirm answered succeeded)', value: confirmed.length, unit: '' },
    {
      metric: 'orders created (database)',
      value: db.orders,
      unit: '',
      note: `must be ${expectedSold}; API: seller ${sellerOrders}, buyers' lists ${buyerOrdersViaApi}; all there ${fixed(ordersSettledMs, 0)} ms after the burst`,
    },
    { metric: 'final stock', value: db.stock, unit: '', note: `must be ${options.stock - expectedSold}` },
    { metric: 'oversells = max(0, orders − stock)', value: oversells, unit: '', note: 'must be 0' },
    {
      metric: 'duplicates = orders − distinct payments',
      value: duplicates,
      unit: '',
      note:
        `must be 0; buyers with two orders ${buyersWithTwo}; webhook outbox (warm-up included): ` +
        `${db.outbox?.events} events, ${db.outbox?.retried} retried, ${db.outbox?.undelivered} undelivered`,
    },
    {
      metric: 'second confirm of a paid session refused (409)',
      value: againRefused,
      unit: '',
      note: `of ${again.length}; statuses ${JSON.stringify(againStatuses)}`,
    },
    {
      metric: 'server CPU during the burst',
      value: serverCpuPct,
      unit: '%',
      note: `of one core, all threads${storage.databaseUrl ? '; the PostgreSQL server not included' : ' (PGlite worker included)'}`,
    },
  );

  const defaults =
    options.buyers === DEFAULTS.buyers &&
    options.stock === DEFAULTS.stock &&
    options.concurrency === options.buyers;
  const name = `checkout${storage.databaseUrl ? '-pg' : ''}${defaults ? '' : `-${options.buyers}b-${options.stock}u-c${options.concurrency}`}`;
  report(name, rows, {
    database: storage.label,
    options: {
      ...options,
      databaseUrl: options.databaseUrl ? new URL(options.databaseUrl).host : undefined,
    },
    machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter: loadavg() },
    latency:
      'client-side wall time per request (fetch, keep-alive, this process), exact percentiles over every request of the burst',
    setup: { serverStartSec, signUpSec, accounts: accounts.length, warmupPurchases: warmupOrders },
    burst: {
      durationSec: burstSec,
      checkoutStatuses: countBy(purchases.map((p) => p.checkout.status)),
      confirmStatuses: countBy(sessions.map((p) => `${p.confirm?.status}:${p.confirm?.outcome ?? ''}`)),
      errors: [...checkoutOther, ...confirmOther]
        .slice(0, 20)
        .map((p) => ({ checkout: p.checkout, confirm: p.confirm })),
      checkoutsPerSec,
      purchasesPerSec,
      openCheckout: {
        p50: percentile(checkoutMs, 50),
        p95: percentile(checkoutMs, 95),
        p99: percentile(checkoutMs, 99),
      },
      sessionsOnly: {
        p50: percentile(sessionMs, 50),
        p95: percentile(sessionMs, 95),
        p99: percentile(sessionMs, 99),
      },
      refusedOnly: {
        p50: percentile(refusedMs, 50),
        p95: percentile(refusedMs, 95),
        p99: percentile(refusedMs, 99),
      },
      confirm: {
        p50: percentile(confirmMs, 50),
        p95: percentile(confirmMs, 95),
        p99: percentile(confirmMs, 99),
      },
      purchase: {
        p50: percentile(totalMs, 50),
        p95: percentile(totalMs, 95),
        p99: percentile(totalMs, 99),
      },
      serverCpuPct,
      ordersSettledMs,
    },
    floor: {
      product: { ...floorProduct, samples: undefined, p50: floorP(50), p95: floorP(95), p99: floorP(99) },
      health: {
        ...floorHealth,
        samples: undefined,
        p50: percentile(floorHealth.samples, 50),
        p95: percentile(floorHealth.samples, 95),
        p99: percentile(floorHealth.samples, 99),
      },
    },
    reconfirm: { sent: again.length, refused409: againRefused, statuses: againStatuses },
    counts: db,
    api: { sellerOrders, buyerOrdersViaApi, buyersWithTwoViaApi, buyerListFailures, stockViaApi },
    serverExitCode: exitCode,
    checks,
    verdicts,
  });
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  return Object.values(checks).every((ok) => ok);
}
