import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { LOCAL_SIGNATURE_HEADER } from '../../platform/payments/local-signature.ts';
import { type Account, useCheckoutTestApp } from '../../test/checkout-test-app.ts';
import { eventually } from '../../test/eventually.ts';
import {
  listProduct,
  openCheckout,
  ordersOf,
  payWithCard,
  signUpMany,
  stockOf,
} from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';
import { releaseExpiredHolds } from './payment-jobs.ts';
import { WEBHOOK_PATH } from './routes.ts';
import {
  ACCOUNT_HOLDS_MESSAGE,
  ADDRESS_HOLDS_MESSAGE,
  ALL_RESERVED_MESSAGE,
  CHECKOUT_RESERVATION_SECONDS,
  MAX_HOLDS_PER_ACCOUNT,
  MAX_HOLDS_PER_ADDRESS,
  SOLD_OUT_MESSAGE,
} from './service.ts';

let t: TestApp;
let seller: Account;
let buyer: Account;
useCheckoutTestApp((state) => ({ t, seller, buyer } = state));

const local = () => t.app.payments as LocalProvider;

async function sessionFor(cookie: string, productId: string) {
  const response = await openCheckout(t.app, cookie, productId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { clientSecret: string; amountCents: number; reservedUntil: string };
}

const count = async (table: string) =>
  Number((await t.database.pool.query(`select count(*) as n from ${table}`)).rows[0].n);

describe('GET /api/payments/config', () => {
  it('names the local provider when Stripe is not configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/payments/config' });
    expect(response.json()).toEqual({ provider: 'local', sellersOnboard: false });
  });
});

