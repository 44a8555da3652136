import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureCategory, listProduct, payWithCard, TEST_ADDRESS } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';
import { ADDRESS_REFUSED_MESSAGE, ADDRESS_REQUIRED_MESSAGE } from './service.ts';

/** ADR 0016: products that ship, the address at checkout, shipping in the total, saved addresses. */

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;
let buyer: Awaited<ReturnType<typeof signUp>>;
let buyerAddress = '';
let buyers = 0;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false, rateLimiter: unlimited });
  seller = await signUp(t.app);
});
// A fresh buyer per test: an account may hold only a few units at once, and has its own addresses.
// Each from its own client address: at most 10 holds are open per address.
beforeEach(async () => {
  buyer = await signUp(t.app);
  buyers += 1;
  buyerAddress = `10.17.${Math.floor(buyers / 250)}.${(buyers % 250) + 1}`;
});

const checkout = (cookie: string, productId: string, body?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/checkout/${productId}`,
    headers: { cookie },
    remoteAddress: buyerAddress,
    ...(body ? { payload: body } : {}),
  });
afterAll(async () => {
  await t.close();
});

const shipped = (overrides: { priceCents?: number; shippingCents?: number; stock?: number } = {}) =>
  listProduct(t, seller.cookie, { fulfillment: 'ship', shippingCents: 700, stock: 3, ...overrides });

const withAddress = (address: Record<string, unknown>) => ({ shippingAddress: address });

async function checkoutOk(cookie: string, productId: string, body?: Record<string, unknown>) {
  const response = await checkout(cookie, productId, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    clientSecret: string;
    amountCents: number;
    subtotalCents: number;
    shippingCents: number;
    shippingAddress: Record<string, unknown> | null;
  };
}

const savedAddresses = async (cookie: string, query = '') => {
  const response = await t.app.inject({ method: 'GET', url: `/api/addresses${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { addresses: Array<Record<string, unknown>> }).addresses;
};

const paymentOf = async (clientSecret: string) =>
  (
    await t.database.pool.query(
      'select id, amount_cents, shipping_cents, shipping_address from payments where client_secret = $1',
      [clientSecret],
    )
  ).rows[0];

describe('products: fulfillment and flat shipping', () => {
  it('stores the seller’s fulfillment and shipping, and answers them on the product', async () => {
    const product = await shipped({ shippingCents: 1250 });
    const read = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(read.json()).toMatchObject({ fulfillment: 'ship', shippingCents: 1250 });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}`,
      headers: { cookie: seller.cookie },
      payload: { ...(read.json() as object), fulfillment: 'pickup', shippingCents: 900 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    // Nothing ships, so nothing is charged for shipping.
    expect(updated.json()).toMatchObject({ fulfillment: 'pickup', shippingCents: 0 });
  });

  it('answers the shipping wherever a buyer sees the price: explore, the storefront, a room and its replay', async () => {
    const product = await listProduct(t, seller.cookie, {
      title: 'Shipping shown everywhere',
      fulfillment: 'ship',
      shippingCents: 450,
      stock: 2,
    });
    const terms = { fulfillment: 'ship', shippingCents: 450 };
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const explore = await get('/api/explore?search=Shipping%20shown%20everywhere');
    expect(explore.products.find((p: { id: string }) => p.id === product.id)).toMatchObject(terms);
    const storefront = await get(`/api/storefront/${seller.handle}`);
    expect(storefront.products.find((p: { id: string }) => p.id === product.id)).toMatchObject(terms);

    const post = (url: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: seller.cookie },
        ...(payload ? { payload } : {}),
      });
    const room = (await post('/api/rooms', { title: 'Shipping room' })).json().roomName;
    expect((await post(`/api/streams/${room}/start`)).statusCode).toBe(200);
    expect((await post(`/api/streams/${room}/lineup`, { productId: product.id })).statusCode).toBe(200);
    expect((await post(`/api/streams/${room}/pins`, { productId: product.id })).statusCode).toBe(200);
    const shop = await get(`/api/streams/${room}/shop`);
    expect(shop.lineup).toEqual([expect.objectContaining({ id: product.id, ...terms })]);
    expect((await post(`/api/streams/${room}/end`)).statusCode).toBe(200);
    const chapters = await get(`/api/streams/${room}/chapters`);
    expect(chapters.chapters[0].product).toMatchObject({ id: product.id, ...terms });
  });

  it('lists a product as shipped with no shipping charge when the seller names neither', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: { cookie: seller.cookie },
      payload: {
        title: 'Plain listing',
        priceCents: 1000,
        condition: 'new',
        categoryId: await ensureCategory(t),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ fulfillment: 'ship', shippingCents: 0 });
  });

  it('refuses an unknown fulfillment and shipping out of range with 400 and the field', async () => {
    const product = await shipped();
    const read = (await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json() as object;
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/products/${product.id}`,
        headers: { cookie: seller.cookie },
        payload: { ...read, ...payload },
      });
    const fulfillment = await put({ fulfillment: 'teleport' });
    expect(fulfillment.statusCode).toBe(400);
    expect(fulfillment.json().fields).toHaveProperty('fulfillment');
    const tooMuch = await put({ shippingCents: 100_001 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fields.shippingCents).toBe('shippingCents must be at most 100,000');
    const negative = await put({ shippingCents: -1 });
    expect(negative.json().fields.shippingCents).toBe('shippingCents must be 0 or more');
  });
});

