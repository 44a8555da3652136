import { CARRIERS } from '@streamshop/contract/carriers.ts';
import type { OrderDetail, OrdersPage } from '@streamshop/contract/orders.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct, openCheckout, payWithCard, TEST_ADDRESS } from '../../test/payments.ts';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';

/** Issue 27 item 9: a shipped order's carrier is one of a list, with a tracking link for each. */

let smtp: TestSmtpServer;
let t: TestApp;
type Account = Awaited<ReturnType<typeof signUp>>;
let seller: Account;
let buyer: Account;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await buildTestApp(
    { smtpUrl: smtp.url },
    { autoEnd: false, paymentJobs: false, rateLimiter: unlimited, mailIntervalMs: 100 },
  );
  seller = await signUp(t.app);
  buyer = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

async function purchases(): Promise<OrderDetail[]> {
  const response = await t.app.inject({ url: '/api/orders?role=buyer', headers: { cookie: buyer.cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as OrdersPage).orders;
}

/** A paid order of a new product of the seller's, shipped to the buyer's address. */
async function paidOrder(): Promise<OrderDetail> {
  const product = await listProduct(t, seller.cookie, { priceCents: 2000, stock: 1, fulfillment: 'ship' });
  const session = await openCheckout(t.app, buyer.cookie, product.id, { shippingAddress: TEST_ADDRESS });
  expect(session.statusCode, session.body).toBe(200);
  await payWithCard(t.app, session.json().clientSecret);
  const order = (await purchases()).find((o) => o.item.productId === product.id);
  if (!order) throw new Error('the order was not created');
  return order;
}

const ship = (orderId: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/orders/${orderId}/ship`,
    headers: { cookie: seller.cookie },
    payload,
  });

describe('POST /api/orders/:id/ship carriers', () => {
  it.each([
    ['usps', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000'],
    ['ups', 'https://www.ups.com/track?tracknum=9400100000000000000000'],
    ['fedex', 'https://www.fedex.com/fedextrack/?trknbr=9400100000000000000000'],
    [
      'dhl',
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=9400100000000000000000',
    ],
    ['royal_mail', 'https://www.royalmail.com/track-your-item#/tracking-results/9400100000000000000000'],
    [
      'canada_post',
      'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=9400100000000000000000',
    ],
    ['australia_post', 'https://auspost.com.au/mypost/track/details/9400100000000000000000'],
    ['other', null],
  ])('ships with %s and links its tracking page (%s)', async (carrier, link) => {
    const order = await paidOrder();
    const shipped = await ship(order.id, { carrier, trackingNumber: '9400 1000 0000 0000 0000 00' });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json()).toMatchObject({ carrier, trackingUrl: link });
    const seen = (await purchases()).find((o) => o.id === order.id);
    expect(seen).toMatchObject({ status: 'shipped', carrier, trackingUrl: link });
  });

  it('covers every carrier of the list above', () => {
    expect(CARRIERS).toEqual([
      'usps',
      'ups',
      'fedex',
      'dhl',
      'royal_mail',
      'canada_post',
      'australia_post',
      'other',
    ]);
  });

  it.each([
    ['a carrier not on the list', { carrier: 'hermes' }, /^Carrier must be one of usps, ups, .*other$/],
    ['a display name instead of a code', { carrier: 'USPS' }, /^Carrier must be one of /],
    ['no carrier', { carrier: undefined }, /^Carrier is required$/],
    ['an empty carrier', { carrier: '' }, /^Carrier is required$/],
  ])('answers %s with 400 naming the carrier field in words', async (_case, override, reason) => {
    const order = await paidOrder();
    const response = await ship(order.id, {
      trackingNumber: '1Z999AA10123456784',
      ...override,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fields)).toEqual(['carrier']);
    expect(body.fields.carrier).toMatch(reason);
    expect(body.message).toContain('carrier');
    // Nothing shipped.
    expect((await purchases()).find((o) => o.id === order.id)?.status).toBe('paid');
  });

  it.each([
    ['', 'Tracking number is required'],
    ['1Z9', 'Tracking number must be at least 4 characters'],
    ['x'.repeat(65), 'Tracking number must be at most 64 characters'],
    ['<script>', 'Tracking number may hold only letters, digits, spaces and dashes'],
  ])('words the reason a tracking number %j is refused', async (trackingNumber, reason) => {
    const order = await paidOrder();
    const response = await ship(order.id, { carrier: 'ups', trackingNumber });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ trackingNumber: reason });
  });

  it('mails the buyer the carrier’s name and its tracking link, and no carrier for Other', async () => {
    const byPost = await paidOrder();
    await ship(byPost.id, { carrier: 'australia_post', trackingNumber: 'AP1234567890' });
    const posted = await smtp.waitFor(
      (m) => m.to === buyer.email && m.text.includes('AP1234567890') && /has shipped$/.test(m.subject),
      20_000,
    );
    expect(posted.text).toContain('with Australia Post, tracking number AP1234567890.');
    expect(posted.text).toContain(
      'Track it with Australia Post: https://auspost.com.au/mypost/track/details/AP1234567890',
    );

    const other = await paidOrder();
    await ship(other.id, { carrier: 'other', trackingNumber: 'LOCAL-777' });
    const local = await smtp.waitFor(
      (m) => m.to === buyer.email && m.text.includes('LOCAL-777') && /has shipped$/.test(m.subject),
      20_000,
    );
    expect(local.text).toContain('shipped your order, tracking number LOCAL-777.');
    expect(local.text).not.toContain('Track it');
    expect(local.text).not.toContain('Other');
  });

  it('still shows an order shipped before the list, with the carrier its seller typed', async () => {
    const known = await paidOrder();
    const unknown = await paidOrder();
    await t.database.pool.query(
      `update orders set status = 'shipped', shipped_at = now(), carrier = $2, tracking_number = $3 where id = $1`,
      [known.id, 'Royal Mail', 'RM 123 456 GB'],
    );
    await t.database.pool.query(
      `update orders set status = 'shipped', shipped_at = now(), carrier = $2, tracking_number = $3 where id = $1`,
      [unknown.id, 'Hermes', 'H123456'],
    );
    const orders = await purchases();
    expect(orders.find((o) => o.id === known.id)).toMatchObject({
      carrier: 'Royal Mail',
      trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/RM123456GB',
    });
    expect(orders.find((o) => o.id === unknown.id)).toMatchObject({ carrier: 'Hermes', trackingUrl: null });
  });
});
