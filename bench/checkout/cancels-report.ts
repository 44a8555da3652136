/** The cancels-and-refunds run's invariants, verdicts, its section of the table and of the JSON. */
import { percentile, type Row } from '../report.ts';
import { countBy, fixed, sum } from '../support.ts';
import type { BuyerRun, CancelsRun } from './cancels.ts';
import type { CancelsViaApi } from './cancels-api.ts';
import type { CancelsDatabase } from './cancels-database.ts';

const LIVE = new Set(['paid', 'shipped', 'delivered']);
const GIVEN_BACK = new Set(['cancelled', 'refunded']);

/** ADR 0016's fee: PLATFORM_FEE_PERCENT of the total, in hundredths of a percent, rounded half up. */
export function feeOf(grossCents: number, percent: number): number {
  return Math.floor((grossCents * Math.round(percent * 100) + 5000) / 10_000);
}

export interface CancelsFacts {
  initialStock: number;
  priceCents: number;
  shippingCents: number;
  feePercent: number;
  attemptsPerBuyer: number;
  /** The buyers arrive evenly over this long. */
  spreadMs: number;
  refunds: { waitedMs: number; polled: boolean; refundingLeft: number };
}

const p = (samples: number[], q: number) => percentile(samples, q);
const msOf = (runs: BuyerRun[], action: string, status?: number) =>
  runs.flatMap((r) =>
    r.moves
      .filter((m) => m.action === action && (status === undefined || m.status === status))
      .map((m) => m.ms),
  );

