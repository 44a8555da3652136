import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { payWithCard } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

/**
 * Pro's 30-day money-back guarantee through the API, on the local provider: the provider gives the
 * first payment back and ends the subscription, the account is free at once, a live stream keeps its
 * limits, and the guarantee works once per account.
 */

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signUp>>;
const local = () => t.app.payments as LocalProvider;
const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const planOf = async (user: User) => (await call('GET', '/api/auth/user', user.cookie)).json().plan;
const subscriptionOf = async (user: User) =>
  (await call('GET', '/api/subscription', user.cookie)).json().subscription;
const refund = (user?: User) => call('POST', '/api/subscription/refund', user?.cookie);

async function proUser(): Promise<User> {
  const user = await signUp(t.app);
  await subscribe(user);
  return user;
}

async function subscribe(user: User) {
  const session = await call('POST', '/api/create-subscription', user.cookie);
  expect(session.statusCode, session.body).toBe(200);
  const paid = await payWithCard(t.app, session.json().clientSecret, TEST_CARDS.success);
  expect(paid.json().status).toBe('succeeded');
  expect(await planOf(user)).toBe('pro');
}

/** The provider's own record of the subscription's first payment. */
async function firstPaymentAtProvider(user: User): Promise<string | undefined> {
  const { rows } = await t.database.pool.query(
    `select i.status from local_payment_intents i
       join subscriptions s on s.provider_ref = i.subscription_id
     where s.user_id = $1 order by s.created_at limit 1`,
    [user.user.id],
  );
  return rows[0]?.status;
}

/** Moves the first payment `days` days into the past. */
async function paidDaysAgo(user: User, days: number) {
  await t.database.pool.query(
    `update subscriptions set first_paid_at = now() - make_interval(days => $2) where user_id = $1`,
    [user.user.id, days],
  );
}

async function newRoom(user: User, title = 'Money-back show') {
  const created = await call('POST', '/api/rooms', user.cookie, { title });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().roomName as string;
}
const streamOf = async (room: string) => (await call('GET', `/api/streams/${room}`)).json();

describe('POST /api/subscription/refund', () => {
  it('answers 401 signed out and 409 to an account without a subscription', async () => {
    expect((await refund()).statusCode).toBe(401);
    const free = await signUp(t.app);
    const response = await refund(free);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('You have no active Pro subscription to refund.');
  });

  it('offers the refund until 30 days after the first payment', async () => {
    const user = await proUser();
    const offered = await subscriptionOf(user);
    const until = Date.parse(offered.refundableUntil);
    expect(until).toBeGreaterThan(Date.now() + 29.9 * 86_400_000);
    expect(until).toBeLessThan(Date.now() + 30.1 * 86_400_000);
    expect(offered.refundedAt).toBeNull();
  });

  it('refunds at the provider, ends the subscription and returns the account to free at once', async () => {
    const user = await proUser();
    expect(await firstPaymentAtProvider(user)).toBe('succeeded');
    const response = await refund(user);
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json().subscription;
    expect(answered.status).toBe('expired');
    expect(answered.refundableUntil).toBeNull();
    expect(Date.parse(answered.refundedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await planOf(user)).toBe('free');
    expect(await subscriptionOf(user)).toEqual(answered);
    expect(await firstPaymentAtProvider(user)).toBe('refunded');
    // The provider ended it: nothing renews, and the plan stays free.
    await t.database.pool.query(
      `update local_subscriptions set current_period_end = now() - interval '1 second'
       where id = (select provider_ref from subscriptions where user_id = $1)`,
      [user.user.id],
    );
    expect(await local().renewDue()).toBe(0);
    expect(await planOf(user)).toBe('free');
  });

  it('lets a live stream keep its Pro limits until it ends; streams not started go free', async () => {
    const user = await proUser();
    const live = await newRoom(user, 'Live while refunded');
    const later = await newRoom(user, 'Planned for later');
    expect((await call('POST', `/api/streams/${live}/start`, user.cookie)).statusCode).toBe(200);
    const before = await streamOf(live);
    expect(before.durationSec).toBe(900);

    expect((await refund(user)).statusCode).toBe(200);
    const after = await streamOf(live);
    expect(after.isActive).toBe(true);
    expect(after.durationSec).toBe(900);
    expect(after.endsAt).toBe(before.endsAt);
    expect((await streamOf(later)).durationSec).toBe(99);
    expect((await streamOf(await newRoom(user, 'After the refund'))).durationSec).toBe(99);
  });

  it('refuses once the 30 days are over, saying when they ended; cancelling still works', async () => {
    const user = await proUser();
    await paidDaysAgo(user, 31);
    expect((await subscriptionOf(user)).refundableUntil).toBeNull();
    const response = await refund(user);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(
      /^The 30-day money-back guarantee ended on [A-Z][a-z]+ \d{1,2}, \d{4}\. You can still cancel at the end of the billing period\.$/,
    );
    expect(await planOf(user)).toBe('pro');
    expect(await firstPaymentAtProvider(user)).toBe('succeeded');
    expect((await call('POST', '/api/subscription/cancel', user.cookie)).statusCode).toBe(200);
  });

  it('works once per account: a second subscription is not refundable', async () => {
    const user = await proUser();
    expect((await refund(user)).statusCode).toBe(200);
    await subscribe(user);
    expect((await subscriptionOf(user)).refundableUntil).toBeNull();
    const response = await refund(user);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(
      /^The money-back guarantee can be used once per account, and yours was used on .+\. You can still cancel at the end of the billing period\.$/,
    );
    expect(await planOf(user)).toBe('pro');
  });

  it('keeps Pro when the provider fails, and a retry finishes the same refund', async () => {
    const user = await proUser();
    const provider = local();
    const real = provider.refundSubscription;
    provider.refundSubscription = async () => {
      throw new Error('connection reset by the provider');
    };
    try {
      const failed = await refund(user);
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toContain('The payment provider could not be reached');
    } finally {
      provider.refundSubscription = real;
    }
    expect(await planOf(user)).toBe('pro');
    expect((await subscriptionOf(user)).refundableUntil).not.toBeNull();
    expect(await firstPaymentAtProvider(user)).toBe('succeeded');

    // Even past the 30 days, the refund asked for in time goes through.
    await paidDaysAgo(user, 31);
    expect((await refund(user)).statusCode).toBe(200);
    expect(await planOf(user)).toBe('free');
    expect(await firstPaymentAtProvider(user)).toBe('refunded');
  });

  it('refunds once when asked twice at the same time', async () => {
    const user = await proUser();
    const answers = await Promise.all([refund(user), refund(user)]);
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([200, 409]).toContain(codes[1]);
    expect(await planOf(user)).toBe('free');
    const { rows } = await t.database.pool.query(
      `select count(*)::int as n from local_webhook_events e
       where e.payload like '%subscription.ended%'
         and e.payload like '%' || (select provider_ref from subscriptions where user_id = $1) || '%'`,
      [user.user.id],
    );
    expect(rows[0].n).toBe(1);
  });
});
