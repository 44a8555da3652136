import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWithCard } from '../../test/payments.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { DISC_FORM_BODY_LIMIT } from './routes.ts';
import { DISC_FORM_LIMITS } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let addressCount = 0;
/** Each test posts from its own client address, so the per-IP limit of one never leaks into another. */
function newClient() {
  addressCount += 1;
  const remoteAddress = `10.7.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
  return (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
}

let emailCount = 0;
const newEmail = () => {
  emailCount += 1;
  return `fan_${process.pid % 1000}_${emailCount}@example.com`;
};

const count = async (sql: string, params: unknown[]) =>
  (await t.database.pool.query(sql, params)).rows[0]?.n as number;

describe('POST /api/beta-signup', () => {
  it('records the email trimmed and lower-cased with its source', async () => {
    const post = newClient();
    const email = newEmail();
    const response = await post('/api/beta-signup', { email: `  ${email.toUpperCase()}  `, source: 'music' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });
    const { rows } = await t.database.pool.query('select email, source from beta_signups where email = $1', [
      email,
    ]);
    expect(rows).toEqual([{ email, source: 'music' }]);
  });

  it.each([
    ['a blank email', { email: '   ' }, 'Email is required'],
    ['a missing email', {}, 'Email is required'],
    ['an address without a domain dot', { email: 'fan@example' }, 'Please enter a valid email address.'],
    ['an address with spaces', { email: 'f an@example.com' }, 'Please enter a valid email address.'],
    ['a number', { email: 42 }, undefined],
  ])('rejects %s with 400 naming email', async (_case, body, reason) => {
    const response = await newClient()('/api/beta-signup', body);
    expect(response.statusCode).toBe(400);
    const error = response.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.fields)).toEqual(['email']);
    if (reason) expect(error.fields.email).toBe(reason);
  });

  it('rejects an unknown source with 400 naming source', async () => {
    const response = await newClient()('/api/beta-signup', { email: newEmail(), source: 'billboard' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toEqual(['source']);
  });

  it("answers a repeated email, in any case, with 409 and the spec's message", async () => {
    const post = newClient();
    const email = newEmail();
    expect((await post('/api/beta-signup', { email })).statusCode).toBe(201);
    const again = await post('/api/beta-signup', { email: ` ${email.toUpperCase()}` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'This email is already registered for beta access!' });
    expect(await count('select count(*)::int as n from beta_signups where email = $1', [email])).toBe(1);
  });

  it('refuses an oversized body with 413', async () => {
    const response = await newClient()('/api/beta-signup', {
      email: newEmail(),
      padding: 'x'.repeat(DISC_FORM_BODY_LIMIT),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('POST /api/pre-order', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: '  Nia Okafor ',
    email: newEmail(),
    quantity: 10,
    totalPrice: '35.00',
    ...overrides,
  });

  it('stores the pre-order with the total computed from the tier table', async () => {
    const input = body();
    const response = await newClient()('/api/pre-order', input);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ quantity: 10, totalPrice: '35.00' });
    const { rows } = await t.database.pool.query(
      'select name, quantity, total_price_cents from newsletter_preorders where email = $1',
      [input.email],
    );
    expect(rows).toEqual([{ name: 'Nia Okafor', quantity: 10, total_price_cents: 3500 }]);
  });

  it.each([
    [1, '5.00'],
    [9, '45.00'],
    [49, '171.50'],
    [50, '137.50'],
    [100, '250.00'],
  ])('accepts %i discs at %s', async (quantity, totalPrice) => {
    const response = await newClient()('/api/pre-order', body({ quantity, totalPrice }));
    expect(response.statusCode).toBe(201);
    expect(response.json().totalPrice).toBe(totalPrice);
  });

  it('refuses a tampered total with 400 naming totalPrice, and stores nothing', async () => {
    const input = body({ quantity: 100, totalPrice: '1.00' });
    const response = await newClient()('/api/pre-order', input);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toEqual(['totalPrice']);
    expect(response.json().message).toContain('totalPrice');
    expect(
      await count('select count(*)::int as n from newsletter_preorders where email = $1', [input.email]),
    ).toBe(0);
  });

  it.each([
    ['name', { name: '   ' }],
    ['email', { email: 'nope' }],
    ['quantity', { quantity: 0 }],
    ['quantity', { quantity: 2.5 }],
    ['quantity', { quantity: '10' }],
    ['totalPrice', { totalPrice: '35' }],
    ['totalPrice', { totalPrice: undefined }],
  ])('rejects a bad %s with 400 (%j)', async (field, override) => {
    const response = await newClient()('/api/pre-order', body(override));
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toContain(field);
  });

  it("answers a second pre-order for the same email with 409 and the spec's message", async () => {
    const post = newClient();
    const email = newEmail();
    expect((await post('/api/pre-order', body({ email }))).statusCode).toBe(201);
    const again = await post(
      '/api/pre-order',
      body({ email: email.toUpperCase(), quantity: 1, totalPrice: '5.00' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'This email already has a pre-order!' });
  });
});

describe('POST /api/stream-disc-orders', () => {
  const order = (overrides: Record<string, unknown> = {}) => ({
    name: 'Marcus Bell',
    email: newEmail(),
    phone: ' ',
    company: '  Bell Records ',
    quantity: 250,
    shippingAddress: '12 Harbor Street',
    city: 'Portland',
    state: 'OR',
    zipCode: '97201',
    ...overrides,
  });

  it('stores the order trimmed, with blank phone dropped and country US by default', async () => {
    const input = order();
    const response = await newClient()('/api/stream-disc-orders', input);
    expect(response.statusCode).toBe(201);
    expect(response.json().id).toEqual(expect.any(String));
    const { rows } = await t.database.pool.query(
      'select phone, company, quantity, country, city from disc_orders where email = $1',
      [input.email],
    );
    expect(rows).toEqual([
      { phone: null, company: 'Bell Records', quantity: 250, country: 'US', city: 'Portland' },
    ]);
  });

  it('keeps a given country and defaults quantity to 1', async () => {
    const input = order({ quantity: undefined, country: 'CA' });
    expect((await newClient()('/api/stream-disc-orders', input)).statusCode).toBe(201);
    const { rows } = await t.database.pool.query(
      'select quantity, country from disc_orders where email = $1',
      [input.email],
    );
    expect(rows).toEqual([{ quantity: 1, country: 'CA' }]);
  });

  it.each([
    ['name', { name: '' }],
    ['email', { email: 'marcus@' }],
    ['shippingAddress', { shippingAddress: '  ' }],
    ['city', { city: undefined }],
    ['state', { state: '' }],
    ['zipCode', { zipCode: '   ' }],
    ['quantity', { quantity: 0 }],
    ['quantity', { quantity: 1001 }],
    ['quantity', { quantity: 'ten' }],
  ])('rejects a bad %s with 400 naming it (%j)', async (field, override) => {
    const response = await newClient()('/api/stream-disc-orders', order(override));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
    expect(Object.keys(response.json().fields)).toContain(field);
  });
});

describe('POST /api/stream-disc/pre-order (the $1 reservation)', () => {
  it('opens a $1 payment page and confirms the pre-order only when the payment succeeds', async () => {
    const post = newClient();
    const email = newEmail();
    const response = await post('/api/stream-disc/pre-order', { name: ' Rae Fan ', email, phone: '' });
    expect(response.statusCode).toBe(201);
    const { checkoutUrl } = response.json();
    expect(checkoutUrl).toMatch(/^http:\/\/localhost:3000\/pay\/pi_local_[0-9a-f]+$/);
    const preorder = async () =>
      (
        await t.database.pool.query('select name, phone, status from disc_preorders where email = $1', [
          email,
        ])
      ).rows[0];
    expect(await preorder()).toEqual({ name: 'Rae Fan', phone: null, status: 'pending' });

    const id = checkoutUrl.split('/').pop();
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/local/hosted/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      amountCents: 100,
      status: 'open',
      successUrl: 'http://localhost:3000/stream-disc?preorder=success',
      cancelUrl: 'http://localhost:3000/stream-disc?preorder=cancelled',
    });

    const declined = await payWithCard(t.app, page.json().clientSecret, TEST_CARDS.declined);
    expect(declined.json().status).toBe('failed');
    expect((await preorder()).status).toBe('pending');
    const paid = await payWithCard(t.app, page.json().clientSecret);
    expect(paid.json().status).toBe('succeeded');
    expect((await preorder()).status).toBe('paid');
    const after = await t.app.inject({ method: 'GET', url: `/api/payments/local/hosted/${id}` });
    expect(after.json().status).toBe('paid');
  });

  it.each([
    ['name', { name: '   ' }],
    ['email', { email: 'not-an-email' }],
    ['phone', { phone: 'x'.repeat(41) }],
  ])('rejects a bad %s with 400 naming it', async (field, override) => {
    const response = await newClient()('/api/stream-disc/pre-order', {
      name: 'Rae',
      email: newEmail(),
      ...override,
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toContain(field);
  });

  it('answers 404 for an unknown payment page and 413 for an oversized body', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/payments/local/hosted/pi_local_nope' })).statusCode,
    ).toBe(404);
    const huge = await newClient()('/api/stream-disc/pre-order', {
      name: 'x'.repeat(DISC_FORM_BODY_LIMIT),
      email: 'a@b.co',
    });
    expect(huge.statusCode).toBe(413);
  });

  it('is rate-limited per address', async () => {
    const post = newClient();
    for (let i = 0; i < DISC_FORM_LIMITS.perIp; i += 1) {
      expect((await post('/api/stream-disc/pre-order', {})).statusCode).toBe(400);
    }
    expect((await post('/api/stream-disc/pre-order', {})).statusCode).toBe(429);
  });
});

describe('rate limit on the public forms', () => {
  it('answers 429 with Retry-After once an address sends too many', async () => {
    const post = newClient();
    for (let i = 0; i < DISC_FORM_LIMITS.perIp; i += 1) {
      const response = await post('/api/beta-signup', { email: newEmail() });
      expect(response.statusCode).toBe(201);
    }
    const limited = await post('/api/beta-signup', { email: newEmail() });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe('RATE_LIMITED');
    // Another address is not affected.
    expect((await newClient()('/api/beta-signup', { email: newEmail() })).statusCode).toBe(201);
  });

  it('counts invalid submissions too', async () => {
    const post = newClient();
    for (let i = 0; i < DISC_FORM_LIMITS.perIp; i += 1) {
      expect((await post('/api/stream-disc-orders', {})).statusCode).toBe(400);
    }
    expect((await post('/api/stream-disc-orders', {})).statusCode).toBe(429);
  });
});