describe('POST /api/checkout/:productId: the address rules', () => {
  it('requires an address for a shipped product', async () => {
    const product = await shipped();
    const none = await checkout(buyer.cookie, product.id);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      message: ADDRESS_REQUIRED_MESSAGE,
      fields: { shippingAddress: 'is required' },
    });
    const roomOnly = await checkout(buyer.cookie, product.id, { showBuyer: true });
    expect(roomOnly.statusCode).toBe(400);
  });

  it('refuses an address for a digital or a pickup product', async () => {
    for (const fulfillment of ['digital', 'pickup'] as const) {
      const product = await listProduct(t, seller.cookie, { fulfillment });
      const refused = await checkout(buyer.cookie, product.id, withAddress(TEST_ADDRESS));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(ADDRESS_REFUSED_MESSAGE);
      expect(refused.json().fields).toHaveProperty('shippingAddress');
      const session = await checkoutOk(buyer.cookie, product.id);
      expect(session).toMatchObject({ shippingCents: 0, shippingAddress: null });
    }
    expect(await savedAddresses(buyer.cookie)).toEqual([]);
  });

  it.each([
    ['name', 'name is required'],
    ['line1', 'line1 is required'],
    ['city', 'city is required'],
    ['postalCode', 'postalCode is required'],
    ['country', 'country is required'],
  ])('answers a missing %s with 400 naming shippingAddress.%s', async (field, reason) => {
    const product = await shipped();
    const { [field as keyof typeof TEST_ADDRESS]: _left, ...rest } = TEST_ADDRESS;
    const response = await checkout(buyer.cookie, product.id, withAddress(rest));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ [`shippingAddress.${field}`]: reason });
  });

  it('answers blank and too long fields with 400 and the field path', async () => {
    const product = await shipped();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '   ' }, 'shippingAddress.name', 'name is required'],
      [{ name: 'x'.repeat(101) }, 'shippingAddress.name', 'name must be at most 100 characters'],
      [{ line1: 'x'.repeat(201) }, 'shippingAddress.line1', 'line1 must be at most 200 characters'],
      [{ line2: 'x'.repeat(201) }, 'shippingAddress.line2', 'line2 must be at most 200 characters'],
      [{ city: 'x'.repeat(101) }, 'shippingAddress.city', 'city must be at most 100 characters'],
      [{ region: 'x'.repeat(101) }, 'shippingAddress.region', 'region must be at most 100 characters'],
      [
        { postalCode: '1'.repeat(21) },
        'shippingAddress.postalCode',
        'postalCode must be at most 20 characters',
      ],
      [{ city: 'Bris\u0000tol' }, 'shippingAddress.city', 'city must not contain control characters'],
      [{ postalCode: 12345 }, 'shippingAddress.postalCode', 'postalCode must be text'],
    ];
    for (const [change, field, reason] of cases) {
      const response = await checkout(buyer.cookie, product.id, withAddress({ ...TEST_ADDRESS, ...change }));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().fields).toEqual({ [field]: reason });
    }
  });

  it('checks the postal code against the country where its format is known', async () => {
    const product = await shipped();
    const us = { ...TEST_ADDRESS, city: 'Springfield', region: 'IL', country: 'US' };
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ ...us, postalCode: 'ABCDEFGHIJ' }, 'postalCode must be a ZIP code like 12345 or 12345-6789'],
      [{ ...us, postalCode: '6270' }, 'postalCode must be a ZIP code like 12345 or 12345-6789'],
      [{ ...us, postalCode: '62701-12' }, 'postalCode must be a ZIP code like 12345 or 12345-6789'],
      [
        { ...TEST_ADDRESS, country: 'CA', postalCode: '12345' },
        'postalCode must be a postal code like K1A 0B1',
      ],
      [{ ...TEST_ADDRESS, postalCode: 'ABCDEFGHIJ' }, 'postalCode must be a postcode like SW1A 1AA'],
      [
        { ...TEST_ADDRESS, country: 'FR', postalCode: '75001!' },
        'postalCode may only have letters, digits, spaces and hyphens',
      ],
    ];
    for (const [address, reason] of refused) {
      const response = await checkout(buyer.cookie, product.id, withAddress(address));
      expect(response.statusCode, JSON.stringify(address)).toBe(400);
      expect(response.json().fields).toEqual({ 'shippingAddress.postalCode': reason });
    }
    for (const address of [
      { ...us, postalCode: '62701' },
      { ...us, postalCode: '62701-1234' },
      { ...TEST_ADDRESS, country: 'CA', postalCode: 'k1a 0b1' },
      { ...TEST_ADDRESS, postalCode: 'sw1a1aa' },
      { ...TEST_ADDRESS, country: 'FR', postalCode: '75001' },
      { ...TEST_ADDRESS, country: 'NL', postalCode: '1012 AB' },
    ]) {
      await checkoutOk(buyer.cookie, product.id, withAddress(address));
    }
  });

  it('accepts only ISO 3166-1 alpha-2 countries, in either case', async () => {
    const product = await shipped();
    for (const country of ['XX', 'UK', 'USA', 'G', '', 'ZZ']) {
      const response = await checkout(buyer.cookie, product.id, withAddress({ ...TEST_ADDRESS, country }));
      expect(response.statusCode, country).toBe(400);
      expect(response.json().fields).toEqual({
        'shippingAddress.country': 'country must be an ISO 3166-1 alpha-2 code',
      });
    }
    const lower = await checkoutOk(buyer.cookie, product.id, withAddress({ ...TEST_ADDRESS, country: 'gb' }));
    expect(lower.shippingAddress).toMatchObject({ country: 'GB' });
  });
});

