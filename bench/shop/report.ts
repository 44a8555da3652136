/** The shop bench's verdicts (the invariants and the target), its table and its JSON. */
import { availableParallelism, loadavg } from 'node:os';
import { type Row, report } from '../report.ts';
import { countBy, fixed, sum } from '../support.ts';
import type { After } from './after.ts';
import { dist, type Figures, relativeTo } from './figures.ts';
import { DEFAULTS, type Options, TARGET, VIEWER_CONCURRENCY } from './options.ts';
import type { ShopSteps } from './pin-offer.ts';
import type { PurchaseWindow, Rss } from './purchase-window.ts';
import type { Setup } from './setup.ts';
import type { ChatBaseline, Viewers } from './viewers.ts';
import type { Watch } from './watch.ts';

/** Everything a run measured, phase by phase (the phases are in bench/shop/). */
export interface ShopRun {
  setupLabel: string;
  loadAverageBefore: number[];
  setup: Setup;
  viewers: Viewers;
  chat: ChatBaseline;
  shop: ShopSteps;
  window: PurchaseWindow;
  rss: Rss;
  after: After;
  figures: Figures;
  watch: Watch;
}

/** Judges the run, prints and writes the report; true when every invariant held (the target aside). */
export function judgeAndReport(options: Options, run: ShopRun): boolean {
  const { setupLabel, loadAverageBefore, watch: w } = run;
  const { setup, viewers, chat, shop, window, rss, after, figures } = run;
  const { db } = after;
  const rel = relativeTo(window.windowStart);
  const stockDeliveries = w.stockFrames;
  const serverCpuMsPerPurchase = window.serverCpuMs / Math.max(1, db.orders.length);
  const serverCpuMsPer1kFrames = window.serverCpuMs / Math.max(1, window.framesInWindow / 1000);
  const stockSec = (w.lastStockAt - window.windowStart) / 1000;

  // --- invariants ---------------------------------------------------------------------------------------
  const orders = db.orders.length;
  const offerOrders = db.orders.filter((o) => shop.offerId !== '' && o.offer_id === shop.offerId).length;
  const offerQuantity = db.offer?.quantity ?? Number.NaN;
  const offerPriceOk = db.orders.every((o) =>
    o.offer_id ? o.amount_cents === DEFAULTS.offerPriceCents : o.amount_cents === DEFAULTS.priceCents,
  );
  const distinctPayments = new Set(db.orders.map((o) => o.payment_id)).size;
  const oversells = Math.max(0, orders - options.stock) + Math.max(0, -db.stock);
  const expectedSold = Math.min(options.stock, options.buyers);
  const checks = {
    oversell: oversells === 0 && db.stock >= 0 && orders === options.stock - db.stock,
    offer: offerOrders <= offerQuantity && offerPriceOk && w.offerRemainingNegative === 0,
    duplicates: distinctPayments === orders,
    sold: orders === window.confirmed.length && orders === expectedSold,
    statuses: window.checkoutOther.length === 0 && window.confirmOther.length === 0,
    lostStock: figures.lostStock === 0 && w.stockNegative === 0,
    api: after.stockViaApi === db.stock,
    target: figures.stockDelay.p95 <= TARGET.p95 && figures.stockFromOrder.p95 <= TARGET.p95,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  const verdicts = [
    `${mark(checks.target)}: stock seen by every viewer: p95 ≤ ${TARGET.p95} ms from the confirm's answer ` +
      `(${fixed(figures.stockDelay.p95)} ms; p99 ${fixed(figures.stockDelay.p99)}, max ${fixed(figures.stockDelay.max)}) and from the order ` +
      `(${fixed(figures.stockFromOrder.p95)} ms; p99 ${fixed(figures.stockFromOrder.p99)}, max ${fixed(figures.stockFromOrder.max)}); ` +
      `from pressing Pay p95 ${fixed(figures.stockFromPay.p95)} ms`,
    `${mark(checks.oversell)}: oversells ${oversells}: ${orders} orders of ${options.stock} units, final stock ${db.stock}, units sold ${options.stock - db.stock}`,
    `${mark(checks.offer)}: offer orders ${offerOrders} ≤ offer units ${offerQuantity}, every order at its price ${offerPriceOk}, offerRemaining never negative (min ${w.offerRemainingMin})`,
    `${mark(checks.duplicates)}: orders ${orders} = distinct payments ${distinctPayments}`,
    `${mark(checks.sold)}: sold ${expectedSold}: ${window.confirmed.length} confirms succeeded → ${orders} orders`,
    `${mark(checks.statuses)}: checkout ${JSON.stringify(window.statuses)}; other statuses ${window.checkoutOther.length}, unpaid sessions ${window.confirmOther.length}`,
    `${mark(checks.lostStock)}: lost stock events ${figures.lostStock} of ${figures.matched + figures.lostStock} (purchase × viewer); invalid stock values ${w.stockNegative}`,
    `${mark(checks.api)}: the API's stock ${after.stockViaApi} = the database's ${db.stock}`,
  ];
  const failed = Object.entries(checks).some(([key, ok]) => key !== 'target' && !ok);

  const label = setupLabel;
  const rows: Row[] = [
    {
      metric: `${label}: confirm answered → every viewer has the stock, p50`,
      value: figures.stockDelay.p50,
      unit: 'ms',
      baseline: chat.baseline.p50,
      note: `${figures.stockDelay.n.toLocaleString('en')} (purchase × viewer); ${fixed((figures.beforeAnswer / Math.max(1, figures.stockDelay.n)) * 100)}% before the confirm answered; baseline: chat send → receive`,
    },
    {
      metric: `${label}: confirm answered → viewer, p95`,
      value: figures.stockDelay.p95,
      unit: 'ms',
      baseline: chat.baseline.p95,
      note:
        `target ≤ ${TARGET.p95} ms` +
        (setup.instances > 1
          ? `; by instance ${figures.byInstance.map((p) => fixed(p)).join(' / ')} ms`
          : ''),
    },
    {
      metric: `${label}: confirm answered → viewer, p99`,
      value: figures.stockDelay.p99,
      unit: 'ms',
      baseline: chat.baseline.p99,
    },
    {
      metric: `${label}: confirm answered → viewer, max`,
      value: figures.stockDelay.max,
      unit: 'ms',
      baseline: chat.baseline.max,
    },
    {
      metric: `${label}: order created → viewer, p50 / p95 / p99`,
      value: figures.stockFromOrder.p50,
      unit: 'ms',
      note: `p95 ${fixed(figures.stockFromOrder.p95)}, p99 ${fixed(figures.stockFromOrder.p99)}, max ${fixed(figures.stockFromOrder.max)} ms; orders.created_at (the webhook transaction's start), the server's clock; target p95 ≤ ${TARGET.p95} ms`,
    },
    {
      metric: `${label}: confirm sent (Pay pressed) → viewer, p50 / p95 / p99`,
      value: figures.stockFromPay.p50,
      unit: 'ms',
      note: `p95 ${fixed(figures.stockFromPay.p95)}, p99 ${fixed(figures.stockFromPay.p99)}, max ${fixed(figures.stockFromPay.max)} ms; includes the payment and the order`,
    },
    {
      metric: `${label}: last viewer of each purchase, from the answer, p50 / p95`,
      value: figures.allViewersFromConfirm.p50,
      unit: 'ms',
      note: `p95 ${fixed(figures.allViewersFromConfirm.p95)}, max ${fixed(figures.allViewersFromConfirm.max)} ms; from the order p50 ${fixed(figures.allViewersFromOrder.p50)}, p95 ${fixed(figures.allViewersFromOrder.p95)}, max ${fixed(figures.allViewersFromOrder.max)} ms (${figures.allViewersFromOrder.n} purchases)`,
    },
    {
      metric: `${label}: orders written after their confirm answered`,
      value: figures.orderAfterAnswer.length,
      unit: '',
      note: `of ${figures.timeline.length}, up to ${fixed(figures.orderAfterAnswerMax, 0)} ms later; webhook created → delivered p50 ${fixed(figures.webhookLag.p50, 0)}, p95 ${fixed(figures.webhookLag.p95, 0)}, max ${fixed(figures.webhookLag.max, 0)} ms; ${figures.webhookRetried} delivered on a 2nd attempt`,
    },
    {
      metric: `${label}: confirm answered → purchase line, p50 / p95 / p99`,
      value: figures.lineDelay.p50,
      unit: 'ms',
      note: `p95 ${fixed(figures.lineDelay.p95)}, p99 ${fixed(figures.lineDelay.p99)}, max ${fixed(figures.lineDelay.max)} ms; lost ${figures.lostLines}; ${db.purchaseLines} lines stored`,
    },
    {
      metric: `${label}: baseline chat send → viewer, p50 / p95 / p99`,
      value: chat.baseline.p50,
      unit: 'ms',
      note: `p95 ${fixed(chat.baseline.p95)}, p99 ${fixed(chat.baseline.p99)}, max ${fixed(chat.baseline.max)} ms; ${options.baseline} messages × ${options.viewers} viewers, lost ${chat.baselineLost}`,
    },
    {
      metric: `${label}: pin request → viewer, p50 / p95`,
      value: shop.pinFig.p50,
      unit: 'ms',
      note: `p95 ${fixed(shop.pinFig.p95)}, max ${fixed(shop.pinFig.max)} ms; answered after ${fixed(shop.pinFig.answeredMs)} ms; missing ${shop.pinFig.missing}`,
    },
    {
      metric: `${label}: offer request → viewer, p50 / p95`,
      value: shop.offerFig.p50,
      unit: 'ms',
      note: `p95 ${fixed(shop.offerFig.p95)}, max ${fixed(shop.offerFig.max)} ms; answered after ${fixed(shop.offerFig.answeredMs)} ms; missing ${shop.offerFig.missing}`,
    },
    {
      metric: `${label}: stock deliveries/s`,
      value: stockDeliveries / Math.max(0.001, stockSec),
      unit: '/s',
      note: `${stockDeliveries.toLocaleString('en')} stock frames in ${fixed(stockSec, 2)} s; all frames in the window ${Math.round(window.framesInWindow / window.windowSec).toLocaleString('en')}/s`,
    },
    {
      metric: `${label}: lost stock events`,
      value: figures.lostStock,
      unit: '',
      note: 'purchase × viewer pairs never covered; must be 0',
    },
    {
      metric: `${label}: stock values never announced`,
      value: figures.neverAnnounced.length,
      unit: '',
      note: `of ${figures.expectedValues.length} (${figures.neverAnnounced.slice(0, 8).join(', ')}); repeats ${w.stockRepeats}, stock going back up ${w.stockBackwards} events at ${w.viewersBackwards.reduce((a, b) => a + b, 0)} viewers`,
    },
    {
      metric: `${label}: orders`,
      value: orders,
      unit: '',
      note: `must be ${expectedSold} (≤ ${options.stock} units); confirms succeeded ${window.confirmed.length}; offer orders ${offerOrders} of ${offerQuantity}`,
    },
    {
      metric: `${label}: final stock`,
      value: db.stock,
      unit: '',
      note: `API ${after.stockViaApi}; must be ${options.stock - expectedSold}`,
    },
    { metric: `${label}: oversells`, value: oversells, unit: '', note: 'must be 0' },
    {
      metric: `${label}: server CPU in the window`,
      value: sum(window.serverCpuPct),
      unit: '%',
      note: `${setup.instances > 1 ? `A ${fixed(window.serverCpuPct[0] ?? 0, 0)}% + B ${fixed(window.serverCpuPct[1] ?? 0, 0)}%; ` : ''}of one core over ${fixed(window.windowSec)} s; clients ${fixed(window.clientsCpuPct, 0)}%; waiting for a CPU: server ${window.serverWaitPct.map((x) => `${fixed(x, 0)}%`).join(' + ')}, clients ${fixed(window.clientsWaitPct, 0)}%`,
    },
    {
      metric: `${label}: server CPU time per purchase`,
      value: serverCpuMsPerPurchase,
      unit: 'ms',
      note: `CPU time, not wall time (the figure least skewed by other load): checkout, payment, order, announcements and fan-out; ${fixed(serverCpuMsPer1kFrames, 2)} ms per 1,000 frames delivered`,
    },
    {
      metric: `${label}: server RSS peak`,
      value: sum(rss.peakMb),
      unit: 'MB',
      note: `before the viewers joined ${rss.idleMb.map((m) => fixed(m, 0)).join(' + ')} MB`,
    },
    {
      metric: `${label}: connect ${options.viewers} viewers`,
      value: viewers.connectSec,
      unit: 's',
      note: `to chat_history, ${VIEWER_CONCURRENCY} at a time; quiet after ${fixed(viewers.settleSec)} s more`,
    },
  ];

  const loadAverageAfter = loadavg();
  const defaults =
    options.viewers === DEFAULTS.viewers &&
    options.buyers === DEFAULTS.buyers &&
    options.stock === DEFAULTS.stock &&
    options.windowSec === DEFAULTS.windowSec;
  const name = `shop${options.redisUrl ? '-redis' : options.databaseUrl ? '-pg' : ''}${defaults ? '' : `-${options.viewers}v-${options.buyers}b-${options.stock}u`}`;
  report(name, rows, {
    setup: setupLabel,
    options: {
      ...options,
      databaseUrl: options.databaseUrl ? new URL(options.databaseUrl).host : undefined,
      redisUrl: options.redisUrl ? new URL(options.redisUrl).host : undefined,
    },
    machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter },
    target: TARGET,
    latency:
      'stock: first receive (wallMs in this process) of a stock value ≤ what the purchase left − the time its confirm answered (and − orders.created_at); every (purchase × viewer) pair',
    cpu: 'server CPU from /proc/<pid>/stat over the purchase window (first checkout → every viewer has the final stock), % of one core, all threads; Redis and PostgreSQL not included',
    setupFigures: {
      serverStartSec: setup.serverStartSec,
      signUpSec: setup.signUpSec,
      accounts: setup.accounts.length,
      warmupOrders: setup.warmupOrders,
      connectSec: viewers.connectSec,
      settleSec: viewers.settleSec,
    },
    stockDelay: figures.stockDelay,
    stockFromOrder: figures.stockFromOrder,
    stockFromPay: figures.stockFromPay,
    lastViewerPerPurchase: {
      fromConfirm: figures.allViewersFromConfirm,
      fromOrder: figures.allViewersFromOrder,
    },
    stockDelayP95ByInstance: figures.byInstance,
    purchaseLine: { ...figures.lineDelay, lost: figures.lostLines },
    baseline: { ...chat.baseline, lost: chat.baselineLost },
    pin: shop.pinFig,
    offer: shop.offerFig,
    events: {
      stockFrames: w.stockFrames,
      stockRepeats: w.stockRepeats,
      stockBackwards: w.stockBackwards,
      backwardsExamples: w.backwardsExamples.map((e) => ({ ...e, at: rel(e.at) })),
      sequences: w.sequences.map((seq) => seq.map(([stock, at]) => [stock, rel(at)])),
      viewersBackwards: w.viewersBackwards.reduce((a, b) => a + b, 0),
      neverAnnounced: figures.neverAnnounced,
      offerRemainingMin: w.offerRemainingMin,
      lineFrames: w.lineFrames,
      lineUnmatched: w.lineUnmatched,
      framesInWindow: window.framesInWindow,
      badFrames: w.badFrames,
      errors: w.errors,
      sellerErrors: viewers.sellerErrors,
      unexpectedCloses: w.unexpectedCloses,
    },
    purchases: {
      checkoutStatuses: window.statuses,
      confirmed: window.confirmed.length,
      checkoutMs: dist(window.purchases.map((p) => p.checkout.ms)),
      confirmMs: dist(window.purchases.flatMap((p) => (p.confirm ? [p.confirm.ms] : []))),
      amounts: countBy(window.purchases.flatMap((p) => (p.confirmedAt ? [p.checkout.amountCents ?? 0] : []))),
      errors: [...window.checkoutOther, ...window.confirmOther].slice(0, 10),
    },
    counts: {
      orders,
      offerOrders,
      offerQuantity,
      distinctPayments,
      finalStock: db.stock,
      stockViaApi: after.stockViaApi,
      offerRemainingViaApi: after.offerRemainingViaApi,
      payments: db.payments,
      purchaseLines: db.purchaseLines,
    },
    serverCpuPct: window.serverCpuPct,
    serverCpuMsPerPurchase,
    serverCpuMsPer1kFrames,
    clientsCpuPct: window.clientsCpuPct,
    runQueueWait: {
      serverPct: window.serverWaitPct,
      clientsPct: window.clientsWaitPct,
      note: 'time runnable but waiting for a CPU (schedstat, all threads), % of the window',
    },
    ordersAfterConfirmAnswered: {
      count: figures.orderAfterAnswer.length,
      maxMs: figures.orderAfterAnswerMax,
    },
    webhookLag: figures.webhookLag,
    webhookRetried: figures.webhookRetried,
    timeline: figures.timeline,
    serverRssPeakMb: rss.peakMb,
    serverRssIdleMb: rss.idleMb,
    serverExitCodes: after.exitCodes,
    checks,
    verdicts,
  });
  console.log(
    `\nload average ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')} → ${loadAverageAfter.map((n) => n.toFixed(1)).join(' ')}`,
  );
  console.log(`verdicts:\n  ${verdicts.join('\n  ')}`);
  return !failed;
}
