import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { LOCAL_SIGNATURE_HEADER } from '../../platform/payments/local-signature.ts';
import { payWithCard } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { WEBHOOK_PATH } from './routes.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(async () => {
  await t.close();
});

const local = () => t.app.payments as LocalProvider;
const call = (method: 'GET' | 'POST', url: string, cookie?: string) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {} });
const planOf = async (cookie: string) => (await call('GET', '/api/auth/user', cookie)).json().plan;

async function subscribe(cookie: string, card: string = TEST_CARDS.success) {
  const session = await call('POST', '/api/create-subscription', cookie);
  expect(session.statusCode, session.body).toBe(200);
  expect(session.json().amountCents).toBe(999);
  return payWithCard(t.app, session.json().clientSecret, card);
}

/** Moves the end of the user's paid period into the past, at the provider and here. */
async function endPeriodNow(userId: string) {
  const ref = await t.database.pool.query(
    `select provider_ref from subscriptions where user_id = $1 and status = 'active'`,
    [userId],
  );
  await t.database.pool.query(
    `update local_subscriptions set current_period_end = now() - interval '1 second' where id = $1`,
    [ref.rows[0].provider_ref],
  );
}

describe('POST /api/create-subscription', () => {
  it('answers 401 signed out', async () => {
    expect((await call('POST', '/api/create-subscription')).statusCode).toBe(401);
  });

  it('keeps the plan free until the payment is confirmed, and free after a declined card', async () => {
    const user = await signUp(t.app);
    const session = await call('POST', '/api/create-subscription', user.cookie);
    expect(session.statusCode).toBe(200);
    expect(await planOf(user.cookie)).toBe('free');
    const again = await call('POST', '/api/create-subscription', user.cookie);
    expect(again.json().clientSecret).toBe(session.json().clientSecret);
    const declined = await payWithCard(t.app, session.json().clientSecret, TEST_CARDS.declined);
    expect(declined.json().status).toBe('failed');
    expect(await planOf(user.cookie)).toBe('free');
  });

  it('makes the user pro on payment, lengthens their streams, and refuses a second subscription', async () => {
    const user = await signUp(t.app);
    expect((await subscribe(user.cookie)).json().status).toBe('succeeded');
    expect(await planOf(user.cookie)).toBe('pro');
    const room = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: user.cookie },
      payload: { title: 'Longer show' },
    });
    expect(room.json().stream.durationSec).toBe(900);
    const second = await call('POST', '/api/create-subscription', user.cookie);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Already Pro');
    const mine = (await call('GET', '/api/subscription', user.cookie)).json().subscription;
    expect(mine.status).toBe('active');
    expect(mine.cancelAtPeriodEnd).toBe(false);
    expect(Date.parse(mine.currentPeriodEnd)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  });
});

describe('cancelling Pro', () => {
  it('keeps pro until the paid period ends, then returns the account to free', async () => {
    const user = await signUp(t.app);
    await subscribe(user.cookie);
    const cancelled = await call('POST', '/api/subscription/cancel', user.cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().subscription.cancelAtPeriodEnd).toBe(true);
    expect(await planOf(user.cookie)).toBe('pro');

    await endPeriodNow(user.user.id);
    await local().renewDue();
    expect(await planOf(user.cookie)).toBe('free');
    expect((await call('GET', '/api/subscription', user.cookie)).json().subscription.status).toBe('expired');
    // And they can subscribe again.
    expect((await subscribe(user.cookie)).json().status).toBe('succeeded');
    expect(await planOf(user.cookie)).toBe('pro');
  });

  it('renews an uncancelled subscription at the end of its period', async () => {
    const user = await signUp(t.app);
    await subscribe(user.cookie);
    const before = (await call('GET', '/api/subscription', user.cookie)).json().subscription.currentPeriodEnd;
    await endPeriodNow(user.user.id);
    await local().renewDue();
    const after = (await call('GET', '/api/subscription', user.cookie)).json().subscription;
    expect(after.status).toBe('active');
    expect(Date.parse(after.currentPeriodEnd)).toBeGreaterThan(Date.parse(before) - 1000);
    expect(await planOf(user.cookie)).toBe('pro');
  });

  it('answers 409 to a user without a subscription and 401 signed out', async () => {
    const user = await signUp(t.app);
    expect((await call('POST', '/api/subscription/cancel', user.cookie)).statusCode).toBe(409);
    expect((await call('POST', '/api/subscription/cancel')).statusCode).toBe(401);
  });
});

describe('subscription events out of order', () => {
  it('ignores a payment event older than the end it arrives after', async () => {
    const user = await signUp(t.app);
    await subscribe(user.cookie);
    const { rows } = await t.database.pool.query(
      `select provider_ref from subscriptions where user_id = $1`,
      [user.user.id],
    );
    const subscriptionRef = rows[0].provider_ref;
    const now = Date.now();
    const ended = JSON.stringify({
      id: 'evt_test_ended',
      createdAt: new Date(now + 2000).toISOString(),
      type: 'subscription.ended',
      subscriptionRef,
    });
    const latePaid = JSON.stringify({
      id: 'evt_test_late_paid',
      createdAt: new Date(now + 1000).toISOString(),
      type: 'subscription.paid',
      subscriptionRef,
      periodEnd: new Date(now + 40 * 86_400_000).toISOString(),
    });
    for (const body of [ended, latePaid]) {
      const response = await t.app.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: local().sign(body) },
        payload: body,
      });
      expect(response.statusCode).toBe(200);
    }
    expect(await planOf(user.cookie)).toBe('free');
  });
});
