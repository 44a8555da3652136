import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { LOCAL_SIGNATURE_HEADER } from '../../platform/payments/local-signature.ts';
import { eventually } from '../../test/eventually.ts';
import { receivedOnceSent, useMailTestApp } from '../../test/mail-test-app.ts';
import { payWithCard } from '../../test/payments.ts';
import type { TestSmtpServer } from '../../test/smtp-server.ts';
import type { TestApp } from '../../test/test-app.ts';

/** The Stream Disc site's mail, received by a real SMTP server on 127.0.0.1 (ADR 0015). */

let smtp: TestSmtpServer;
let t: TestApp;

useMailTestApp((started) => {
  ({ smtp, t } = started);
});

let addressCount = 0;
/** Each test posts from its own client address, so the per-IP form limit never leaks between tests. */
function newClient() {
  addressCount += 1;
  const remoteAddress = `10.8.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
  return (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, remoteAddress });
}

let emailCount = 0;
const newEmail = () => `disc_fan_${process.pid % 1000}_${++emailCount}@example.com`;

/** Counts what `to` got once everything queued to it went out: a second message would have arrived. */
async function countAfterSending(to: string): Promise<number> {
  return (await receivedOnceSent({ smtp, t }, to)).length;
}

describe('beta sign-up confirmation', () => {
  it('confirms a Stream Disc beta sign-up once, and a repeated sign-up sends nothing more', async () => {
    const post = newClient();
    const email = newEmail();
    expect((await post('/api/beta-signup', { email, source: 'music' })).statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe("You're on the Stream Disc beta list");
    expect(mail.text).toContain('We will email you when beta access opens');
    expect(mail.text).toContain('See the Stream Disc: http://localhost:3000/stream-disc/music');

    expect((await post('/api/beta-signup', { email: email.toUpperCase() })).statusCode).toBe(409);
    expect(await countAfterSending(email)).toBe(1);
  });

  it("welcomes a sign-up from the landing page's newsletter modal to the newsletter", async () => {
    const email = newEmail();
    expect((await newClient()('/api/beta-signup', { email, source: 'landing' })).statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe("You're subscribed to the StreamShop newsletter");
    expect(mail.text).toContain('Founders Batch news');
  });
});

describe('Founders Batch pre-order confirmation', () => {
  it('names the discs, the total and a reference, and says the invoice follows', async () => {
    const email = newEmail();
    const response = await newClient()('/api/pre-order', {
      name: 'Nia Collector',
      email,
      quantity: 10,
      totalPrice: '35.00',
    });
    expect(response.statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe('Your Founders Batch pre-order: 10 Stream Discs, $35.00');
    expect(mail.text).toContain('Thanks, Nia Collector');
    expect(mail.text).toContain('at $3.50 each. Total order value: $35.00.');
    const reference = `SDF-${response.json().id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
    expect(mail.text).toContain(`Reference: ${reference}.`);
    expect(mail.text).toContain('a full invoice is emailed to you within 3-5 business days');
    expect(await countAfterSending(email)).toBe(1);
  });
});

describe('Stream Disc order receipt', () => {
  it('names the discs, the address, the estimated price and a reference, and says nothing was charged', async () => {
    const email = newEmail();
    const response = await newClient()('/api/stream-disc-orders', {
      name: 'Marcus Bell',
      email,
      quantity: 250,
      shippingAddress: '12 Harbor Rd',
      city: 'Portland',
      state: 'OR',
      zipCode: '97201',
    });
    expect(response.statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe('We received your Stream Disc order (250 Stream Discs)');
    expect(mail.text).toContain('to ship to 12 Harbor Rd, Portland, OR 97201, US');
    expect(mail.text).toContain('Estimated price: $625.00 ($2.50 per disc at this quantity)');
    expect(mail.text).toContain('Nothing has been charged.');
    expect(mail.text).toContain(`SDO-${response.json().id.slice(0, 8).toUpperCase()}`);
    expect(mail.html).toContain('href="http://localhost:3000/stream-disc"');
    expect(await countAfterSending(email)).toBe(1);
  });

  it('answers the order while SMTP is down, and the receipt goes out once SMTP is back', async () => {
    await smtp.stop();
    const email = newEmail();
    try {
      const response = await newClient()('/api/stream-disc-orders', {
        name: 'Offline Buyer',
        email,
        quantity: 3,
        shippingAddress: '1 Quiet St',
        city: 'Reno',
        state: 'NV',
        zipCode: '89501',
      });
      expect(response.statusCode).toBe(201);
      const key = `disc-order:${response.json().id}`;
      await eventually('the first try to fail', async () => (await outboxRow(key))?.last_error != null);
      expect((await outboxRow(key))?.sent_at).toBeNull();
    } finally {
      await smtp.start();
    }
    // Its retry is due now instead of after the backoff.
    await t.database.pool.query(`update mail_outbox set next_attempt_at = now() where to_address = $1`, [
      email,
    ]);
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe('We received your Stream Disc order (3 Stream Discs)');
    expect(mail.text).toContain('Estimated price: $15.00');
    expect(await countAfterSending(email)).toBe(1);
  });
});

describe('Stream Disc reservation receipt', () => {
  it('goes out when the $1 deposit is paid, not before, and once however often the webhook comes', async () => {
    const email = newEmail();
    const response = await newClient()('/api/stream-disc/pre-order', { name: 'Rae Fan', email });
    expect(response.statusCode).toBe(201);
    const hostedId = response.json().checkoutUrl.split('/').pop();
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/local/hosted/${hostedId}` });
    const { clientSecret } = page.json();

    const declined = await payWithCard(t.app, clientSecret, TEST_CARDS.declined);
    expect(declined.json().status).toBe('failed');
    expect(await countAfterSending(email)).toBe(0);

    expect((await payWithCard(t.app, clientSecret)).json().status).toBe('succeeded');
    const mail = await smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe('Receipt: your Stream Disc reservation ($1.00 deposit)');
    expect(mail.text).toContain('Thanks, Rae Fan: your Stream Disc is reserved');
    expect(mail.text).toContain('Amount paid: $1.00.');
    const { rows } = await t.database.pool.query('select id from disc_preorders where email = $1', [email]);
    expect(mail.text).toContain(`Reference: SDR-${rows[0].id.slice(0, 8).toUpperCase()}.`);
    expect(mail.text).toContain('your full invoice arrives by email within 3-5 business days');

    // The provider sends the same event again (a retry after a lost answer).
    const event = await t.database.pool.query(
      `select payload from local_webhook_events where payload like '%"payment.succeeded"%' and payload like $1`,
      [`%${hostedId}%`],
    );
    const replay = await postWebhook(event.rows[0].payload);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await countAfterSending(email)).toBe(1);
  });
});

function postWebhook(payload: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments',
    headers: {
      'content-type': 'application/json',
      [LOCAL_SIGNATURE_HEADER]: (t.app.payments as LocalProvider).sign(payload),
    },
    payload,
  });
}

async function outboxRow(key: string) {
  const { rows } = await t.database.pool.query(
    'select sent_at, last_error from mail_outbox where dedupe_key = $1',
    [key],
  );
  return rows[0] as { sent_at: Date | null; last_error: string | null } | undefined;
}
