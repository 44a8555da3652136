/** The shop bench's figures: distributions, and the stock events matched to the purchases. */
import { fixed } from '../support.ts';
import type { DatabaseCounts } from './database.ts';
import type { Options } from './options.ts';
import type { Purchase } from './purchase.ts';
import type { Watch } from './watch.ts';

export interface Dist {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  min: number;
}

export function dist(samples: number[] | Float64Array): Dist {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) =>
    sorted.length ? (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number) : Number.NaN;
  return {
    n: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    min: sorted.length ? (sorted[0] as number) : Number.NaN,
  };
}

export const ms = (d: Dist) => `${fixed(d.p50)} / ${fixed(d.p95)} / ${fixed(d.p99)} ms, max ${fixed(d.max)}`;

/** A wallMs time as ms after the window's start, to 0.1 ms; null when absent. */
export const relativeTo = (windowStart: number) => (t: number | undefined) =>
  t === undefined ? null : Math.round((t - windowStart) * 10) / 10;

/**
 * Every `stock` event matched to the purchases by its stock value: the k-th order (by created_at,
 * ties by confirm time) leaves stock − k, and a viewer has seen it once it received a value ≤ that.
 */
export function matchStockEvents(
  options: Options,
  w: Watch,
  purchases: Purchase[],
  db: DatabaseCounts,
  { clockOffset, windowStart, instances }: { clockOffset: number; windowStart: number; instances: number },
) {
  const instanceOf = (i: number) => i % instances;
  const bySecret = new Map(purchases.filter((p) => p.clientSecret).map((p) => [p.clientSecret, p]));
  const ordered = db.orders
    .map((o) => ({ ...o, purchase: bySecret.get(o.client_secret ?? '') }))
    .sort(
      (a, b) =>
        a.created_ms - b.created_ms || (a.purchase?.confirmedAt ?? 0) - (b.purchase?.confirmedAt ?? 0),
    );
  const toConfirm: number[] = [];
  const toOrder: number[] = [];
  const toPay: number[] = [];
  /** Per purchase: its last viewer, from the confirm's answer and from the order. */
  const lastViewer = ordered.map(() => ({
    confirm: Number.NEGATIVE_INFINITY,
    order: Number.NEGATIVE_INFINITY,
  }));
  const toConfirmByInstance: number[][] = Array.from({ length: instances }, () => []);
  const toLine: number[] = [];
  let lostStock = 0;
  let lostLines = 0;
  let beforeAnswer = 0;
  const prefix = new Float64Array(w.levels);
  for (let v = 0; v < options.viewers; v++) {
    // prefix[s] = first time this viewer had a stock value ≤ s.
    let best = Number.POSITIVE_INFINITY;
    for (let s = 0; s < w.levels; s++) {
      const t = w.stockFirst[v * w.levels + s] as number;
      if (!Number.isNaN(t) && t < best) best = t;
      prefix[s] = best;
    }
    ordered.forEach((o, k) => {
      const left = options.stock - (k + 1);
      if (left < 0) return;
      const seen = prefix[left] as number;
      if (!Number.isFinite(seen)) {
        lostStock += 1;
        return;
      }
      const fromOrder = seen - (o.created_ms - clockOffset);
      toOrder.push(fromOrder);
      const last = lastViewer[k] as { confirm: number; order: number };
      last.order = Math.max(last.order, fromOrder);
      if (o.purchase?.confirmSentAt !== undefined) toPay.push(seen - o.purchase.confirmSentAt);
      const confirmedAt = o.purchase?.confirmedAt;
      if (confirmedAt !== undefined) {
        toConfirm.push(seen - confirmedAt);
        last.confirm = Math.max(last.confirm, seen - confirmedAt);
        toConfirmByInstance[instanceOf(v)]?.push(seen - confirmedAt);
        if (seen < confirmedAt) beforeAnswer += 1;
      }
      if (o.purchase) {
        const line = w.lineFirst[v * w.buyers + o.purchase.buyer] as number;
        if (Number.isNaN(line)) lostLines += 1;
        else if (confirmedAt !== undefined) toLine.push(line - confirmedAt);
      }
    });
  }
  const stockDelay = dist(toConfirm);
  const stockFromOrder = dist(toOrder);
  const stockFromPay = dist(toPay);
  const allViewersFromConfirm = dist(lastViewer.map((l) => l.confirm).filter(Number.isFinite));
  const allViewersFromOrder = dist(lastViewer.map((l) => l.order).filter(Number.isFinite));
  const lineDelay = dist(toLine);
  const byInstance = toConfirmByInstance.map((s) => dist(s).p95);
  // Which values were announced at all (by any viewer), against one per order.
  const announced = new Set<number>();
  for (let v = 0; v < options.viewers; v++)
    for (let s = 0; s < w.levels; s++)
      if (!Number.isNaN(w.stockFirst[v * w.levels + s] ?? 0)) announced.add(s);
  const expectedValues = ordered.map((_, k) => options.stock - (k + 1)).filter((s) => s >= 0);
  const neverAnnounced = expectedValues.filter((s) => !announced.has(s));
  // Per purchase: when its order was written against its confirm, and its webhook's delivery.
  const rel = relativeTo(windowStart);
  const timeline = ordered.map((o, k) => {
    const left = options.stock - (k + 1);
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (let v = 0; v < options.viewers; v++) {
      let seen = Number.POSITIVE_INFINITY;
      for (let s = 0; s <= left; s++) {
        const t = w.stockFirst[v * w.levels + s] as number;
        if (!Number.isNaN(t) && t < seen) seen = t;
      }
      first = Math.min(first, seen);
      last = Math.max(last, seen);
    }
    const webhook = db.webhooks.find((e) => e.payload.includes(o.payment_id));
    const p = o.purchase;
    return {
      buyer: p?.buyer ?? null,
      stockLeft: left,
      announcedExactly: announced.has(left),
      amountCents: o.amount_cents,
      started: rel(p?.startedAt),
      checkoutMs: p ? Math.round(p.checkout.ms) : null,
      confirmSent: rel(p?.confirmSentAt),
      confirmAnswered: rel(p?.confirmedAt),
      orderCreated: rel(o.created_ms - clockOffset),
      firstViewer: rel(Number.isFinite(first) ? first : undefined),
      lastViewer: rel(Number.isFinite(last) ? last : undefined),
      webhookAttempts: webhook?.attempts ?? null,
      webhookLagMs:
        webhook?.lag_ms === null || webhook?.lag_ms === undefined ? null : Math.round(webhook.lag_ms),
    };
  });
  const orderAfterAnswer = timeline.filter(
    (t) => t.orderCreated !== null && t.confirmAnswered !== null && t.orderCreated > t.confirmAnswered,
  );
  const orderAfterAnswerMax = Math.max(
    0,
    ...orderAfterAnswer.map((t) => (t.orderCreated ?? 0) - (t.confirmAnswered ?? 0)),
  );
  const webhookLag = dist(timeline.flatMap((t) => (t.webhookLagMs === null ? [] : [t.webhookLagMs])));
  const webhookRetried = timeline.filter((t) => (t.webhookAttempts ?? 0) > 1).length;
  return {
    stockDelay,
    stockFromOrder,
    stockFromPay,
    allViewersFromConfirm,
    allViewersFromOrder,
    lineDelay,
    byInstance,
    lostStock,
    lostLines,
    beforeAnswer,
    matched: toOrder.length,
    expectedValues,
    neverAnnounced,
    timeline,
    orderAfterAnswer,
    orderAfterAnswerMax,
    webhookLag,
    webhookRetried,
  };
}
export type Figures = ReturnType<typeof matchStockEvents>;