describe('POST /api/checkout/:productId: the total', () => {
  it('charges price + the product’s shipping, computed on the server, and snapshots the address', async () => {
    const product = await shipped({ priceCents: 4500, shippingCents: 700 });
    const response = await checkout(buyer.cookie, product.id, {
      ...withAddress({ ...TEST_ADDRESS, line2: '  Flat  2 ', region: '' }),
      amountCents: 1,
      shippingCents: 0,
    });
    expect(response.statusCode, response.body).toBe(200);
    const session = response.json();
    expect(session).toMatchObject({ amountCents: 5200, subtotalCents: 4500, shippingCents: 700 });
    expect(session.shippingAddress).toEqual({ ...TEST_ADDRESS, line2: 'Flat 2', region: null });
    const intent = await t.database.pool.query(
      'select amount_cents from local_payment_intents where client_secret = $1',
      [session.clientSecret],
    );
    expect(intent.rows[0].amount_cents).toBe(5200);
    expect(await paymentOf(session.clientSecret)).toMatchObject({
      amount_cents: 5200,
      shipping_cents: 700,
      shipping_address: { ...TEST_ADDRESS, line2: 'Flat 2', region: null },
    });
  });

  it('adds shipping to a live offer’s price', async () => {
    const product = await shipped({ priceCents: 5000, shippingCents: 450 });
    const call = (url: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: seller.cookie },
        ...(payload ? { payload } : {}),
      });
    const room = (await call('/api/rooms', { title: 'Shipping room' })).json().roomName;
    expect((await call(`/api/streams/${room}/start`)).statusCode).toBe(200);
    expect((await call(`/api/streams/${room}/lineup`, { productId: product.id })).statusCode).toBe(200);
    expect((await call(`/api/streams/${room}/pins`, { productId: product.id })).statusCode).toBe(200);
    const offer = await call(`/api/streams/${room}/offers`, {
      productId: product.id,
      priceCents: 3000,
      quantity: 2,
      durationSec: 60,
    });
    expect(offer.statusCode, offer.body).toBe(200);
    const session = await checkoutOk(buyer.cookie, product.id, {
      roomName: room,
      ...withAddress(TEST_ADDRESS),
    });
    expect(session).toMatchObject({ amountCents: 3450, subtotalCents: 3000, shippingCents: 450 });
  });

  it('keeps the hold when the buyer comes back, and takes the changed address onto it', async () => {
    const product = await shipped({ priceCents: 2000, shippingCents: 300 });
    const first = await checkoutOk(buyer.cookie, product.id, withAddress(TEST_ADDRESS));
    const moved = { ...TEST_ADDRESS, line1: '9 Tape Street', city: 'Leeds', postalCode: 'LS1 1AA' };
    const again = await checkoutOk(buyer.cookie, product.id, withAddress(moved));
    expect(again.clientSecret).toBe(first.clientSecret);
    expect(again).toMatchObject({ amountCents: 2300, shippingCents: 300 });
    expect(again.shippingAddress).toMatchObject({ line1: '9 Tape Street', city: 'Leeds' });
    expect((await paymentOf(first.clientSecret)).shipping_address).toMatchObject({ line1: '9 Tape Street' });
    const holds = await t.database.pool.query(
      `select count(*)::int as n from payments where product_id = $1 and status = 'pending'`,
      [product.id],
    );
    expect(holds.rows[0].n).toBe(1);
  });
});

