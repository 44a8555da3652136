import type { OrderDetail, OrdersPage } from '@streamshop/contract/orders.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listProduct, openCheckout, payWithCard, stockOf, TEST_ADDRESS } from '../../test/payments.ts';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';
import { AUTO_DELIVERY_MS, deliverShippedOrders } from './service.ts';

/**
 * Orders after the payment (ADR 0016) through the API: every move and every refusal, the refund
 * through the provider, the ledger, and the messages as a real SMTP server receives them.
 */

const FEE_PERCENT = 7.5;

let smtp: TestSmtpServer;
let t: TestApp;
type Account = Awaited<ReturnType<typeof signUp>>;
let seller: Account;
let otherSeller: Account;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await buildTestApp(
    { smtpUrl: smtp.url, platformFeePercent: FEE_PERCENT },
    {
      autoEnd: false,
      paymentJobs: false,
      rateLimiter: unlimited,
      mailIntervalMs: 100,
      autoDelivery: { enabled: false },
    },
  );
  seller = await signUp(t.app);
  otherSeller = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const post = (url: string, cookie: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const ship = (
  orderId: string,
  cookie: string,
  payload: object = { carrier: 'ups', trackingNumber: '1Z999AA10123456784' },
) => post(`/api/orders/${orderId}/ship`, cookie, payload);
const act = (orderId: string, action: 'deliver' | 'refund' | 'cancel', cookie: string) =>
  post(`/api/orders/${orderId}/${action}`, cookie);

async function page(cookie: string, query: string): Promise<OrdersPage> {
  const response = await t.app.inject({ url: `/api/orders?${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

type Fulfillment = 'ship' | 'digital' | 'pickup';

/** The buyer buys a new product of the seller's through checkout and the card form; the sale. */
async function buy(
  buyer: Account,
  options: {
    from?: Account;
    priceCents?: number;
    shippingCents?: number;
    fulfillment?: Fulfillment;
    stock?: number;
  } = {},
): Promise<{ order: OrderDetail; productId: string }> {
  const fulfillment = options.fulfillment ?? 'ship';
  const product = await listProduct(t, (options.from ?? seller).cookie, {
    priceCents: options.priceCents ?? 4500,
    stock: options.stock ?? 2,
    fulfillment,
    shippingCents: fulfillment === 'ship' ? (options.shippingCents ?? 500) : 0,
  });
  const session = await openCheckout(
    t.app,
    buyer.cookie,
    product.id,
    fulfillment === 'ship' ? { shippingAddress: TEST_ADDRESS } : undefined,
  );
  expect(session.statusCode, session.body).toBe(200);
  const paid = await payWithCard(t.app, session.json().clientSecret);
  expect(paid.json()).toEqual({ status: 'succeeded' });
  const purchases = await page(buyer.cookie, 'role=buyer');
  const order = purchases.orders.find((o) => o.item.productId === product.id);
  if (!order) throw new Error('the order was not created');
  return { order, productId: product.id };
}

const paymentStatusOf = async (orderId: string) =>
  (
    await t.database.pool.query(
      'select p.status from payments p join orders o on o.payment_id = p.id where o.id = $1',
      [orderId],
    )
  ).rows[0]?.status;

describe('the order’s messages', () => {
  // Before the tests below queue their many messages; each is told apart by the order's reference.
  const mailTo = (email: string, subject: RegExp) =>
    smtp.waitFor((m) => m.to === email && subject.test(m.subject), 20_000);
  const ref = (order: OrderDetail) => `#${order.id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;

  it('confirms the order to the buyer and tells the seller where to ship it', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer, { priceCents: 4500, shippingCents: 500 });
    const confirmation = await mailTo(
      buyer.email,
      new RegExp(`^Your order ${ref(order)}: Blue Note first pressing$`),
    );
    expect(confirmation.text).toContain('$50.00 ($5.00 of it shipping)');
    expect(confirmation.text).toContain('http://localhost:3000/orders');
    const sold = await mailTo(
      seller.email,
      new RegExp(`^You sold Blue Note first pressing \\(${ref(order)}\\)$`),
    );
    expect(sold.text).toContain(`@${buyer.handle} paid $50.00`);
    expect(sold.text).toContain('Ship it to: Ada Buyer, 1 Record Lane, Bristol, BS1 4DJ, GB.');
    expect(order.status).toBe('paid');
  });

  it('tells the buyer the carrier and tracking when it ships, and the refund', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    await ship(order.id, seller.cookie, { carrier: 'usps', trackingNumber: '9400 1000 0000 0000 0000 00' });
    const shipped = await mailTo(buyer.email, /has shipped$/);
    expect(shipped.text).toContain('with USPS, tracking number 9400 1000 0000 0000 0000 00');
    expect(shipped.text).toContain(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
    );
    await act(order.id, 'refund', seller.cookie);
    const refunded = await mailTo(buyer.email, /refunded \$50\.00 for order/);
    expect(refunded.text).toContain('refunded your order of Blue Note first pressing in full');
  });

  it('tells both the buyer and the seller of a cancel, once each', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    await act(order.id, 'cancel', buyer.cookie);
    await mailTo(buyer.email, /is cancelled$/);
    const toSeller = await mailTo(
      seller.email,
      new RegExp(`^Order ${ref(order)} was cancelled: do not ship it$`),
    );
    expect(toSeller.text).toContain(`@${buyer.handle} cancelled their order`);
    const queued = await t.database.pool.query(
      `select count(*)::int as n from mail_outbox where dedupe_key like $1`,
      [`order-cancelled-%:${order.id}`],
    );
    expect(queued.rows[0].n).toBe(2);
  });
});