/** Every figure and check of the run; `checks` all true when every invariant held. */
export function judgeCancels(
  facts: CancelsFacts,
  run: CancelsRun,
  viaApi: CancelsViaApi,
  db: CancelsDatabase,
) {
  const { runs } = run;
  const total = facts.priceCents + facts.shippingCents;
  const fee = (cents: number) => feeOf(cents, facts.feePercent);

  // What the buyers and the seller saw.
  const attempts = runs.flatMap((r) => r.attempts);
  const bought = runs.filter((r) => r.bought);
  const unexpected = runs.flatMap((r) => r.unexpected.map((u) => `buyer ${r.buyer} (${r.plan}): ${u}`));
  const moves = runs.flatMap((r) => r.moves);
  const won = (action: string) => moves.filter((m) => m.action === action && m.status === 200).length;
  const refused = (action: string) => moves.filter((m) => m.action === action && m.status === 409).length;
  const races = runs.filter((r) => r.plan === 'cancel-during-refund' && r.orderId);
  const lastEnd = Math.max(run.t0, ...attempts.map((a) => a.confirm?.endedAt ?? a.checkout.endedAt));
  const windowSec = (lastEnd - run.t0) / 1000;
  const checkoutMs = attempts.map((a) => a.checkout.ms);
  const confirmMs = attempts.flatMap((a) => (a.confirm ? [a.confirm.ms] : []));
  const purchaseMs = bought.map((r) => r.bought?.totalMs as number);
  const sessionsWrong = attempts.filter(
    (a) => a.session && (a.session.amountCents !== total || a.session.shippingCents !== facts.shippingCents),
  ).length;

  // The database.
  const dbLive = db.orders.filter((o) => LIVE.has(o.status));
  const dbGivenBack = db.orders.filter((o) => GIVEN_BACK.has(o.status));
  const expectedById = new Map(bought.filter((r) => r.orderId).map((r) => [r.orderId as string, r.expected]));
  const unknownOrders = db.orders.filter((o) => !expectedById.has(o.id)).length;
  const statusMismatches = db.orders.filter((o) => {
    const expected = expectedById.get(o.id);
    return expected !== undefined && expected !== o.status;
  }).length;
  const payments = new Map(db.payments.map((row) => [row.id, row]));
  const paymentNotRefunded = dbGivenBack.filter((o) => {
    const pay = o.payment_id ? payments.get(o.payment_id) : undefined;
    return pay?.status !== 'refunded' || pay.intent_status !== 'refunded';
  }).length;
  const livePaymentWrong = dbLive.filter((o) => {
    const pay = o.payment_id ? payments.get(o.payment_id) : undefined;
    return pay?.status !== 'succeeded' || pay.intent_status !== 'succeeded';
  }).length;
  const refundingLeft = db.payments.filter((row) => row.status === 'refunding').length;
  const orderPayments = new Set(db.orders.map((o) => o.payment_id));
  // Money taken at the provider with no order to show for it, and not given back.
  const capturedWithoutOrder = db.payments.filter(
    (row) => !orderPayments.has(row.id) && row.intent_status === 'succeeded',
  ).length;
  const captured = db.payments.filter(
    (row) => row.intent_status === 'succeeded' || row.intent_status === 'refunded',
  );
  const capturedCents = sum(captured.map((row) => row.intent_cents ?? 0));
  const refundedCents = sum(
    db.payments.filter((row) => row.intent_status === 'refunded').map((row) => row.intent_cents ?? 0),
  );
  const wrongCharges = captured.filter(
    (row) => row.intent_cents !== total || row.amount_cents !== total,
  ).length;
  const wrongOrders = db.orders.filter(
    (o) => o.amount_cents !== total || o.shipping_cents !== facts.shippingCents || !o.has_address,
  ).length;
  const duplicates = db.orders.length - new Set(db.orders.map((o) => o.payment_id)).size;
  const buyersWithTwo = db.orders.length - new Set(db.orders.map((o) => o.buyer_id)).size;
  const oversells = Math.max(0, dbLive.length - facts.initialStock) + Math.max(0, -db.stock);

  // The ledger, order by order: sale and fee; for an order given back, refund and fee_refund too.
  const entriesOf = new Map<string, Map<string, number>>();
  let strayEntries = 0;
  let doubleEntries = 0;
  const orderIds = new Set(db.orders.map((o) => o.id));
  // Payouts (the local provider's daily transfer of what is available) belong to no order and are
  // not part of netCents; none is due within a run, as sales are held PAYOUT_HOLD_DAYS.
  const payouts = db.ledger.filter((e) => e.kind === 'payout');
  const orderEntries = db.ledger.filter((e) => e.kind !== 'payout');
  for (const e of orderEntries) {
    if (!e.order_id || !orderIds.has(e.order_id)) {
      strayEntries++;
      continue;
    }
    const kinds = entriesOf.get(e.order_id) ?? new Map<string, number>();
    if (kinds.has(e.kind)) doubleEntries++;
    kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + e.amount_cents);
    entriesOf.set(e.order_id, kinds);
  }
  const wrongLedgerOrders = db.orders.filter((o) => {
    const kinds = entriesOf.get(o.id) ?? new Map<string, number>();
    const f = fee(o.amount_cents);
    const back = GIVEN_BACK.has(o.status);
    return (
      kinds.get('sale') !== o.amount_cents ||
      (kinds.get('fee') ?? 0) !== -f ||
      (kinds.get('refund') ?? 0) !== (back ? -o.amount_cents : 0) ||
      (kinds.get('fee_refund') ?? 0) !== (back ? f : 0)
    );
  }).length;
  const ledgerDbCents = sum(orderEntries.map((e) => e.amount_cents));
  const ledgerApiCents = sum(
    viaApi.ledgerEntries.filter((e) => e.kind !== 'payout').map((e) => e.amountCents),
  );
  const balance = viaApi.balance ?? {
    grossCents: Number.NaN,
    feeCents: Number.NaN,
    netCents: Number.NaN,
    pendingCents: Number.NaN,
    availableCents: Number.NaN,
    paidOutCents: Number.NaN,
  };
  const liveCents = sum(dbLive.map((o) => o.amount_cents));
  const feesKeptExpected = sum(dbLive.map((o) => fee(o.amount_cents)));

  // The API.
  const apiLive = viaApi.sales.filter((s) => LIVE.has(s.status)).length;
  const dbStatus = new Map(db.orders.map((o) => [o.id, o.status]));
  // The seller's sales, page by page: each order of the database once, with its status.
  const apiIds = new Set(viaApi.sales.map((sale) => sale.id));
  const api = {
    missing: db.orders.filter((o) => !apiIds.has(o.id)).length,
    extra: viaApi.sales.filter((sale) => !dbStatus.has(sale.id)).length,
    twice: viaApi.sales.length - apiIds.size,
    otherStatus: viaApi.sales.filter((sale) => dbStatus.has(sale.id) && dbStatus.get(sale.id) !== sale.status)
      .length,
  };
  const apiDisagrees = api.missing + api.extra + api.twice + api.otherStatus;
  const apiBuyersWithTwo = viaApi.sales.length - new Set(viaApi.sales.map((s) => s.buyerHandle)).size;

  const checks = {
    errors: unexpected.length === 0 && viaApi.errors.length === 0,
    stock:
      db.stock + dbLive.length === facts.initialStock &&
      viaApi.stock + apiLive === facts.initialStock &&
      viaApi.stock === db.stock &&
      oversells === 0,
    duplicates: duplicates === 0 && buyersWithTwo === 0 && apiBuyersWithTwo === 0,
    moves:
      statusMismatches === 0 &&
      unknownOrders === 0 &&
      apiDisagrees === 0 &&
      dbGivenBack.length === won('cancel') + won('refund'),
    refunds:
      paymentNotRefunded === 0 && refundingLeft === 0 && livePaymentWrong === 0 && capturedWithoutOrder === 0,
    amounts: wrongOrders === 0 && wrongCharges === 0 && sessionsWrong === 0,
    ledgerPerOrder: wrongLedgerOrders === 0 && strayEntries === 0 && doubleEntries === 0,
    ledgerSums:
      ledgerDbCents === balance.netCents &&
      (!viaApi.ledgerComplete || ledgerApiCents === balance.netCents) &&
      balance.pendingCents === balance.netCents &&
      payouts.length === 0 &&
      balance.grossCents === liveCents &&
      balance.feeCents === feesKeptExpected,
    money: balance.netCents + balance.feeCents === capturedCents - refundedCents,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  const verdicts = [
    `${mark(checks.errors)}: cancels run: unexpected answers ${unexpected.length}${unexpected.length ? ` (first: ${unexpected[0]})` : ''}; API errors ${viaApi.errors.length}`,
    `${mark(checks.stock)}: cancels run: stock ${db.stock} + live orders ${dbLive.length} = ${db.stock + dbLive.length}, initial ${facts.initialStock} (API: ${viaApi.stock} + ${apiLive}); oversells ${oversells}`,
    `${mark(checks.duplicates)}: cancels run: orders ${db.orders.length}, distinct payments ${db.orders.length - duplicates}, buyers with two orders ${buyersWithTwo} (API ${apiBuyersWithTwo})`,
    `${mark(checks.moves)}: cancels run: order statuses as the moves answered (mismatches ${statusMismatches}, unknown orders ${unknownOrders}, sales listed by the API: missing ${api.missing}, extra ${api.extra}, twice ${api.twice}, other status ${api.otherStatus}); given back ${dbGivenBack.length} = cancels ${won('cancel')} + refunds ${won('refund')}`,
    `${mark(checks.refunds)}: cancels run: payments of cancelled/refunded orders not refunded ${paymentNotRefunded}, still refunding ${refundingLeft} (${facts.refunds.polled ? 'polled' : 'waited'} ${fixed(facts.refunds.waitedMs, 0)} ms); live orders' payments not succeeded ${livePaymentWrong}; captured without an order ${capturedWithoutOrder}`,
    `${mark(checks.amounts)}: cancels run: every order and charge is ${total} = ${facts.priceCents} + ${facts.shippingCents} shipping, with an address (wrong orders ${wrongOrders}, charges ${wrongCharges}, sessions ${sessionsWrong})`,
    `${mark(checks.ledgerPerOrder)}: cancels run: ledger per order (sale, fee ${facts.feePercent} %, refund, fee_refund): wrong ${wrongLedgerOrders}, stray ${strayEntries}, twice ${doubleEntries}`,
    `${mark(checks.ledgerSums)}: cancels run: Σ entries ${ledgerDbCents} (API ${viaApi.ledgerComplete ? ledgerApiCents : 'listing not read to its end'}) = netCents ${balance.netCents} = pending ${balance.pendingCents} (payouts ${payouts.length}); gross ${balance.grossCents} = Σ live ${liveCents}; fees kept ${balance.feeCents} = ${feesKeptExpected}`,
    `${mark(checks.money)}: cancels run: net ${balance.netCents} + fees kept ${balance.feeCents} = ${balance.netCents + balance.feeCents}; captured ${capturedCents} − refunded ${refundedCents} = ${capturedCents - refundedCents}`,
  ];

  const floor = run.floor.samples;
  const rows: Row[] = [
    {
      metric: 'checkouts opened/s (200 + 409, retries included)',
      value: attempts.length / windowSec,
      unit: '/s',
      note: `${attempts.length} in ${fixed(windowSec, 2)} s: bound by the arrivals (${runs.length} over ${fixed(facts.spreadMs / 1000)} s) and the 409 retries`,
    },
    { metric: 'purchases/s (paid, order created)', value: bought.length / windowSec, unit: '/s' },
    {
      metric: 'give-backs/s (cancels + refunds answered 200)',
      value: (won('cancel') + won('refund')) / windowSec,
      unit: '/s',
    },
  ];
  const percentiles = (name: string, samples: number[], note = '') => {
    for (const q of [50, 95])
      rows.push({
        metric: `${name} p${q} (${samples.length})`,
        value: p(samples, q),
        unit: 'ms',
        baseline: p(floor, q),
        note: q === 50 ? note : '',
      });
  };
  percentiles(
    'open checkout',
    checkoutMs,
    `200s p50 ${fixed(
      p(
        attempts.filter((a) => a.checkout.status === 200).map((a) => a.checkout.ms),
        50,
      ),
    )} ms`,
  );
  percentiles('confirm payment', confirmMs);
  percentiles('whole purchase', purchaseMs, 'open checkout → payment answered (the last attempt)');
  percentiles(
    'cancel (buyer)',
    msOf(runs, 'cancel'),
    `200s p50 ${fixed(p(msOf(runs, 'cancel', 200), 50))} ms, refund at the provider included`,
  );
  percentiles(
    'refund (seller)',
    msOf(runs, 'refund'),
    `200s p50 ${fixed(p(msOf(runs, 'refund', 200), 50))} ms`,
  );
  percentiles('ship (seller)', msOf(runs, 'ship'));
  rows.push(
    {
      metric: 'floor: GET /api/products/:id p50 / p95',
      value: p(floor, 50),
      unit: 'ms',
      note: `p95 ${fixed(p(floor, 95))} ms; ${runs.length} arriving over ${fixed(facts.spreadMs / 1000)} s as the buyers do; statuses ${JSON.stringify(run.floor.statuses)}`,
    },
    {
      metric: 'buyers / checkout attempts',
      value: runs.length,
      unit: '',
      note: `${attempts.length} attempts: ${JSON.stringify(countBy(attempts.map((a) => a.checkout.status)))}; gave up after ${facts.attemptsPerBuyer} × 409: ${runs.filter((r) => !r.bought && r.unexpected.length === 0).length}`,
    },
    { metric: 'orders (paid)', value: bought.length, unit: '', note: `database ${db.orders.length}` },
    {
      metric: 'cancels answered 200 / 409',
      value: won('cancel'),
      unit: '',
      note: `409: ${refused('cancel')} (after shipping, or lost the race); ${fixed((won('cancel') / Math.max(1, bought.length)) * 100)} % of orders`,
    },
    {
      metric: 'refunds answered 200 / 409',
      value: won('refund'),
      unit: '',
      note: `409: ${refused('refund')} (lost the race); ${fixed((won('refund') / Math.max(1, bought.length)) * 100)} % of orders; shipped first ${runs.filter((r) => r.plan === 'ship-then-refund' && r.expected === 'refunded').length}`,
    },
    {
      metric: 'cancel and refund at once: exactly one won',
      value: races.filter((r) => r.expected).length,
      unit: '',
      note: `of ${races.length}; cancel won ${races.filter((r) => r.expected === 'cancelled').length}, refund won ${races.filter((r) => r.expected === 'refunded').length}`,
    },
    {
      metric: 'stock now + live orders (must be initial)',
      value: db.stock + dbLive.length,
      unit: '',
      note: `initial ${facts.initialStock}; stock ${db.stock} (API ${viaApi.stock}), live ${dbLive.length} (API ${apiLive}), ${JSON.stringify(countBy(db.orders.map((o) => o.status)))}`,
    },
    { metric: 'oversells', value: oversells, unit: '', note: 'must be 0' },
    {
      metric: 'duplicates = orders − distinct payments',
      value: duplicates,
      unit: '',
      note: `must be 0; buyers with two orders ${buyersWithTwo}`,
    },
    {
      metric: 'payments refunded / still refunding',
      value: db.payments.filter((row) => row.status === 'refunded').length,
      unit: '',
      note: `refunding ${refundingLeft}; given-back orders ${dbGivenBack.length}; payments ${JSON.stringify(countBy(db.payments.map((row) => row.status)))}`,
    },
    {
      metric: 'ledger: Σ entries = netCents',
      value: ledgerDbCents,
      unit: '¢',
      note: `balance net ${balance.netCents}, gross ${balance.grossCents}, fees kept ${balance.feeCents} (${facts.feePercent} %), pending ${balance.pendingCents}; ${db.ledger.length} entries, payouts ${payouts.length}`,
    },
    {
      metric: 'money: net + fees kept = captured − refunded',
      value: balance.netCents + balance.feeCents,
      unit: '¢',
      note: `captured ${capturedCents} − refunded ${refundedCents} = ${capturedCents - refundedCents}`,
    },
    {
      metric: 'unexpected answers',
      value: unexpected.length + viaApi.errors.length,
      unit: '',
      note: 'must be 0',
    },
  );

  const json = {
    facts,
    durationSec: run.durationSec,
    windowSec,
    attempts: attempts.length,
    checkoutStatuses: countBy(attempts.map((a) => a.checkout.status)),
    plans: countBy(runs.map((r) => r.plan)),
    bought: bought.length,
    moves: countBy(moves.map((m) => `${m.action}:${m.status}`)),
    unexpected: [...unexpected.slice(0, 20), ...viaApi.errors],
    latency: {
      openCheckout: { p50: p(checkoutMs, 50), p95: p(checkoutMs, 95), p99: p(checkoutMs, 99) },
      confirm: { p50: p(confirmMs, 50), p95: p(confirmMs, 95) },
      purchase: { p50: p(purchaseMs, 50), p95: p(purchaseMs, 95) },
      cancel: { p50: p(msOf(runs, 'cancel'), 50), p95: p(msOf(runs, 'cancel'), 95) },
      refund: { p50: p(msOf(runs, 'refund'), 50), p95: p(msOf(runs, 'refund'), 95) },
      ship: { p50: p(msOf(runs, 'ship'), 50), p95: p(msOf(runs, 'ship'), 95) },
      orderLookup: {
        p50: p(
          bought.flatMap((r) => (r.orderLookupMs === undefined ? [] : [r.orderLookupMs])),
          50,
        ),
      },
    },
    floor: { ...run.floor, samples: undefined, p50: p(floor, 50), p95: p(floor, 95) },
    counts: {
      orders: db.orders.length,
      statuses: countBy(db.orders.map((o) => o.status)),
      stock: db.stock,
      stockViaApi: viaApi.stock,
      liveOrders: dbLive.length,
      liveOrdersViaApi: apiLive,
      salesViaApi: { listed: viaApi.sales.length, ...api },
      payments: countBy(db.payments.map((row) => row.status)),
      ledgerEntries: db.ledger.length,
      ledgerEntriesViaApi: viaApi.ledgerEntries.length,
      ledgerListingComplete: viaApi.ledgerComplete,
    },
    money: {
      balance,
      ledgerDbCents,
      ledgerApiCents,
      liveCents,
      feesKeptExpected,
      capturedCents,
      refundedCents,
    },
    checks,
    verdicts,
  };
  return { rows, checks, verdicts, json };
}