describe('the order', () => {
  it('gets the shipping and the address snapshot when the payment succeeds', async () => {
    const product = await shipped({ priceCents: 4000, shippingCents: 650 });
    const session = await checkoutOk(
      buyer.cookie,
      product.id,
      withAddress({ ...TEST_ADDRESS, region: 'Avon' }),
    );
    expect((await payWithCard(t.app, session.clientSecret)).json()).toEqual({ status: 'succeeded' });
    const order = await t.database.pool.query(
      `select o.amount_cents, o.shipping_cents, o.shipping_address from orders o
       join payments p on p.id = o.payment_id where p.client_secret = $1`,
      [session.clientSecret],
    );
    expect(order.rows[0]).toEqual({
      amount_cents: 4650,
      shipping_cents: 650,
      shipping_address: { ...TEST_ADDRESS, line2: null, region: 'Avon' },
    });

    // A later checkout to another address changes the saved list, never the order.
    const other = await shipped();
    await checkoutOk(buyer.cookie, other.id, withAddress({ ...TEST_ADDRESS, name: 'Someone Else' }));
    const after = await t.database.pool.query(
      'select o.shipping_address from orders o join payments p on p.id = o.payment_id where p.client_secret = $1',
      [session.clientSecret],
    );
    expect(after.rows[0].shipping_address.name).toBe('Ada Buyer');
  });

  it('has no address and no shipping for a digital product', async () => {
    const product = await listProduct(t, seller.cookie, { fulfillment: 'digital', priceCents: 999 });
    const session = await checkoutOk(buyer.cookie, product.id);
    expect((await payWithCard(t.app, session.clientSecret)).json()).toEqual({ status: 'succeeded' });
    const order = await t.database.pool.query(
      `select o.amount_cents, o.shipping_cents, o.shipping_address from orders o
       join payments p on p.id = o.payment_id where p.client_secret = $1`,
      [session.clientSecret],
    );
    expect(order.rows[0]).toEqual({ amount_cents: 999, shipping_cents: 0, shipping_address: null });
  });
});

describe('GET /api/addresses', () => {
  it('answers 401 to a signed-out visitor', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/addresses' })).statusCode).toBe(401);
  });

  it('saves an address once, whatever its case and spacing, and moves it first when used again', async () => {
    const products = await Promise.all([shipped(), shipped(), shipped()]);
    await checkoutOk(buyer.cookie, products[0].id, withAddress(TEST_ADDRESS));
    const home = { ...TEST_ADDRESS, line1: '22 Vinyl Road', postalCode: 'BS2 0AA' };
    await checkoutOk(buyer.cookie, products[1].id, withAddress(home));
    expect((await savedAddresses(buyer.cookie)).map((a) => a.line1)).toEqual([
      '22 Vinyl Road',
      '1 Record Lane',
    ]);

    // The first again, typed differently: no new row, and it is the most recent now.
    await checkoutOk(
      buyer.cookie,
      products[2].id,
      withAddress({
        ...TEST_ADDRESS,
        name: 'ada  BUYER',
        line1: ' 1 record lane',
        postalCode: 'bs14dj',
        country: 'gb',
      }),
    );
    const saved = await savedAddresses(buyer.cookie);
    expect(saved.map((a) => a.line1)).toEqual(['1 Record Lane', '22 Vinyl Road']);
    expect(saved[0]).toMatchObject({ ...TEST_ADDRESS, line2: null, region: null });
    expect(typeof saved[0]?.id).toBe('string');
    expect(Date.parse(String(saved[0]?.lastUsedAt))).toBeGreaterThan(
      Date.parse(String(saved[1]?.lastUsedAt)),
    );
  });

  it('lists at most 5, the most recently used first', async () => {
    const product = await shipped();
    // Re-opening one hold with a new address each time saves each address.
    for (let i = 1; i <= 7; i += 1) {
      await checkoutOk(buyer.cookie, product.id, withAddress({ ...TEST_ADDRESS, line1: `${i} Record Lane` }));
    }
    expect((await savedAddresses(buyer.cookie)).map((a) => a.line1)).toEqual([
      '7 Record Lane',
      '6 Record Lane',
      '5 Record Lane',
      '4 Record Lane',
      '3 Record Lane',
    ]);
    // Settings lists every one kept.
    expect((await savedAddresses(buyer.cookie, '?all=true')).map((a) => a.line1)).toEqual(
      [7, 6, 5, 4, 3, 2, 1].map((i) => `${i} Record Lane`),
    );
    const bad = await t.app.inject({ url: '/api/addresses?all=yes', headers: { cookie: buyer.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ all: 'all must be true or false' });
  });

  it('never shows one buyer’s addresses to another', async () => {
    const product = await shipped();
    await checkoutOk(buyer.cookie, product.id, withAddress(TEST_ADDRESS));
    const other = await signUp(t.app);
    expect(await savedAddresses(other.cookie)).toEqual([]);
    expect(await savedAddresses(buyer.cookie)).toHaveLength(1);
  });

  it('saves nothing when the checkout is refused', async () => {
    const soldOut = await shipped({ stock: 0 });
    const refused = await checkout(buyer.cookie, soldOut.id, withAddress(TEST_ADDRESS));
    expect(refused.statusCode).toBe(409);
    expect(await savedAddresses(buyer.cookie)).toEqual([]);
  });
});