describe('GET /api/orders', () => {
  it('shows the seller a sale with the buyer, the address, the item, the amount and the status', async () => {
    const buyer = await signUp(t.app);
    const { order, productId } = await buy(buyer, { priceCents: 4500, shippingCents: 500 });
    expect(order).toMatchObject({
      role: 'buyer',
      status: 'paid',
      amountCents: 5000,
      shippingCents: 500,
      sellerHandle: seller.handle,
      buyerHandle: buyer.handle,
      carrier: null,
      trackingNumber: null,
    });
    const sales = await page(seller.cookie, 'role=seller');
    const sale = sales.orders.find((o) => o.id === order.id);
    expect(sale).toMatchObject({
      role: 'seller',
      status: 'paid',
      buyerHandle: buyer.handle,
      amountCents: 5000,
      shippingCents: 500,
      item: { productId, title: 'Blue Note first pressing', fulfillment: 'ship' },
      shippingAddress: { ...TEST_ADDRESS },
      shippedAt: null,
    });
    expect(Date.parse(sale?.createdAt ?? '')).not.toBeNaN();
    // The sale is nobody else's to see.
    const stranger = await signUp(t.app);
    expect((await page(stranger.cookie, 'role=seller')).orders).toEqual([]);
    expect((await page(stranger.cookie, 'role=buyer')).orders).toEqual([]);
    const single = await t.app.inject({
      url: `/api/orders/${order.id}`,
      headers: { cookie: stranger.cookie },
    });
    expect(single.statusCode).toBe(404);
  });

  it('keeps the old answer (both roles, an array) when no role is given', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    const response = await t.app.inject({ url: '/api/orders', headers: { cookie: buyer.cookie } });
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: order.id,
        role: 'buyer',
        status: 'paid',
        amountCents: order.amountCents,
      }),
    ]);
  });

  it('pages with a cursor, newest first, and filters by status', async () => {
    const pageSeller = await signUp(t.app);
    const buyer = await signUp(t.app);
    const bought: string[] = [];
    for (let i = 0; i < 21; i++)
      bought.push((await buy(buyer, { from: pageSeller, fulfillment: 'digital' })).order.id);
    const first = await page(pageSeller.cookie, 'role=seller');
    expect(first.orders).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page(pageSeller.cookie, `role=seller&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.orders, ...second.orders].map((o) => o.id)).toEqual([...bought].reverse());

    const [delivered] = bought;
    expect((await act(delivered ?? '', 'deliver', pageSeller.cookie)).statusCode).toBe(200);
    const filtered = await page(pageSeller.cookie, 'role=seller&status=delivered');
    expect(filtered.orders.map((o) => o.id)).toEqual([delivered]);

    const badCursor = await t.app.inject({
      url: '/api/orders?role=seller&cursor=bm9wZQ',
      headers: { cookie: buyer.cookie },
    });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().fields).toHaveProperty('cursor');
    const badStatus = await t.app.inject({
      url: '/api/orders?role=seller&status=completed',
      headers: { cookie: buyer.cookie },
    });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().fields).toHaveProperty('status');
  });

  it('pages through orders placed within the same millisecond without skipping one', async () => {
    // Under a drop many orders are written within one millisecond (the checkout bench saw a
    // seller's list miss one): the cursor must keep the database's microseconds.
    const pageSeller = await signUp(t.app);
    const buyer = await signUp(t.app);
    const bought: string[] = [];
    for (let i = 0; i < 23; i++)
      bought.push((await buy(buyer, { from: pageSeller, fulfillment: 'digital' })).order.id);
    // Order i at 12:00:00.000 + i × 40 µs: all within one millisecond, in the order they were bought.
    await t.database.pool.query(
      `update orders o set created_at = timestamptz '2026-11-26 12:00:00+00' + make_interval(secs => n.i * 0.00004)
       from unnest($1::uuid[]) with ordinality as n(id, i) where o.id = n.id`,
      [bought],
    );
    const first = await page(pageSeller.cookie, 'role=seller');
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page(pageSeller.cookie, `role=seller&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.orders, ...second.orders].map((o) => o.id)).toEqual([...bought].reverse());
  });

  it('answers 401 to a signed-out visitor', async () => {
    expect((await t.app.inject({ url: '/api/orders?role=seller' })).statusCode).toBe(401);
  });
});

