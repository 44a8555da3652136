import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { receivedOnceSent, useMailTestApp } from '../../test/mail-test-app.ts';
import type { TestSmtpServer } from '../../test/smtp-server.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { CONTACT_RATE_LIMITS } from './contact.ts';

/** The operator's external links (GET /api/site/links) and the contact form (POST /api/contact). */

const OPERATOR = 'help@shop.test';
let smtp: TestSmtpServer;
let t: TestApp;
useMailTestApp(
  (started) => {
    ({ smtp, t } = started);
  },
  { contactEmail: OPERATOR },
);

const env = { DATA_DIR: tmpdir(), SESSION_SECRET: 'x'.repeat(32) };

let addressCount = 0;
/** Each test writes from its own client address, so the per-address limit never leaks between tests. */
function newClient() {
  addressCount += 1;
  const remoteAddress = `10.9.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
  return (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress });
}
let emailCount = 0;
const newEmail = () => `writer_${process.pid % 1000}_${++emailCount}@example.com`;

describe('GET /api/site/links', () => {
  it('answers every link as null when none is configured (the web then shows none)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site/links' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      dropMode: null,
      streamDisc: null,
      streamshopLive: null,
      newsletterForm: null,
      pressKit: null,
    });
  });

  it('hands the web the addresses set in DROP_MODE_URL and the other link variables', async () => {
    const { siteLinks } = loadConfig({
      ...env,
      DROP_MODE_URL: 'https://dropmode.test/',
      STREAM_DISC_URL: 'https://streamdisc.test/',
      STREAMSHOP_LIVE_URL: '',
      NEWSLETTER_FORM_URL: 'https://news.test/subscribe',
      PRESS_KIT_URL: 'http://press.test/kit',
    });
    const configured = await buildTestApp({ siteLinks });
    try {
      const response = await configured.app.inject({ method: 'GET', url: '/api/site/links' });
      expect(response.json()).toEqual({
        dropMode: 'https://dropmode.test/',
        streamDisc: 'https://streamdisc.test/',
        streamshopLive: null,
        newsletterForm: 'https://news.test/subscribe',
        pressKit: 'http://press.test/kit',
      });
    } finally {
      await configured.close();
    }
  });

  it('refuses a link that is not http(s) at start-up, naming the variable', () => {
    expect(() => loadConfig({ ...env, DROP_MODE_URL: 'javascript:alert(1)' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, PRESS_KIT_URL: 'not a url' })).toThrow(/PRESS_KIT_URL: /);
  });
});

describe('CONTACT_EMAIL', () => {
  it("defaults to MAIL_FROM's address, and a set one wins", () => {
    expect(loadConfig({ ...env, MAIL_FROM: 'Shop Team <team@shop.test>' }).contactEmail).toBe(
      'team@shop.test',
    );
    expect(loadConfig({ ...env, MAIL_FROM: 'plain@shop.test' }).contactEmail).toBe('plain@shop.test');
    expect(loadConfig({ ...env, PUBLIC_URL: 'https://shop.test' }).contactEmail).toBe('no-reply@shop.test');
    expect(loadConfig({ ...env, CONTACT_EMAIL: 'support@shop.test' }).contactEmail).toBe('support@shop.test');
    expect(() => loadConfig({ ...env, CONTACT_EMAIL: 'nobody' })).toThrow(/CONTACT_EMAIL: /);
  });
});

describe('POST /api/contact', () => {
  it('mails the message to the operator with Reply-To the sender, and nothing to the sender', async () => {
    const email = newEmail();
    const response = await newClient()({
      name: ' Ana Lima ',
      email: email.toUpperCase(),
      subject: 'Where is my order?',
      message: 'Hello,\n\nMy record has not arrived yet.\nOrder 1234.',
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true });

    const mail = await smtp.waitFor((m) => m.to === OPERATOR && m.replyTo.includes(email));
    expect(mail.subject).toBe('Contact form: Where is my order?');
    expect(mail.replyTo).toBe(email);
    expect(mail.from).toBe('"StreamShop" <no-reply@localhost>');
    expect(mail.text).toContain(
      `Ana Lima <${email}> wrote through the contact page about "Where is my order?"`,
    );
    expect(mail.text).toContain('My record has not arrived yet.\n\nOrder 1234.');
    expect(mail.html).toContain('My record has not arrived yet.');
    expect(await receivedOnceSent({ smtp, t }, email)).toEqual([]);
  });

  it('names the sender in the subject when there is no subject', async () => {
    const email = newEmail();
    const response = await newClient()({ name: 'Bo', email, subject: '  ', message: 'Just saying hi.' });
    expect(response.statusCode).toBe(202);
    const mail = await smtp.waitFor((m) => m.to === OPERATOR && m.replyTo === email);
    expect(mail.subject).toBe('Contact form: a message from Bo');
  });

  it('answers 400 with a reason for each field and queues nothing', async () => {
    const queued = async () =>
      (
        await t.database.pool.query<{ n: number }>(
          'select count(*)::int as n from mail_outbox where to_address = $1',
          [OPERATOR],
        )
      ).rows[0]?.n;
    const before = await queued();
    const post = newClient();
    const missing = await post({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { name: 'Name is required', email: 'Email is required', message: 'Message is required' },
    });

    const bad = await post({ name: 'Ana', email: 'ana@', message: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      email: 'Please enter a valid email address.',
      message: 'Message is required',
    });

    const long = await post({
      name: 'n'.repeat(121),
      email: newEmail(),
      subject: 's'.repeat(151),
      message: 'm'.repeat(5001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual({
      name: 'Name must be at most 120 characters',
      subject: 'Subject must be at most 150 characters',
      message: 'Message must be at most 5000 characters',
    });

    const control = await post({ name: 'Ana\u0007', email: newEmail(), message: 'hi' });
    expect(control.json().fields).toEqual({ name: 'Name must not contain control characters' });

    expect(await queued()).toBe(before);
  });

  it('answers 429 with Retry-After once one address has sent its messages for the hour', async () => {
    const post = newClient();
    for (let i = 0; i < CONTACT_RATE_LIMITS.perIp; i += 1) {
      expect((await post({ name: 'Flo', email: newEmail(), message: `Message ${i}` })).statusCode).toBe(202);
    }
    // Malformed bodies count too: the limit is checked before the body.
    const refused = await post({});
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await newClient()({ name: 'Gil', email: newEmail(), message: 'Hi' })).statusCode).toBe(202);
  });

  it('answers 429 once one sender email has sent its messages for the hour, from any address', async () => {
    const email = newEmail();
    for (let i = 0; i < CONTACT_RATE_LIMITS.perEmail; i += 1) {
      expect((await newClient()({ name: 'Hal', email, message: `Again ${i}` })).statusCode).toBe(202);
    }
    const refused = await newClient()({ name: 'Hal', email: email.toUpperCase(), message: 'Once more' });
    expect(refused.statusCode).toBe(429);
  });

  it('refuses a body larger than a message can be with 413', async () => {
    const response = await newClient()({ name: 'Ivy', email: newEmail(), message: 'x'.repeat(40_000) });
    expect(response.statusCode).toBe(413);
  });
});