describe('POST /api/checkout/:productId', () => {
  it('answers 401 to a signed-out visitor', async () => {
    const product = await listProduct(t, seller.cookie);
    const response = await openCheckout(t.app, undefined, product.id);
    expect(response.statusCode).toBe(401);
  });

  it('answers 400 for an id that is not a product id and 404 for a missing product', async () => {
    const malformed = await openCheckout(t.app, buyer.cookie, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toHaveProperty('productId');
    const missing = await openCheckout(t.app, buyer.cookie, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Product not found');
  });

  it('refuses a seller buying their own product with 400', async () => {
    const product = await listProduct(t, seller.cookie);
    const response = await openCheckout(t.app, seller.cookie, product.id);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('You cannot buy your own product.');
  });

  it('answers 409 for a sold-out product', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 0 });
    const response = await openCheckout(t.app, buyer.cookie, product.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(SOLD_OUT_MESSAGE);
  });

  it('charges the price stored on the server, whatever the client sends', async () => {
    const product = await listProduct(t, seller.cookie, { priceCents: 12_345 });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/${product.id}`,
      headers: { cookie: buyer.cookie },
      payload: { amountCents: 1, priceCents: 1 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().amountCents).toBe(12_345);
    const intent = await t.database.pool.query(
      'select amount_cents from local_payment_intents where client_secret = $1',
      [response.json().clientSecret],
    );
    expect(intent.rows[0].amount_cents).toBe(12_345);
  });

  it('gives a returning buyer the same session, and holds the last unit from other buyers', async () => {
    const product = await listProduct(t, seller.cookie);
    const first = await sessionFor(buyer.cookie, product.id);
    const again = await sessionFor(buyer.cookie, product.id);
    expect(again.clientSecret).toBe(first.clientSecret);
    expect(Date.parse(first.reservedUntil)).toBeGreaterThan(Date.now() + 5 * 60_000);
    const other = await signUp(t.app);
    const refused = await openCheckout(t.app, other.cookie, product.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ALL_RESERVED_MESSAGE);
  });
});

describe('paying with the local card form', () => {
  it('creates one order for buyer and seller, counts it in analytics and takes the unit', async () => {
    const product = await listProduct(t, seller.cookie, { priceCents: 4500, stock: 2 });
    const session = await sessionFor(buyer.cookie, product.id);
    const paid = await payWithCard(t.app, session.clientSecret);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ status: 'succeeded' });

    const bought = (await ordersOf(t.app, buyer.cookie)).filter((o) => o.role === 'buyer');
    expect(bought.some((o) => o.amountCents === 4500 && o.productTitle === 'Blue Note first pressing')).toBe(
      true,
    );
    const sold = await ordersOf(t.app, seller.cookie);
    expect(sold.filter((o) => o.role === 'seller').length).toBeGreaterThan(0);
    const analytics = await t.app.inject({
      method: 'GET',
      url: '/api/analytics',
      headers: { cookie: seller.cookie },
    });
    expect(analytics.json().totalRevenue).toBeGreaterThanOrEqual(4500);
    expect(await stockOf(t, product.id)).toBe(1);

    const stranger = await signUp(t.app);
    expect(await ordersOf(t.app, stranger.cookie)).toEqual([]);

    const twice = await payWithCard(t.app, session.clientSecret);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This payment is already complete.');
  });

  it('reports a declined card, creates nothing, and lets the buyer try again', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const declined = await payWithCard(t.app, session.clientSecret, TEST_CARDS.declined);
    expect(declined.json()).toEqual({ status: 'failed', message: 'Your card was declined.' });
    const poor = await payWithCard(t.app, session.clientSecret, TEST_CARDS.insufficientFunds);
    expect(poor.json()).toEqual({ status: 'failed', message: 'Your card has insufficient funds.' });
    expect(await stockOf(t, product.id)).toBe(1);
    const payment = await t.database.pool.query(
      `select status, last_error from payments where client_secret = $1`,
      [session.clientSecret],
    );
    expect(payment.rows[0]).toEqual({ status: 'pending', last_error: 'Your card has insufficient funds.' });

    const retried = await payWithCard(t.app, session.clientSecret, '4242 4242 4242 4242');
    expect(retried.json()).toEqual({ status: 'succeeded' });
    expect(await stockOf(t, product.id)).toBe(0);
  });

  it('asks for the extra confirmation step and completes or fails on the buyer’s answer', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const step = await payWithCard(t.app, session.clientSecret, TEST_CARDS.requiresAuthentication);
    expect(step.json()).toEqual({ status: 'requires_action' });
    const authenticate = (approve: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/local/authenticate',
        payload: { clientSecret: session.clientSecret, approve },
      });
    const failed = await authenticate(false);
    expect(failed.json().status).toBe('failed');
    expect(failed.json().message).toContain('unable to authenticate');
    expect((await authenticate(true)).statusCode).toBe(409);

    await payWithCard(t.app, session.clientSecret, TEST_CARDS.requiresAuthentication);
    expect((await authenticate(true)).json()).toEqual({ status: 'succeeded' });
    expect(await stockOf(t, product.id)).toBe(0);
  });

  it('answers bad card input with 400 and the field, and an unknown secret with 404', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/confirm',
      payload: { clientSecret: 'x', card: { number: '4242', expMonth: 13, expYear: 30, cvc: '1' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toContain('card.number');
    const noCard = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/confirm',
      payload: { clientSecret: 'x' },
    });
    expect(noCard.statusCode).toBe(400);
    const unknown = await payWithCard(t.app, 'pi_local_nope_secret_nope');
    expect(unknown.statusCode).toBe(404);
  });

  it('declines an expired card and a card number that fails the checksum', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const expired = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/confirm',
      payload: {
        clientSecret: session.clientSecret,
        card: { number: TEST_CARDS.success, expMonth: 1, expYear: 20, cvc: '123' },
      },
    });
    expect(expired.json()).toEqual({
      status: 'failed',
      message: "Your card's expiration date is in the past.",
    });
    const typo = await payWithCard(t.app, session.clientSecret, '4242424242424241');
    expect(typo.json()).toEqual({ status: 'failed', message: 'Your card number is incorrect.' });
  });
});

describe('the webhook endpoint', () => {
  const post = (payload: string, signature: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: {
        'content-type': 'application/json',
        ...(signature ? { [LOCAL_SIGNATURE_HEADER]: signature } : {}),
      },
      payload,
    });

  async function successEventFor(clientSecret: string) {
    const row = await t.database.pool.query(
      'select id, provider_ref, amount_cents from payments where client_secret = $1',
      [clientSecret],
    );
    const payment = row.rows[0];
    return JSON.stringify({
      id: `evt_test_${payment.id}`,
      createdAt: new Date().toISOString(),
      type: 'payment.succeeded',
      paymentId: payment.id,
      ref: payment.provider_ref,
      amountCents: payment.amount_cents,
    });
  }

  it('refuses a bad or missing signature with 400 and writes nothing', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const body = await successEventFor(session.clientSecret);
    const before = { events: await count('payment_events'), orders: await count('orders') };
    const signature = local().sign(body);
    const forged = await post(
      body,
      signature.replace(/v1=(.)/, (_, c) => `v1=${c === '0' ? '1' : '0'}`),
    );
    expect(forged.statusCode).toBe(400);
    const unsigned = await post(body, undefined);
    expect(unsigned.statusCode).toBe(400);
    const tampered = await post(body.replace('"amountCents":4500', '"amountCents":1'), local().sign(body));
    expect(tampered.statusCode).toBe(400);
    expect({ events: await count('payment_events'), orders: await count('orders') }).toEqual(before);
    expect(await stockOf(t, product.id)).toBe(1);
  });

  it('creates exactly one order from a replayed event and from concurrent duplicates', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 5 });
    const session = await sessionFor(buyer.cookie, product.id);
    const body = await successEventFor(session.clientSecret);
    const first = await post(body, local().sign(body));
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const replays = await Promise.all(Array.from({ length: 10 }, () => post(body, local().sign(body))));
    expect(replays.every((r) => r.statusCode === 200 && r.json().duplicate === true)).toBe(true);

    // The provider's own event for the same payment (another event id) changes nothing either.
    const real = await payWithCard(t.app, session.clientSecret);
    expect(real.json().status).toBe('succeeded');
    const orders = await t.database.pool.query('select count(*) as n from orders where product_id = $1', [
      product.id,
    ]);
    expect(Number(orders.rows[0].n)).toBe(1);
    expect(await stockOf(t, product.id)).toBe(4);
  });

  it('keeps a success when a failure event for the same payment arrives after it', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const success = await successEventFor(session.clientSecret);
    const { paymentId, ref } = JSON.parse(success);
    const failure = JSON.stringify({
      id: `evt_test_failed_${paymentId}`,
      createdAt: new Date(Date.now() - 5000).toISOString(),
      type: 'payment.failed',
      paymentId,
      ref,
      message: 'Your card was declined.',
    });
    expect((await post(success, local().sign(success))).statusCode).toBe(200);
    expect((await post(failure, local().sign(failure))).statusCode).toBe(200);
    const payment = await t.database.pool.query('select status from payments where id = $1', [paymentId]);
    expect(payment.rows[0].status).toBe('succeeded');
  });

  it('refunds a payment for a product deleted before the payment completed', async () => {
    const product = await listProduct(t, seller.cookie);
    const session = await sessionFor(buyer.cookie, product.id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/products/${product.id}`,
      headers: { cookie: seller.cookie },
    });
    expect(removed.statusCode).toBe(204);
    const paid = await payWithCard(t.app, session.clientSecret);
    expect(paid.json().status).toBe('succeeded');
    const payment = await t.database.pool.query(
      'select p.status, i.status as intent from payments p join local_payment_intents i on i.id = p.provider_ref where p.client_secret = $1',
      [session.clientSecret],
    );
    expect(payment.rows[0]).toEqual({ status: 'refunded', intent: 'refunded' });
    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.statusCode).toBe(404);
  });
});