describe('POST /api/orders/:id/ship', () => {
  it('lets the seller ship a paid order once, with the carrier, the tracking number and a tracking link', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    const shipped = await ship(order.id, seller.cookie, {
      carrier: 'ups',
      trackingNumber: '1Z999AA10123456784',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json()).toMatchObject({
      status: 'shipped',
      carrier: 'ups',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    });
    expect(Date.parse(shipped.json().shippedAt)).not.toBeNaN();
    const purchase = (await page(buyer.cookie, 'role=buyer')).orders.find((o) => o.id === order.id);
    expect(purchase).toMatchObject({ status: 'shipped', trackingNumber: '1Z999AA10123456784' });

    const again = await ship(order.id, seller.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order has already shipped.');
  });

  it('answers each bad field with 400 and its name', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    const missing = await ship(order.id, seller.cookie, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual(['carrier', 'trackingNumber']);
    const bad = await ship(order.id, seller.cookie, { carrier: 'ups', trackingNumber: '<script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.trackingNumber).toMatch(/letters, digits/);
    const malformedId = await ship('not-an-id', seller.cookie);
    expect(malformedId.statusCode).toBe(400);
    expect(malformedId.json().fields).toHaveProperty('id');
  });

  it('is the seller’s move: the buyer gets 403, another seller and a stranger 404', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    expect((await ship(order.id, buyer.cookie)).statusCode).toBe(403);
    expect((await ship(order.id, otherSeller.cookie)).statusCode).toBe(404);
    expect((await ship('00000000-0000-4000-8000-000000000000', seller.cookie)).statusCode).toBe(404);
  });

  it('refuses a digital product (409: mark it delivered instead)', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer, { fulfillment: 'digital' });
    const refused = await ship(order.id, seller.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('mark it delivered');
  });
});

describe('POST /api/orders/:id/deliver', () => {
  it('lets the buyer mark a shipped order delivered, not before it ships and not twice', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    const early = await act(order.id, 'deliver', buyer.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This order has not shipped yet.');
    await ship(order.id, seller.cookie);
    expect((await act(order.id, 'deliver', seller.cookie)).statusCode).toBe(403);
    expect((await act(order.id, 'deliver', otherSeller.cookie)).statusCode).toBe(404);
    const delivered = await act(order.id, 'deliver', buyer.cookie);
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().status).toBe('delivered');
    expect(Date.parse(delivered.json().deliveredAt)).not.toBeNaN();
    expect((await act(order.id, 'deliver', buyer.cookie)).statusCode).toBe(409);
  });

  it('lets the seller of a digital or pickup product mark it delivered from paid; not its buyer', async () => {
    for (const fulfillment of ['digital', 'pickup'] as const) {
      const buyer = await signUp(t.app);
      const { order } = await buy(buyer, { fulfillment });
      expect((await act(order.id, 'deliver', buyer.cookie)).statusCode).toBe(403);
      const delivered = await act(order.id, 'deliver', seller.cookie);
      expect(delivered.statusCode).toBe(200);
      expect(delivered.json()).toMatchObject({ status: 'delivered', shippedAt: null });
    }
  });

  it('happens by itself 30 days after shipping, in one statement', async () => {
    const buyer = await signUp(t.app);
    const { order: old } = await buy(buyer);
    const { order: recent } = await buy(buyer);
    await ship(old.id, seller.cookie);
    await ship(recent.id, seller.cookie);
    await t.database.pool.query(
      `update orders set shipped_at = now() - interval '30 days 1 minute' where id = $1`,
      [old.id],
    );
    expect(AUTO_DELIVERY_MS).toBe(30 * 24 * 3_600_000);
    expect(await deliverShippedOrders(t.database.db)).toBeGreaterThanOrEqual(1);
    const statuses = (await page(buyer.cookie, 'role=buyer')).orders;
    expect(statuses.find((o) => o.id === old.id)?.status).toBe('delivered');
    expect(statuses.find((o) => o.id === recent.id)?.status).toBe('shipped');
  });

  it('runs as a job with the period the app is given', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    await ship(order.id, seller.cookie);
    const instance = await buildTestApp(
      {},
      {
        database: t.database,
        autoEnd: false,
        paymentJobs: false,
        localWebhooks: false,
        autoDelivery: { afterMs: 0, intervalMs: 20 },
      },
    );
    try {
      await vi.waitFor(
        async () => {
          const order_ = (await page(buyer.cookie, 'role=buyer')).orders.find((o) => o.id === order.id);
          expect(order_?.status).toBe('delivered');
        },
        { timeout: 5000, interval: 25 },
      );
    } finally {
      await instance.close();
    }
  });
});

