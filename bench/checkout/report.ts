/** The checkout bench's checks and verdicts, its table and its JSON. */
import { availableParallelism, loadavg } from 'node:os';
import { percentile, type Row, report } from '../report.ts';
import { countBy, fixed, type Storage } from '../support.ts';
import type { Burst, ViaApi } from './burst.ts';
import type { judgeCancels } from './cancels-report.ts';
import type { DatabaseCounts } from './database.ts';
import { DEFAULTS, type Options } from './options.ts';
import { DROP_CHARGE, type Setup } from './setup.ts';

/** Figures, verdicts and the report; true when every check held. */
export function judgeAndReport(
  options: Options,
  storage: Storage,
  setup: Setup,
  burst: Burst,
  viaApi: ViaApi,
  db: DatabaseCounts,
  machine: {
    loadAverageBefore: number[];
    exitCode: number | null;
    /** The cancels-and-refunds run, judged; absent when it did not run (--cancel-buyers=0). */
    cancels?: ReturnType<typeof judgeCancels> | undefined;
  },
): boolean {
  const { loadAverageBefore, exitCode, cancels } = machine;
  const oversells = Math.max(0, db.orders - options.stock);
  const duplicates = db.orders - db.distinctPayments;
  const buyersWithTwo = db.orders - db.distinctBuyers;
  const otherStatuses = burst.checkoutOther.length + burst.confirmOther.length;
  const expectedSold = Math.min(options.stock, options.buyers);
  const wrongSessions = burst.sessions.filter(
    (p) =>
      p.session?.amountCents !== DROP_CHARGE.amountCents ||
      p.session?.shippingCents !== DROP_CHARGE.shippingCents,
  ).length;
  const checks = {
    oversell: oversells === 0,
    duplicates: duplicates === 0 && buyersWithTwo === 0 && viaApi.buyersWithTwoViaApi === 0,
    errors: otherStatuses === 0 && viaApi.buyerListFailures === 0,
    sold:
      db.orders === expectedSold &&
      burst.sessions.length === expectedSold &&
      burst.confirmed.length === expectedSold,
    stock: db.stock === options.stock - expectedSold && viaApi.stockViaApi === db.stock,
    api: viaApi.sellerOrders === db.orders && viaApi.buyerOrdersViaApi === db.orders,
    charges: db.chargedIntents === db.orders,
    amounts:
      db.wrongOrderAmounts === 0 &&
      db.ordersWithoutAddress === 0 &&
      db.wrongCharges === 0 &&
      db.chargedCents === db.orderCents &&
      wrongSessions === 0,
    reconfirm: viaApi.againRefused === viaApi.again.length,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  const verdicts = [
    `${mark(checks.oversell)}: oversells ${oversells} (orders ${db.orders} of ${options.stock} units)`,
    `${mark(checks.duplicates)}: duplicates ${duplicates} (orders ${db.orders}, distinct payments ${db.distinctPayments}); ` +
      `buyers with two orders ${buyersWithTwo} (API: ${viaApi.buyersWithTwoViaApi})`,
    `${mark(checks.errors)}: statuses other than 200/409 ${otherStatuses} ` +
      `(checkout ${JSON.stringify(countBy(burst.checkoutOther.map((p) => p.checkout.status)))}, ` +
      `confirm ${JSON.stringify(countBy(burst.confirmOther.map((p) => p.confirm?.status ?? 'none')))})`,
    `${mark(checks.sold)}: sold exactly ${expectedSold}: ${burst.sessions.length} sessions → ${burst.confirmed.length} paid → ${db.orders} orders`,
    `${mark(checks.stock)}: final stock ${db.stock} (API ${viaApi.stockViaApi}), expected ${options.stock - expectedSold}`,
    `${mark(checks.api)}: the API agrees: seller's analytics ${viaApi.sellerOrders} orders, buyers' lists ${viaApi.buyerOrdersViaApi}`,
    `${mark(checks.charges)}: charged at the provider ${db.chargedIntents} = orders ${db.orders}`,
    `${mark(checks.amounts)}: every session, order and charge is ${DROP_CHARGE.amountCents} = ${DROP_CHARGE.priceCents} + ${DROP_CHARGE.shippingCents} shipping, with an address ` +
      `(wrong sessions ${wrongSessions}, orders ${db.wrongOrderAmounts}, charges ${db.wrongCharges}, no address ${db.ordersWithoutAddress}; Σ charged ${db.chargedCents} = Σ orders ${db.orderCents})`,
    `${mark(checks.reconfirm)}: a paid session confirmed again: ${viaApi.againRefused} of ${viaApi.again.length} refused with 409`,
    ...(cancels?.verdicts ?? []),
  ];

  const floorP = (p: number) => percentile(setup.floorProduct.samples, p);
  const rows: Row[] = [
    {
      metric: 'checkout sessions opened/s (200 + 409)',
      value: burst.checkoutsPerSec,
      unit: '/s',
      baseline: setup.floorProduct.perSec,
      note: `${burst.purchases.length} in ${fixed((burst.lastCheckoutAt - burst.t0) / 1000, 2)} s; baseline GET product/s`,
    },
    {
      metric: 'purchases/s (paid, order created)',
      value: burst.purchasesPerSec,
      unit: '/s',
      note: `${burst.confirmed.length} in ${fixed((burst.lastConfirmAt - burst.t0) / 1000, 2)} s from the first request`,
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
    (p) => `open checkout p${p} (all ${burst.checkoutMs.length})`,
    burst.checkoutMs,
    (p) =>
      p === 99
        ? ''
        : `200s p${p} ${fixed(percentile(burst.sessionMs, p))} ms, 409s p${p} ${fixed(percentile(burst.refusedMs, p))} ms`,
  );
  percentileRows(
    (p) => `confirm payment p${p} (${burst.confirmMs.length})`,
    burst.confirmMs,
    (p) => (p === 50 ? 'includes handing the webhook over (the order is written before it answers)' : ''),
  );
  percentileRows(
    (p) => `whole purchase p${p} (${burst.totalMs.length})`,
    burst.totalMs,
    (p) => (p === 50 ? 'open checkout → payment answered' : ''),
  );
  rows.push(
    {
      metric: 'floor: GET /api/products/:id p50 / p95 / p99',
      value: floorP(50),
      unit: 'ms',
      note: `p95 ${fixed(floorP(95))}, p99 ${fixed(floorP(99))} ms; ${Math.round(setup.floorProduct.perSec)}/s; statuses ${JSON.stringify(setup.floorProduct.statuses)}`,
    },
    {
      metric: 'floor: GET /api/health p50 / p95 / p99',
      value: percentile(setup.floorHealth.samples, 50),
      unit: 'ms',
      note: `p95 ${fixed(percentile(setup.floorHealth.samples, 95))}, p99 ${fixed(percentile(setup.floorHealth.samples, 99))} ms; ${Math.round(setup.floorHealth.perSec)}/s; statuses ${JSON.stringify(setup.floorHealth.statuses)}`,
    },
    {
      metric: 'checkout 200 (sessions)',
      value: burst.sessions.length,
      unit: '',
      note: `expected ${expectedSold}`,
    },
    {
      metric: 'checkout 409 (sold out / all held)',
      value: burst.refused.length,
      unit: '',
      note: JSON.stringify(countBy(burst.refused.map((p) => p.checkout.code ?? '?'))),
    },
    {
      metric: 'other statuses and errors (checkout + confirm)',
      value: otherStatuses,
      unit: '',
      note: 'must be 0',
    },
    { metric: 'payments succeeded (confirm answered succeeded)', value: burst.confirmed.length, unit: '' },
    {
      metric: 'orders created (database)',
      value: db.orders,
      unit: '',
      note: `must be ${expectedSold}; API: seller ${viaApi.sellerOrders}, buyers' lists ${viaApi.buyerOrdersViaApi}; all there ${fixed(viaApi.ordersSettledMs, 0)} ms after the burst`,
    },
    {
      metric: 'charged per order (price + shipping)',
      value: DROP_CHARGE.amountCents,
      unit: '¢',
      note: `${DROP_CHARGE.priceCents} + ${DROP_CHARGE.shippingCents} shipping; Σ charged ${db.chargedCents} = Σ orders ${db.orderCents}; wrong ${db.wrongOrderAmounts + db.wrongCharges + wrongSessions}, without an address ${db.ordersWithoutAddress}`,
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
      value: viaApi.againRefused,
      unit: '',
      note: `of ${viaApi.again.length}; statuses ${JSON.stringify(viaApi.againStatuses)}`,
    },
    {
      metric: 'server CPU during the burst',
      value: burst.serverCpuPct,
      unit: '%',
      note: `of one core, all threads${storage.databaseUrl ? '; the PostgreSQL server not included' : ' (PGlite worker included)'}`,
    },
  );

  const defaults =
    options.buyers === DEFAULTS.buyers &&
    options.stock === DEFAULTS.stock &&
    options.concurrency === options.buyers;
  const name = `checkout${storage.databaseUrl ? '-pg' : ''}${defaults ? '' : `-${options.buyers}b-${options.stock}u-c${options.concurrency}`}`;
  const sections: Parameters<typeof report>[3] = cancels
    ? { 'cancels and refunds': { rows: cancels.rows, meta: cancels.json } }
    : {};
  report(
    name,
    rows,
    {
      database: storage.label,
      options: {
        ...options,
        databaseUrl: options.databaseUrl ? new URL(options.databaseUrl).host : undefined,
      },
      machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter: loadavg() },
      latency:
        'client-side wall time per request (fetch, keep-alive, this process), exact percentiles over every request of the burst',
      setup: {
        serverStartSec: setup.serverStartSec,
        signUpSec: setup.signUpSec,
        accounts: setup.accounts.length,
        warmupPurchases: setup.warmupOrders,
      },
      burst: {
        durationSec: burst.burstSec,
        checkoutStatuses: countBy(burst.purchases.map((p) => p.checkout.status)),
        confirmStatuses: countBy(
          burst.sessions.map((p) => `${p.confirm?.status}:${p.confirm?.outcome ?? ''}`),
        ),
        errors: [...burst.checkoutOther, ...burst.confirmOther]
          .slice(0, 20)
          .map((p) => ({ checkout: p.checkout, confirm: p.confirm })),
        checkoutsPerSec: burst.checkoutsPerSec,
        purchasesPerSec: burst.purchasesPerSec,
        openCheckout: {
          p50: percentile(burst.checkoutMs, 50),
          p95: percentile(burst.checkoutMs, 95),
          p99: percentile(burst.checkoutMs, 99),
        },
        sessionsOnly: {
          p50: percentile(burst.sessionMs, 50),
          p95: percentile(burst.sessionMs, 95),
          p99: percentile(burst.sessionMs, 99),
        },
        refusedOnly: {
          p50: percentile(burst.refusedMs, 50),
          p95: percentile(burst.refusedMs, 95),
          p99: percentile(burst.refusedMs, 99),
        },
        confirm: {
          p50: percentile(burst.confirmMs, 50),
          p95: percentile(burst.confirmMs, 95),
          p99: percentile(burst.confirmMs, 99),
        },
        purchase: {
          p50: percentile(burst.totalMs, 50),
          p95: percentile(burst.totalMs, 95),
          p99: percentile(burst.totalMs, 99),
        },
        serverCpuPct: burst.serverCpuPct,
        ordersSettledMs: viaApi.ordersSettledMs,
      },
      floor: {
        product: {
          ...setup.floorProduct,
          samples: undefined,
          p50: floorP(50),
          p95: floorP(95),
          p99: floorP(99),
        },
        health: {
          ...setup.floorHealth,
          samples: undefined,
          p50: percentile(setup.floorHealth.samples, 50),
          p95: percentile(setup.floorHealth.samples, 95),
          p99: percentile(setup.floorHealth.samples, 99),
        },
      },
      reconfirm: {
        sent: viaApi.again.length,
        refused409: viaApi.againRefused,
        statuses: viaApi.againStatuses,
      },
      counts: db,
      api: {
        sellerOrders: viaApi.sellerOrders,
        buyerOrdersViaApi: viaApi.buyerOrdersViaApi,
        buyersWithTwoViaApi: viaApi.buyersWithTwoViaApi,
        buyerListFailures: viaApi.buyerListFailures,
        stockViaApi: viaApi.stockViaApi,
      },
      serverExitCode: exitCode,
      checks,
      verdicts,
    },
    sections,
  );
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  return Object.values(checks).every((ok) => ok) && Object.values(cancels?.checks ?? {}).every((ok) => ok);
}
