import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWithCard } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';

/**
 * The money-back guarantee is used once: not again by a new account with the same address after
 * the first was deleted, and not twice by requests sent at the same time (the extra ones are told
 * it is under way or used, never that it ended).
 */

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(async () => {
  await t.close();
});

const USED =
  /^The money-back guarantee can be used once per account, and yours was used on [A-Z][a-z]+ \d{1,2}, \d{4}\.( You can still cancel at the end of the billing period\.)?$/;
const PROCESSING = 'Your money-back refund is already being processed.';

type User = Awaited<ReturnType<typeof signUpFrom>>;

const signUp = (overrides: Record<string, unknown> = {}) => signUpFrom(t.app, '10.32', overrides);

const call = (method: 'GET' | 'POST', url: string, user: User, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: user.cookie },
    remoteAddress: user.ip,
    ...(payload ? { payload } : {}),
  });
const planOf = async (user: User) => (await call('GET', '/api/auth/user', user)).json().plan;
const subscriptionOf = async (user: User) =>
  (await call('GET', '/api/subscription', user)).json().subscription;
const refund = (user: User) => call('POST', '/api/subscription/refund', user);

async function subscribe(user: User) {
  const session = await call('POST', '/api/create-subscription', user);
  expect(session.statusCode, session.body).toBe(200);
  const paid = await payWithCard(t.app, session.json().clientSecret, TEST_CARDS.success);
  expect(paid.json().status).toBe('succeeded');
  expect(await planOf(user)).toBe('pro');
}

describe('the money-back guarantee, once per address', () => {
  it('is not offered again to a new account with the address of a deleted one that used it', async () => {
    const first = await signUp();
    await subscribe(first);
    expect((await refund(first)).statusCode).toBe(200);
    const deleted = await call('POST', '/api/account/delete', first, { password: first.password });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const again = await signUp({ email: `  ${first.email.toUpperCase()}` });
    await subscribe(again);
    expect((await subscriptionOf(again)).refundableUntil).toBeNull();
    const response = await refund(again);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toMatch(USED);
    expect(await planOf(again)).toBe('pro');
  });

  it('is not offered again after the account that used it changes its address', async () => {
    const user = await signUp();
    await subscribe(user);
    expect((await refund(user)).statusCode).toBe(200);
    // The address changes (as a confirmed email change does), and a new subscription starts.
    await t.database.pool.query('update users set email = $2 where id = $1', [
      user.id,
      `changed_${user.email}`,
    ]);
    await subscribe(user);
    expect((await subscriptionOf(user)).refundableUntil).toBeNull();
    expect((await refund(user)).json().message).toMatch(USED);
  });

  it('is still offered to an account with another address', async () => {
    const user = await signUp();
    await subscribe(user);
    expect((await subscriptionOf(user)).refundableUntil).not.toBeNull();
  });
});

describe('money-back requests sent at the same time', () => {
  it('refund once; the others are told it is under way or used, never that it ended', async () => {
    const user = await signUp();
    await subscribe(user);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(user)));
    const succeeded = answers.filter((answer) => answer.statusCode === 200);
    expect(succeeded, answers.map((answer) => answer.body).join('\n')).toHaveLength(1);
    for (const answer of answers) {
      if (answer.statusCode === 200) continue;
      expect(answer.statusCode, answer.body).toBe(409);
      const { message } = answer.json();
      expect(message).not.toMatch(/ended on/);
      expect(message === PROCESSING || USED.test(message), message).toBe(true);
    }
    expect(await planOf(user)).toBe('free');
    const { rows } = await t.database.pool.query(
      `select
         (select count(*)::int from local_webhook_events e
           where e.payload like '%subscription.ended%' and e.payload like '%' || s.provider_ref || '%') as ended,
         (select count(*)::int from local_payment_intents i
           where i.subscription_id = s.provider_ref and i.status = 'refunded') as refunded,
         (select count(*)::int from mail_outbox m where m.dedupe_key = 'pro-refund:' || s.id) as mails
       from subscriptions s where s.user_id = $1`,
      [user.id],
    );
    expect(rows).toEqual([{ ended: 1, refunded: 1, mails: 1 }]);
    // Asked again afterwards: used.
    const later = await refund(user);
    expect(later.statusCode).toBe(409);
    expect(later.json().message).toMatch(USED);
  });
});