describe('POST /api/orders/:id/refund', () => {
  it('refunds in full through the provider, puts the unit back, and refuses a second refund', async () => {
    const buyer = await signUp(t.app);
    const { order, productId } = await buy(buyer, { stock: 2 });
    expect(await stockOf(t, productId)).toBe(1);
    expect((await act(order.id, 'refund', buyer.cookie)).statusCode).toBe(403);
    expect((await act(order.id, 'refund', otherSeller.cookie)).statusCode).toBe(404);

    const refunded = await act(order.id, 'refund', seller.cookie);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().status).toBe('refunded');
    expect(Date.parse(refunded.json().refundedAt)).not.toBeNaN();
    expect(await stockOf(t, productId)).toBe(2);
    expect(await paymentStatusOf(order.id)).toBe('refunded');
    const intent = await t.database.pool.query(
      `select i.status from local_payment_intents i
       join payments p on p.provider_ref = i.id join orders o on o.payment_id = p.id where o.id = $1`,
      [order.id],
    );
    expect(intent.rows[0]?.status).toBe('refunded');

    const again = await act(order.id, 'refund', seller.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order was refunded.');
    const shipAfter = await ship(order.id, seller.cookie);
    expect(shipAfter.statusCode).toBe(409);
    expect(shipAfter.json().message).toBe('This order was refunded.');
    expect((await act(order.id, 'cancel', buyer.cookie)).statusCode).toBe(409);
    expect(await stockOf(t, productId)).toBe(2);
  });

  it('refunds a shipped or delivered order too', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    await ship(order.id, seller.cookie);
    await act(order.id, 'deliver', buyer.cookie);
    const refunded = await act(order.id, 'refund', seller.cookie);
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'refunded', deliveredAt: expect.any(String) });
  });

  it('lets only one of two refunds at once succeed, and restores the unit once', async () => {
    const buyer = await signUp(t.app);
    const { order, productId } = await buy(buyer, { stock: 3 });
    expect(await stockOf(t, productId)).toBe(2);
    const [a, b] = await Promise.all([
      act(order.id, 'refund', seller.cookie),
      act(order.id, 'refund', seller.cookie),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await stockOf(t, productId)).toBe(3);
    const entries = await t.database.pool.query(
      `select kind from ledger_entries where order_id = $1 order by kind`,
      [order.id],
    );
    expect(entries.rows.map((row) => row.kind)).toEqual(['fee', 'fee_refund', 'refund', 'sale']);
  });
  it('lets only one of a buyer’s cancel and the seller’s refund at once win', async () => {
    const buyer = await signUp(t.app);
    const { order, productId } = await buy(buyer, { stock: 1 });
    const [cancel, refund] = await Promise.all([
      act(order.id, 'cancel', buyer.cookie),
      act(order.id, 'refund', seller.cookie),
    ]);
    expect([cancel.statusCode, refund.statusCode].sort()).toEqual([200, 409]);
    expect(await stockOf(t, productId)).toBe(1);
    const reversals = await t.database.pool.query(
      `select count(*)::int as n from ledger_entries where order_id = $1 and kind = 'refund'`,
      [order.id],
    );
    expect(reversals.rows[0].n).toBe(1);
  });
});