describe('the last unit', () => {
  it('goes to exactly one of 50 buyers racing for it; the others are told it is taken', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    const buyers = await signUpMany(t, 50);
    const attempts = await Promise.all(buyers.map((b) => openCheckout(t.app, b.cookie, product.id)));
    const winners = attempts.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const loser of attempts.filter((r) => r.statusCode !== 200)) {
      expect(loser.statusCode).toBe(409);
      expect(loser.json().message).toBe(ALL_RESERVED_MESSAGE);
    }
    const paid = await payWithCard(t.app, winners[0]?.json().clientSecret);
    expect(paid.json().status).toBe('succeeded');
    expect(await stockOf(t, product.id)).toBe(0);
    const orders = await t.database.pool.query('select count(*) as n from orders where product_id = $1', [
      product.id,
    ]);
    expect(Number(orders.rows[0].n)).toBe(1);
    const captured = await t.database.pool.query(
      `select count(*) as n from payments where product_id = $1 and status in ('succeeded', 'refunding')`,
      [product.id],
    );
    expect(Number(captured.rows[0].n)).toBe(1);
  });

  it('is free again once a hold expires, and the expired session can no longer pay', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    const session = await sessionFor(buyer.cookie, product.id);
    await t.database.pool.query(
      `update payments set reserved_until = now() - interval '1 second' where client_secret = $1`,
      [session.clientSecret],
    );
    expect(await releaseExpiredHolds(t.database.db, t.app.payments)).toBe(1);
    const late = await payWithCard(t.app, session.clientSecret);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('expired');
    const [other] = await signUpMany(t, 1);
    if (!other) throw new Error('no buyer');
    const next = await sessionFor(other.cookie, product.id);
    expect((await payWithCard(t.app, next.clientSecret)).json().status).toBe('succeeded');
    expect(await stockOf(t, product.id)).toBe(0);
  });
});

