import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { LOCAL_SIGNATURE_HEADER } from '../../platform/payments/local-signature.ts';
import { eventually } from '../../test/eventually.ts';
import { receivedOnceSent, useMailTestApp } from '../../test/mail-test-app.ts';
import { payWithCard } from '../../test/payments.ts';
import type { TestSmtpServer } from '../../test/smtp-server.ts';
import { signUp, type TestApp } from '../../test/test-app.ts';
import { formatLongDate } from './mail.ts';
import { WEBHOOK_PATH } from './routes.ts';

/** Pro's receipts and notices, received by a real SMTP server on 127.0.0.1 (ADR 0015). */

let smtp: TestSmtpServer;
let t: TestApp;

useMailTestApp((started) => {
  ({ smtp, t } = started);
});

type User = Awaited<ReturnType<typeof signUp>>;
const local = () => t.app.payments as LocalProvider;
const call = (url: string, user: User) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie } });
const receivedBy = (user: User) => smtp.received.filter((m) => m.to === user.email);
const mailTo = (user: User, subject: string | RegExp) =>
  smtp.waitFor(
    (m) =>
      m.to === user.email && (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)),
  );

/** Counts what `user` got once everything queued to them went out: a second message would have arrived. */
async function countAfterSending(user: User, subject: string): Promise<number> {
  return (await receivedOnceSent({ smtp, t }, user.email)).filter((m) => m.subject === subject).length;
}

async function proUser(): Promise<User> {
  const user = await signUp(t.app, { firstName: 'Grace' });
  const session = await call('/api/create-subscription', user);
  expect(session.statusCode, session.body).toBe(200);
  const paid = await payWithCard(t.app, session.json().clientSecret, TEST_CARDS.success);
  expect(paid.json().status).toBe('succeeded');
  return user;
}

const periodEndOf = async (user: User) => {
  const { rows } = await t.database.pool.query(
    `select current_period_end from subscriptions where user_id = $1 and status = 'active'`,
    [user.user.id],
  );
  return new Date(rows[0].current_period_end);
};

/** The provider's subscription.paid events for the user's subscription, oldest first. */
async function paidEventsOf(user: User): Promise<string[]> {
  const { rows } = await t.database.pool.query(
    `select e.payload from local_webhook_events e join subscriptions s
       on e.payload like '%' || s.provider_ref || '%'
     where s.user_id = $1 and e.payload like '%"subscription.paid"%' order by e.created_at`,
    [user.user.id],
  );
  return rows.map((r) => r.payload as string);
}

const RECEIPT = 'Your StreamShop Pro receipt ($9.99)';

describe('the Pro receipt', () => {
  it('goes to the account on each paid invoice, with the amount, the paid period and the guarantee', async () => {
    const user = await proUser();
    const mail = await mailTo(user, RECEIPT);
    const [event] = await paidEventsOf(user);
    const invoiceRef = JSON.parse(event ?? '{}').invoiceRef;
    expect(invoiceRef).toMatch(/^in_local_/);
    expect(mail.text).toContain('Welcome to Pro, Grace!');
    expect(mail.text).toContain('We received your payment of $9.99 for one month of StreamShop Pro');
    expect(mail.text).toContain(`Receipt number: ${invoiceRef}.`);
    expect(mail.text).toContain(`Pro runs until ${formatLongDate(await periodEndOf(user))}, when it renews`);
    expect(mail.text).toContain('30-day money-back guarantee you get the full $9.99 back');
    expect(mail.text).toContain('Open your dashboard: http://localhost:3000/dashboard');

    // The month renews: a second invoice, a second receipt (no welcome, no guarantee).
    await t.database.pool.query(
      `update local_subscriptions set current_period_end = now() - interval '1 second'
       where id = (select provider_ref from subscriptions where user_id = $1 and status = 'active')`,
      [user.user.id],
    );
    await local().renewDue();
    await eventually(
      'the second receipt',
      () => receivedBy(user).filter((m) => m.subject === RECEIPT).length === 2,
    );
    const renewal = receivedBy(user).filter((m) => m.subject === RECEIPT)[1];
    expect(renewal?.text).toContain('Thanks, Grace: your Pro subscription renewed');
    expect(renewal?.text).not.toContain('money-back');
  });

  it('is not sent again when the provider sends the same event again', async () => {
    const user = await proUser();
    await mailTo(user, RECEIPT);
    const [event] = await paidEventsOf(user);
    const replay = await t.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: local().sign(event ?? '') },
      payload: event,
    });
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await countAfterSending(user, RECEIPT)).toBe(1);
  });

  it('is sent once for an invoice the provider announces in two events (as Stripe’s invoice.paid and invoice.payment_succeeded)', async () => {
    const user = await proUser();
    await mailTo(user, RECEIPT);
    const [event] = await paidEventsOf(user);
    const second = JSON.stringify({ ...JSON.parse(event ?? '{}'), id: 'evt_local_second_of_the_invoice' });
    const delivered = await t.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: local().sign(second) },
      payload: second,
    });
    expect(delivered.json()).toEqual({ received: true, duplicate: false });
    expect(await countAfterSending(user, RECEIPT)).toBe(1);
  });
});