describe('DELETE /api/addresses/:id', () => {
  const remove = (id: string, cookie?: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/addresses/${id}`, headers: cookie ? { cookie } : {} });

  /** The buyer's saved addresses after checkouts to each of `lines`. */
  async function saveAddresses(...lines: string[]) {
    const product = await shipped();
    for (const line1 of lines)
      await checkoutOk(buyer.cookie, product.id, withAddress({ ...TEST_ADDRESS, line1 }));
    return savedAddresses(buyer.cookie, '?all=true');
  }

  it('answers 401 to a signed-out visitor, before looking at the id', async () => {
    const [saved] = await saveAddresses('1 Record Lane');
    expect((await remove(String(saved?.id))).statusCode).toBe(401);
    expect((await remove('not-an-id')).statusCode).toBe(401);
    expect(await savedAddresses(buyer.cookie)).toHaveLength(1);
  });

  it('forgets one of the caller’s addresses (204), and answers 404 the second time', async () => {
    const saved = await saveAddresses('1 Record Lane', '22 Vinyl Road');
    const vinylRoad = saved.find((a) => a.line1 === '22 Vinyl Road');
    const removed = await remove(String(vinylRoad?.id), buyer.cookie);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await savedAddresses(buyer.cookie, '?all=true')).map((a) => a.line1)).toEqual(['1 Record Lane']);
    expect((await remove(String(vinylRoad?.id), buyer.cookie)).statusCode).toBe(404);
  });

  it('answers 404 for another buyer’s address and leaves it, 404 for an unknown one, 400 for a malformed id', async () => {
    const [theirs] = await saveAddresses('1 Record Lane');
    const other = await signUp(t.app);
    const refused = await remove(String(theirs?.id), other.cookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Address not found' });
    expect(await savedAddresses(buyer.cookie)).toHaveLength(1);
    expect((await remove('6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab', buyer.cookie)).statusCode).toBe(404);
    const malformed = await remove('not-an-id', buyer.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ id: 'id must be an address id' });
  });

  it('changes no order: the order keeps its own copy of the address', async () => {
    const product = await shipped({ priceCents: 3000, shippingCents: 500 });
    const session = await checkoutOk(buyer.cookie, product.id, withAddress(TEST_ADDRESS));
    expect((await payWithCard(t.app, session.clientSecret)).json()).toEqual({ status: 'succeeded' });
    const [saved] = await savedAddresses(buyer.cookie);
    expect((await remove(String(saved?.id), buyer.cookie)).statusCode).toBe(204);
    expect(await savedAddresses(buyer.cookie, '?all=true')).toEqual([]);

    const orders = await t.app.inject({ url: '/api/orders?role=buyer', headers: { cookie: buyer.cookie } });
    expect(orders.json().orders[0]).toMatchObject({
      amountCents: 3500,
      shippingAddress: { ...TEST_ADDRESS, line2: null, region: null },
    });
  });
});