describe('DELETE /api/checkout/:productId (the buyer leaves checkout)', () => {
  const leave = (cookie: string | undefined, productId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/checkout/${productId}`,
      headers: cookie ? { cookie } : {},
    });

  it('answers 401 signed out and 400 for a malformed id', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    expect((await leave(undefined, product.id)).statusCode).toBe(401);
    expect((await leave(buyer.cookie, 'not-an-id')).statusCode).toBe(400);
  });

  it('frees the unit for the next buyer at once, and the left session can no longer pay', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    const session = await sessionFor(buyer.cookie, product.id);
    const [other] = await signUpMany(t, 1);
    if (!other) throw new Error('no buyer');
    expect((await openCheckout(t.app, other.cookie, product.id)).statusCode).toBe(409);

    expect((await leave(buyer.cookie, product.id)).statusCode).toBe(204);
    expect((await payWithCard(t.app, session.clientSecret)).statusCode).toBe(409);
    const next = await sessionFor(other.cookie, product.id);
    expect((await payWithCard(t.app, next.clientSecret)).json().status).toBe('succeeded');
    expect(await stockOf(t, product.id)).toBe(0);
    // Nothing left to release: still 204.
    expect((await leave(buyer.cookie, product.id)).statusCode).toBe(204);
  });

  it("ends only the caller's own hold", async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    const session = await sessionFor(buyer.cookie, product.id);
    const [other] = await signUpMany(t, 1);
    if (!other) throw new Error('no buyer');
    expect((await leave(other.cookie, product.id)).statusCode).toBe(204);
    expect((await leave(seller.cookie, product.id)).statusCode).toBe(204);
    expect((await openCheckout(t.app, other.cookie, product.id)).statusCode).toBe(409);
    expect((await payWithCard(t.app, session.clientSecret)).json().status).toBe('succeeded');
  });

  it('keeps a hold that was paid: the order is written and the unit taken', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 2 });
    const session = await sessionFor(buyer.cookie, product.id);
    expect((await payWithCard(t.app, session.clientSecret)).json().status).toBe('succeeded');
    expect((await leave(buyer.cookie, product.id)).statusCode).toBe(204);
    await eventually(
      'the unit taken',
      () => stockOf(t, product.id),
      (stock) => stock === 1,
    );
    const bought = (await ordersOf(t.app, buyer.cookie)).filter((o) => o.role === 'buyer');
    expect(bought.length).toBeGreaterThan(0);
  });
});

describe('open holds per account and per address', () => {
  it(`refuses a ${MAX_HOLDS_PER_ACCOUNT + 1}th hold by one account with 429 until one of its holds ends`, async () => {
    const products = await Promise.all(
      Array.from({ length: MAX_HOLDS_PER_ACCOUNT + 1 }, () => listProduct(t, seller.cookie, { stock: 5 })),
    );
    const held = [];
    for (const product of products.slice(0, MAX_HOLDS_PER_ACCOUNT))
      held.push(await sessionFor(buyer.cookie, product.id));
    // The oldest hold lapses first: Retry-After counts down to it.
    await t.database.pool.query(
      `update payments set reserved_until = now() + interval '100 seconds' where client_secret = $1`,
      [held[0]?.clientSecret],
    );
    const last = products[MAX_HOLDS_PER_ACCOUNT]?.id ?? '';
    const refused = await openCheckout(t.app, buyer.cookie, last);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: ACCOUNT_HOLDS_MESSAGE, code: 'RATE_LIMITED' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(95);
    expect(retryAfter).toBeLessThanOrEqual(100);
    // A returning buyer still gets the session they hold.
    expect((await sessionFor(buyer.cookie, products[1]?.id ?? '')).clientSecret).toBe(held[1]?.clientSecret);
    // Paying ends a hold, and so does its lapse: each frees a place.
    expect((await payWithCard(t.app, held[1]?.clientSecret ?? '')).json().status).toBe('succeeded');
    await sessionFor(buyer.cookie, last);
    expect((await openCheckout(t.app, buyer.cookie, products[1]?.id ?? '')).statusCode).toBe(429);
    await t.database.pool.query(
      `update payments set reserved_until = now() - interval '1 second' where client_secret = $1`,
      [held[0]?.clientSecret],
    );
    await sessionFor(buyer.cookie, products[1]?.id ?? '');
  });

  it(`refuses the ${MAX_HOLDS_PER_ADDRESS + 1}th hold from one address across accounts`, async () => {
    // Behind one proxy hop, the address is the rightmost X-Forwarded-For entry.
    const proxied = await buildTestApp(
      { trustProxy: 1 },
      { autoEnd: false, paymentJobs: false, rateLimiter: unlimited },
    );
    try {
      const owner = await signUp(proxied.app);
      const product = await listProduct(proxied, owner.cookie, { stock: 50 });
      const from = async (address: string) => {
        const account = await signUp(proxied.app);
        return proxied.app.inject({
          method: 'POST',
          url: `/api/checkout/${product.id}`,
          headers: { cookie: account.cookie, 'x-forwarded-for': address },
        });
      };
      for (let i = 0; i < MAX_HOLDS_PER_ADDRESS; i += 1) {
        const held = await from('203.0.113.7');
        expect(held.statusCode, held.body).toBe(200);
      }
      const stored = await proxied.database.pool.query(
        `select count(*) as n from payments where client_address = '203.0.113.7' and status = 'pending'`,
      );
      expect(Number(stored.rows[0].n)).toBe(MAX_HOLDS_PER_ADDRESS);
      const refused = await from('203.0.113.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(ADDRESS_HOLDS_MESSAGE);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(CHECKOUT_RESERVATION_SECONDS - 60);
      // Spoofing a leftmost entry does not help; another address is not affected.
      expect((await from('198.51.100.1, 203.0.113.7')).statusCode).toBe(429);
      expect((await from('203.0.113.8')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('the local provider’s webhook job', () => {
  it('leaves fresh events to the request that wrote them, then delivers what is left behind', async () => {
    const payload = JSON.stringify({
      id: 'evt_local_left_behind',
      createdAt: new Date().toISOString(),
      type: 'ignored',
      providerType: 'test',
    });
    await t.database.pool.query('insert into local_webhook_events (id, payload) values ($1, $2)', [
      'evt_local_left_behind',
      payload,
    ]);
    expect(await local().deliverDue()).toBe(0);
    await t.database.pool.query(
      `update local_webhook_events set created_at = now() - interval '10 seconds' where id = $1`,
      ['evt_local_left_behind'],
    );
    expect(await local().deliverDue()).toBe(1);
    const row = await t.database.pool.query('select delivered_at from local_webhook_events where id = $1', [
      'evt_local_left_behind',
    ]);
    expect(row.rows[0].delivered_at).not.toBeNull();
  });
});

describe('a server that dies between payment and webhook', () => {
  it('creates the order once the webhook is retried after the restart', async () => {
    const first = await buildTestApp({}, { autoEnd: false, paymentJobs: false, localWebhooks: false });
    let second: TestApp | undefined;
    try {
      const s = await signUp(first.app);
      const b = await signUp(first.app);
      const product = await listProduct(first, s.cookie);
      const session = (await openCheckout(first.app, b.cookie, product.id)).json();
      expect((await payWithCard(first.app, session.clientSecret)).json().status).toBe('succeeded');
      // The card was charged but the webhook never reached the order logic.
      expect(await ordersOf(first.app, b.cookie)).toEqual([]);
      await first.app.close();

      second = await buildTestApp(
        { sessionSecret: first.config.sessionSecret },
        { autoEnd: false, database: first.database },
      );
      const restarted = second;
      const orders = await eventually(
        'the order, from the restarted instance',
        () => ordersOf(restarted.app, b.cookie),
        (found) => found.length > 0,
        { timeoutMs: 20_000, intervalMs: 200 },
      );
      expect(orders).toHaveLength(1);
      expect(await stockOf(second, product.id)).toBe(0);
    } finally {
      await second?.app.close();
      await first.database.close();
    }
  });
});
