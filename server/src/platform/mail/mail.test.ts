import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { LEASE_SEC } from '../leases.ts';
import type { MailBody } from './render.ts';

/** The outbox (ADR 0015) against a real SMTP server on 127.0.0.1, and the .eml default. */

let smtp: TestSmtpServer;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await buildTestApp(
    { smtpUrl: smtp.url, mailFrom: 'StreamShop <hello@shop.test>', logLevel: 'info' },
    { mailIntervalMs: 200, logStream: { write: (line: string) => void logLines.push(line) } },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

let counter = 0;
const address = () => `someone${++counter}@example.com`;
const body = (subject: string): MailBody => ({
  subject,
  heading: 'Hello <friend>',
  paragraphs: ['Something happened & you should know.'],
  action: { label: 'Open it', url: 'http://localhost:3000/somewhere?token=abc' },
  after: ['If this was not you, ignore this message.'],
});
const rowsOf = async (key: string) =>
  (
    await t.database.pool.query(
      'select id, sent_at, failed_at, attempts, text_body, html_body, last_error from mail_outbox where dedupe_key = $1',
      [key],
    )
  ).rows;

describe('mail outbox over SMTP', () => {
  it('sends a queued message with a text and an HTML part from one template, then drops its bodies', async () => {
    const to = address();
    await t.app.mailer.queue(t.database.db, 'test:first', to, body('Your first message'));
    const mail = await smtp.waitFor((m) => m.to === to);
    expect(mail.subject).toBe('Your first message');
    expect(mail.from).toBe('"StreamShop" <hello@shop.test>');
    expect(mail.text).toContain('Hello <friend>');
    expect(mail.text).toContain('Open it: http://localhost:3000/somewhere?token=abc');
    expect(mail.html).toContain('Hello &lt;friend&gt;');
    expect(mail.html).toContain('href="http://localhost:3000/somewhere?token=abc"');
    expect(mail.html).toContain('Something happened &amp; you should know.');
    const [row] = await rowsOf('test:first');
    expect(mail.messageId).toBe(`<${row.id}@localhost>`);
    await eventually('sent', async () => (await rowsOf('test:first'))[0].sent_at !== null);
    const [sent] = await rowsOf('test:first');
    expect(sent).toMatchObject({ text_body: null, html_body: null, attempts: 1 });
  });

  it('queues one message for one event, however often it is queued', async () => {
    const to = address();
    for (let i = 0; i < 3; i++) await t.app.mailer.queue(t.database.db, 'test:once', to, body('Only once'));
    await smtp.waitFor((m) => m.to === to);
    await t.app.mailSender.sendDue();
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
  });

  it('keeps a message while SMTP is down and sends it once SMTP is back', async () => {
    await smtp.stop();
    const to = address();
    await t.app.mailer.queue(t.database.db, 'test:outage', to, body('Sent after the outage'));
    await eventually('a failed try', async () => (await rowsOf('test:outage'))[0].last_error !== null);
    const [waiting] = await rowsOf('test:outage');
    expect(waiting.sent_at).toBeNull();
    expect(waiting.failed_at).toBeNull();
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(logLines.join('\n')).toContain('mail could not be sent; will retry');
    expect(logLines.join('\n')).not.toContain('smtp-test-password');

    await smtp.start();
    // Its retry is due (instead of waiting out the 10 s backoff).
    await t.database.pool.query(
      `update mail_outbox set next_attempt_at = now() where dedupe_key = 'test:outage'`,
    );
    const mail = await smtp.waitFor((m) => m.to === to);
    expect(mail.subject).toBe('Sent after the outage');
    await t.app.mailSender.sendDue();
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
  });

  it('leaves a message claimed by a sender that died until its short lease runs out, then sends it once', async () => {
    const to = address();
    // Queued with the database alone (no nudge), then claimed by a sender that died before sending:
    // its lease (LEASE_SEC) is never renewed.
    await t.database.pool.query(
      `insert into mail_outbox (dedupe_key, to_address, subject, text_body, html_body, attempts, lease_until)
       values ('test:crashed', $1, 'Claimed, then the sender died', 'text', '<p>html</p>', 1,
         now() + make_interval(secs => $2))`,
      [to, LEASE_SEC],
    );
    expect(await t.app.mailSender.sendDue()).toBe(0);
    // The sender's 200 ms ticks take it over once the lease lapses, well before the old 60 s.
    await smtp.waitFor((m) => m.to === to, (LEASE_SEC + 5) * 1000);
    await t.app.mailSender.sendDue();
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
    const [row] = await rowsOf('test:crashed');
    expect(row.attempts).toBe(2);
  });

  it('keeps a slow send claimed past its lease: a second instance does not send it again', async () => {
    const second = await buildTestApp(
      { smtpUrl: smtp.url },
      { database: t.database, mailIntervalMs: 100, autoEnd: false, paymentJobs: false },
    );
    // The SMTP server takes longer to accept than a lease lasts; the sender renews it meanwhile.
    smtp.delayAcceptance((LEASE_SEC + 3) * 1000);
    try {
      const to = address();
      await t.app.mailer.queue(t.database.db, 'test:slow', to, body('Accepted slowly'));
      await smtp.waitFor((m) => m.to === to, (LEASE_SEC + 10) * 1000);
      await eventually('sent after the lease', async () => (await rowsOf('test:slow'))[0].sent_at !== null);
      smtp.delayAcceptance(0);
      await Promise.all([t.app.mailSender.sendDue(), second.app.mailSender.sendDue()]);
      expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
      // Claimed once: nobody took it over while it was being sent.
      expect((await rowsOf('test:slow'))[0].attempts).toBe(1);
    } finally {
      smtp.delayAcceptance(0);
      await second.close();
    }
  }, 30_000);

  it('sends each message once with two instances sending the same outbox', async () => {
    const second = await buildTestApp(
      { smtpUrl: smtp.url },
      { database: t.database, mailIntervalMs: 50, autoEnd: false, paymentJobs: false },
    );
    try {
      const recipients = Array.from({ length: 30 }, () => address());
      await Promise.all(
        recipients.map((to, i) =>
          (i % 2 ? second : t).app.mailer.queue(t.database.db, `test:pair:${i}`, to, body(`Pair ${i}`)),
        ),
      );
      await Promise.all([t.app.mailSender.sendDue(), second.app.mailSender.sendDue()]);
      await eventually('every recipient served', () =>
        recipients.every((to) => smtp.received.some((m) => m.to === to)),
      );
      await new Promise((r) => setTimeout(r, 300));
      for (const to of recipients) expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('mail without SMTP_URL', () => {
  it('writes each message to DATA_DIR/outbox as an .eml file and says so in the log', async () => {
    const lines: string[] = [];
    const local = await buildTestApp(
      { logLevel: 'info' },
      { mailIntervalMs: 50, autoEnd: false, logStream: { write: (line: string) => void lines.push(line) } },
    );
    try {
      const outbox = path.join(local.config.dataDir, 'outbox');
      expect(lines.join('\n')).toContain(`mail goes to the folder ${outbox}`);
      await local.app.mailer.queue(
        local.database.db,
        'test:eml',
        'reader@example.com',
        body('Read me from disk'),
      );
      await eventually('an .eml file', () => {
        try {
          return readdirSync(outbox).some((name) => name.endsWith('.eml'));
        } catch {
          return false;
        }
      });
      const [file] = readdirSync(outbox);
      const eml = readFileSync(path.join(outbox, file ?? ''), 'utf8');
      expect(eml).toContain('Subject: Read me from disk');
      expect(eml).toContain('To: reader@example.com');
      expect(eml).toContain('Content-Type: text/plain');
      expect(eml).toContain('Content-Type: text/html');
    } finally {
      await local.close();
    }
  });
});