describe('POST /api/orders/:id/cancel', () => {
  it('lets the buyer cancel before it ships: the money and the unit go back', async () => {
    const buyer = await signUp(t.app);
    const { order, productId } = await buy(buyer, { stock: 1 });
    expect(await stockOf(t, productId)).toBe(0);
    expect((await act(order.id, 'cancel', seller.cookie)).statusCode).toBe(403);
    expect((await act(order.id, 'cancel', otherSeller.cookie)).statusCode).toBe(404);
    const cancelled = await act(order.id, 'cancel', buyer.cookie);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(Date.parse(cancelled.json().cancelledAt)).not.toBeNaN();
    expect(await stockOf(t, productId)).toBe(1);
    expect(await paymentStatusOf(order.id)).toBe('refunded');
    expect((await act(order.id, 'cancel', buyer.cookie)).json().message).toBe('This order was cancelled.');
    expect((await act(order.id, 'refund', seller.cookie)).statusCode).toBe(409);
    expect((await ship(order.id, seller.cookie)).statusCode).toBe(409);
  });

  it('refuses once the order has shipped', async () => {
    const buyer = await signUp(t.app);
    const { order } = await buy(buyer);
    await ship(order.id, seller.cookie);
    const refused = await act(order.id, 'cancel', buyer.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This order has already shipped.');
  });
});

describe('the ledger', () => {
  /** Σ over a seller's orders, from the orders themselves. */
  async function expected(sellerId: string) {
    const orders = await t.database.pool.query(
      `select amount_cents, status from orders where seller_id = $1`,
      [sellerId],
    );
    let payments = 0;
    let refunds = 0;
    let fees = 0;
    for (const row of orders.rows) {
      payments += row.amount_cents;
      if (row.status === 'refunded' || row.status === 'cancelled') refunds += row.amount_cents;
      else fees += Math.floor((row.amount_cents * FEE_PERCENT * 100 + 5000) / 10_000);
    }
    return { payments, refunds, fees };
  }

  it('balances for a random mix of sales, cancels and refunds: Σnet + Σfees = Σpayments − Σrefunds', async () => {
    const sellers = [await signUp(t.app), await signUp(t.app)];
    const buyers = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    let seed = 17;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let i = 0; i < 16; i++) {
      const from = sellers[random(2)] as Account;
      const buyer = buyers[random(3)] as Account;
      const { order } = await buy(buyer, {
        from,
        priceCents: 100 + random(20_000),
        shippingCents: random(3) * 250,
        fulfillment: random(4) === 0 ? 'digital' : 'ship',
      });
      const action = random(4);
      if (action === 1) expect((await act(order.id, 'cancel', buyer.cookie)).statusCode).toBe(200);
      if (action === 2) expect((await act(order.id, 'refund', from.cookie)).statusCode).toBe(200);
      if (action === 3 && order.item.fulfillment === 'ship') {
        expect((await ship(order.id, from.cookie)).statusCode).toBe(200);
        if (random(2)) expect((await act(order.id, 'refund', from.cookie)).statusCode).toBe(200);
      }
    }
    for (const s of sellers) {
      const balance = (
        await t.app.inject({ url: '/api/payouts/balance', headers: { cookie: s.cookie } })
      ).json();
      const sums = await expected(s.user.id);
      expect(balance.grossCents).toBe(sums.payments - sums.refunds);
      expect(balance.feeCents).toBe(sums.fees);
      expect(balance.netCents + balance.feeCents).toBe(sums.payments - sums.refunds);
      // Every sale is younger than the 7-day hold: all of it pending, none available, none paid out.
      expect(balance.pendingCents).toBe(balance.netCents);
      expect(balance.availableCents).toBe(0);
      expect(balance.paidOutCents).toBe(0);
      expect(balance.netCents).toBe(balance.pendingCents + balance.availableCents + balance.paidOutCents);
    }
  });

  it('writes the sale with shipping, the fee rounded half up, available 7 days after the payment', async () => {
    const feeSeller = await signUp(t.app);
    const buyer = await signUp(t.app);
    // 7.5 % of $1.00 is 7.5 cents: 8.
    const { order } = await buy(buyer, { from: feeSeller, priceCents: 60, shippingCents: 40 });
    const entries = await t.database.pool.query(
      `select kind, amount_cents, available_at - (select created_at from orders where id = $1) as hold
       from ledger_entries where order_id = $1 order by kind`,
      [order.id],
    );
    expect(entries.rows.map((row) => [row.kind, row.amount_cents])).toEqual([
      ['fee', -8],
      ['sale', 100],
    ]);
    // Once the hold is over, the sale is available.
    await t.database.pool.query(
      `update ledger_entries set available_at = now() - interval '1 second' where order_id = $1`,
      [order.id],
    );
    const balance = (
      await t.app.inject({ url: '/api/payouts/balance', headers: { cookie: feeSeller.cookie } })
    ).json();
    expect(balance).toEqual({
      grossCents: 100,
      feeCents: 8,
      netCents: 92,
      pendingCents: 0,
      availableCents: 92,
      paidOutCents: 0,
    });
    const ledger = (
      await t.app.inject({ url: '/api/payouts/ledger', headers: { cookie: feeSeller.cookie } })
    ).json();
    expect(ledger.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'sale',
          amountCents: 100,
          orderId: order.id,
          buyerHandle: buyer.handle,
        }),
      ]),
    );
    // A refund after the hold is taken from the available money at once.
    await act(order.id, 'refund', feeSeller.cookie);
    const after = (
      await t.app.inject({ url: '/api/payouts/balance', headers: { cookie: feeSeller.cookie } })
    ).json();
    expect(after).toEqual({
      grossCents: 0,
      feeCents: 0,
      netCents: 0,
      pendingCents: 0,
      availableCents: 0,
      paidOutCents: 0,
    });
  });

  it('answers 401 to a signed-out visitor', async () => {
    expect((await t.app.inject({ url: '/api/payouts/balance' })).statusCode).toBe(401);
  });
});