describe('the cancellation notice', () => {
  it('says until when Pro stays, once however often the owner cancels', async () => {
    const user = await proUser();
    const paidUntil = formatLongDate(await periodEndOf(user));
    expect((await call('/api/subscription/cancel', user)).statusCode).toBe(200);
    const subject = `Your StreamShop Pro ends on ${paidUntil}`;
    const mail = await mailTo(user, subject);
    expect(mail.text).toContain(`Pro stays until ${paidUntil}`);
    expect(mail.text).toContain('you will not be charged again');
    expect(mail.html).toContain('href="http://localhost:3000/dashboard"');

    expect((await call('/api/subscription/cancel', user)).statusCode).toBe(200);
    expect(await countAfterSending(user, subject)).toBe(1);
  });

  it('is sent after SMTP comes back, while the cancel itself succeeds during the outage', async () => {
    const user = await proUser();
    await mailTo(user, RECEIPT);
    const paidUntil = formatLongDate(await periodEndOf(user));
    await smtp.stop();
    try {
      const cancelled = await call('/api/subscription/cancel', user);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().subscription.cancelAtPeriodEnd).toBe(true);
      await untilSendingFailed(user);
    } finally {
      await smtp.start();
    }
    // Its retry is due now instead of after the backoff.
    await t.database.pool.query(`update mail_outbox set next_attempt_at = now() where to_address = $1`, [
      user.email,
    ]);
    const mail = await mailTo(user, `Your StreamShop Pro ends on ${paidUntil}`);
    expect(mail.text).toContain(`Pro stays until ${paidUntil}`);
    expect(await countAfterSending(user, mail.subject)).toBe(1);
  });
});

describe('the money-back refund notice', () => {
  it('says what was refunded and that the account is free now', async () => {
    const user = await proUser();
    const refunded = await call('/api/subscription/refund', user);
    expect(refunded.statusCode, refunded.body).toBe(200);
    const subject = 'We refunded $9.99 for StreamShop Pro';
    const mail = await mailTo(user, subject);
    expect(mail.text).toContain('Your $9.99 is on its way back');
    expect(mail.text).toContain('Your account is on the free plan now');
    expect(await countAfterSending(user, subject)).toBe(1);
  });

  it('counts a renewal paid inside the guarantee (a February) in the amount', async () => {
    const user = await proUser();
    // First paid 29 days ago; the 28-day month renewed, so two invoices are paid.
    await t.database.pool.query(
      `update subscriptions set first_paid_at = now() - interval '29 days',
         current_period_end = now() - interval '29 days' + interval '2 months'
       where user_id = $1 and status = 'active'`,
      [user.user.id],
    );
    expect((await call('/api/subscription/refund', user)).statusCode).toBe(200);
    const mail = await mailTo(user, 'We refunded $19.98 for StreamShop Pro');
    expect(mail.text).toContain('we refunded $19.98 under our 30-day money-back guarantee');
  });
});

/** Waits until the user's cancellation notice has failed to send once (SMTP is down). */
async function untilSendingFailed(user: User) {
  await eventually('a failed send', async () => {
    const { rows } = await t.database.pool.query(
      `select 1 from mail_outbox
       where to_address = $1 and dedupe_key like 'pro-cancel:%' and sent_at is null and last_error is not null`,
      [user.email],
    );
    return rows.length > 0;
  });
}
