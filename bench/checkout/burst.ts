/** The checkout bench's burst (measured), and what the API says after it. */
import { passesWithin } from '../../server/src/test/support.ts';
import { percentile } from '../report.ts';
import {
  type Account,
  card,
  countBy,
  cpuSeconds,
  fixed,
  runPool,
  sleep,
  warnFailedPurchases,
} from '../support.ts';
import type { Options } from './options.ts';
import { type Purchase, purchase } from './purchase.ts';
import type { Setup } from './setup.ts';
import { checkNotStopped } from './stop.ts';

/** The burst (measured): every buyer opens checkout on the product at once and pays. */
export async function runBurst(options: Options, { server, api, buyers, productId }: Setup) {
  const cpuBefore = cpuSeconds(server.pid);
  const t0 = performance.now();
  const purchases = await runPool(options.buyers, options.concurrency, (i) =>
    purchase(api, buyers[i] as Account, i, productId),
  );
  const burstEnd = performance.now();
  const burstSec = (burstEnd - t0) / 1000;
  const serverCpuPct = ((cpuSeconds(server.pid) - cpuBefore) / burstSec) * 100;
  checkNotStopped();

  const sessions = purchases.filter((p) => p.checkout.status === 200);
  const refused = purchases.filter((p) => p.checkout.status === 409);
  const checkoutOther = purchases.filter((p) => p.checkout.status !== 200 && p.checkout.status !== 409);
  const confirmed = sessions.filter((p) => p.totalMs !== undefined);
  const confirmOther = sessions.filter((p) => p.totalMs === undefined);
  const lastCheckoutAt = Math.max(...purchases.map((p) => p.checkout.endedAt));
  const lastConfirmAt = Math.max(t0, ...sessions.map((p) => p.confirm?.endedAt ?? t0));
  const checkoutsPerSec = purchases.length / ((lastCheckoutAt - t0) / 1000);
  const purchasesPerSec = confirmed.length / ((lastConfirmAt - t0) / 1000);
  const checkoutMs = purchases.map((p) => p.checkout.ms);
  const sessionMs = sessions.map((p) => p.checkout.ms);
  const refusedMs = refused.map((p) => p.checkout.ms);
  const confirmMs = sessions.flatMap((p) => (p.confirm ? [p.confirm.ms] : []));
  const totalMs = confirmed.map((p) => p.totalMs as number);
  console.log(
    `  burst: ${sessions.length} sessions, ${refused.length} × 409, ${checkoutOther.length} other; ` +
      `${confirmed.length} paid; ${fixed(burstSec, 2)} s; purchase p50 ${fixed(percentile(totalMs, 50))} ms, ` +
      `p95 ${fixed(percentile(totalMs, 95))} ms`,
  );

  warnFailedPurchases([...checkoutOther, ...confirmOther]);
  return {
    purchases,
    t0,
    burstEnd,
    burstSec,
    serverCpuPct,
    sessions,
    refused,
    checkoutOther,
    confirmed,
    confirmOther,
    lastCheckoutAt,
    lastConfirmAt,
    checkoutsPerSec,
    purchasesPerSec,
    checkoutMs,
    sessionMs,
    refusedMs,
    confirmMs,
    totalMs,
  };
}

/** After the burst, through the API: the orders, a second confirm of paid sessions, the stock. */
export async function checkThroughApi(
  options: Options,
  { api, seller, buyers, title, productId, warmupOrders }: Setup,
  { burstEnd, confirmed }: Burst,
) {
  // The webhook of one payment may be delivered by another request's delivery (or the 1-second
  // retry job), so the order can land a little after its confirm answered: wait for it (≤ 30 s).
  const expectedSellerOrders = warmupOrders + confirmed.length;
  await passesWithin(
    'every order',
    async () => {
      checkNotStopped();
      const analytics = await api.request('GET', '/api/analytics', { cookie: seller.cookie });
      return Number(analytics.body?.totalOrders) >= expectedSellerOrders;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  const ordersSettledMs = performance.now() - burstEnd;
  // Allow late extras (a duplicate) to show up too before counting.
  await sleep(1500);
  const analyticsAfter = await api.request('GET', '/api/analytics', { cookie: seller.cookie });
  const sellerOrders = Number(analyticsAfter.body?.totalOrders) - warmupOrders;

  // A paid session confirmed a second time must be refused (409), and must not charge again.
  const again = await runPool(Math.min(options.reconfirm, confirmed.length), options.concurrency, (i) => {
    const p = confirmed[i] as Purchase;
    return api.request('POST', '/api/payments/local/confirm', {
      cookie: buyers[p.buyer]?.cookie ?? '',
      body: { clientSecret: p.clientSecret, card: card() },
    });
  });
  const againStatuses = countBy(again.map((r) => r.status));
  const againRefused = again.filter((r) => r.status === 409).length;

  // Every buyer's own order list: how many of this product's orders each one holds.
  const perBuyer = await runPool(buyers.length, 50, async (i) => {
    const reply = await api.request('GET', '/api/orders', { cookie: (buyers[i] as Account).cookie });
    if (reply.status !== 200 || !Array.isArray(reply.body)) return -1;
    return (reply.body as Array<{ productTitle: string | null; role: string }>).filter(
      (o) => o.role === 'buyer' && o.productTitle === title,
    ).length;
  });
  const buyerListFailures = perBuyer.filter((n) => n < 0).length;
  const buyerOrdersViaApi = perBuyer.reduce((a, n) => a + Math.max(0, n), 0);
  const buyersWithTwoViaApi = perBuyer.filter((n) => n > 1).length;
  const productAfter = await api.request('GET', `/api/products/${productId}`);
  const stockViaApi = Number(productAfter.body?.stock);
  checkNotStopped();
  return {
    sellerOrders,
    ordersSettledMs,
    again,
    againStatuses,
    againRefused,
    buyerListFailures,
    buyerOrdersViaApi,
    buyersWithTwoViaApi,
    stockViaApi,
  };
}

export type Burst = Awaited<ReturnType<typeof runBurst>>;
export type ViaApi = Awaited<ReturnType<typeof checkThroughApi>>;
