import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargedWithoutOrder,
  listProduct,
  openCheckout,
  type Pair,
  payInBurstAndKill,
  payWithCard,
  request,
  type Shopper,
  signUpShopper,
  startPair,
  within,
} from '../../test/checkout-drill.ts';

/**
 * Issue 18: kill -9 of one of two instances in the middle of a burst of payments. Two real server
 * processes share a PostgreSQL database (and Redis when TEST_REDIS_URL is set); instance A is
 * killed while some buyers are charged and their order is not written yet. Instance B must take
 * the stranded payment events over: every charged payment gets its order, one order per payment,
 * stock + orders = the initial stock, and a buyer who comes back gets their order (200), not 409.
 * How soon (the issue asks 10 s; ~5-6 s here, the 5 s lease on a claimed event) is printed, and
 * measured over rounds by `npm run bench -- takeover`; this pass/fail test waits under a ceiling
 * that only a takeover that never comes exceeds, so a loaded machine does not fail it. Needs
 * PostgreSQL (two processes cannot share the embedded database).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn('instance-crash.test.ts needs TEST_DATABASE_URL (PostgreSQL): skipped');

const BUYERS = 16;
/** As many units as buyers: every buyer gets one, so none is refunded for want of stock. */
const STOCK = BUYERS;
/** A is killed once this many buyers are charged without their order. */
const KILL_AT_STRANDED = 3;
/** Only a takeover that never happens gets this far (the bound is 10 s: bench/takeover.ts). */
const ORDER_CEILING_MS = 45_000;

/** Redis for this run: a database index of its own on the shared server (no keys collide). */
function redisUrlForThisRun(): string | undefined {
  const shared = process.env.TEST_REDIS_URL;
  if (!shared) return undefined;
  const url = new URL(shared);
  if (url.pathname.length <= 1) url.pathname = `/${1 + (process.pid % 15)}`;
  return url.toString();
}

describe.skipIf(!serverUrl)('kill -9 of an instance in the middle of checkouts', () => {
  let pair: Pair;
  let seller: Shopper;
  let buyers: Shopper[] = [];
  let productId = '';
  const secrets: string[] = [];

  beforeAll(async () => {
    pair = await startPair({ serverUrl: serverUrl ?? '', redisUrl: redisUrlForThisRun(), label: 'crash' });
    seller = await signUpShopper(pair.a);
    productId = await listProduct(pair, pair.a, seller, STOCK);
    buyers = [];
    for (let i = 0; i < BUYERS; i++) buyers.push(await signUpShopper(pair.a));
    for (const buyer of buyers) {
      const opened = await openCheckout(pair.a, buyer, productId);
      if (opened.status !== 200) throw new Error(`checkout: ${opened.status} ${JSON.stringify(opened.body)}`);
      secrets.push(opened.body.clientSecret);
    }
  }, 120_000);

  afterAll(async () => {
    await pair?.close();
  }, 60_000);

  it('gives every charged payment its order from the other instance, once', async () => {
    const { replies, killedAt, stranded } = await payInBurstAndKill(
      pair.a,
      pair.pool,
      secrets,
      KILL_AT_STRANDED,
    );
    // The drill is real: some buyers were charged and had no order when A died.
    expect(stranded).toBeGreaterThan(0);

    // Buyers whose payment got no answer try again on B, as a browser would: open checkout again
    // (their hold is still theirs, or their order exists already), then pay again if asked to.
    const retries = buyers.map(async (buyer, i) => {
      if (replies[i]?.status === 200) return;
      const opened = await openCheckout(pair.b, buyer, productId);
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      if (opened.body.order) return;
      expect(opened.body.clientSecret).toBe(secrets[i]);
      const paid = await payWithCard(pair.b, opened.body.clientSecret);
      // Charged before the crash: "already complete", and its order is on its way.
      if (paid.status === 409) expect(paid.body.message).toBe('This payment is already complete.');
      else expect(paid.body).toEqual({ status: 'succeeded' });
    });
    await Promise.all(retries);

    const settledAfter = await within(ORDER_CEILING_MS - (performance.now() - killedAt), async () => {
      return (await chargedWithoutOrder(pair.pool)) === 0;
    });
    const takeoverMs = settledAfter === undefined ? undefined : performance.now() - killedAt;
    const unanswered = replies.filter((reply) => reply.status === 0).length;
    console.info(
      `kill -9 with ${stranded} charged without an order and ${unanswered} payments unanswered; ` +
        (takeoverMs === undefined
          ? `not all settled in ${ORDER_CEILING_MS / 1000} s`
          : `all settled ${takeoverMs.toFixed(0)} ms after it`),
    );
    expect(settledAfter, 'a charged payment never got its order after the crash').toBeDefined();

    // One order per payment and per buyer; stock + orders = the initial stock; nothing refunded.
    const orders = await pair.pool.query<{ payment_id: string; buyer_id: string }>(
      'select payment_id, buyer_id from orders where product_id = $1',
      [productId],
    );
    expect(new Set(orders.rows.map((row) => row.payment_id)).size).toBe(orders.rows.length);
    expect(new Set(orders.rows.map((row) => row.buyer_id)).size).toBe(orders.rows.length);
    expect(orders.rows).toHaveLength(BUYERS);
    const stock = await pair.pool.query<{ stock: number }>('select stock from products where id = $1', [
      productId,
    ]);
    expect((stock.rows[0]?.stock ?? -1) + orders.rows.length).toBe(STOCK);
    const charged = await pair.pool.query<{ n: number }>(
      `select count(*)::int as n from local_payment_intents i join payments p on p.id::text = i.payment_id
       where p.product_id = $1 and i.status = 'succeeded'`,
      [productId],
    );
    expect(charged.rows[0]?.n).toBe(BUYERS);
    const refunds = await pair.pool.query<{ n: number }>(
      `select count(*)::int as n from payments where product_id = $1 and status in ('refunding', 'refunded')`,
      [productId],
    );
    expect(refunds.rows[0]?.n).toBe(0);
  }, 90_000);

  it('answers a buyer who comes back with their order (200), not 409', async () => {
    for (const buyer of buyers) {
      const again = await openCheckout(pair.b, buyer, productId);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const purchases = await request(pair.b, 'GET', '/api/orders?role=buyer', { cookie: buyer.cookie });
      expect(purchases.body.orders).toHaveLength(1);
      expect(again.body.order).toMatchObject({
        id: purchases.body.orders[0].id,
        status: 'paid',
        role: 'buyer',
      });
    }
  }, 60_000);
});
