import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../app.ts';
import type { Config } from '../config.ts';
import { eventually } from './eventually.ts';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server.ts';
import { buildTestApp, type TestApp } from './test-app.ts';

/**
 * What `to` received once nothing queued to that address is left unsent. The app's own sender may
 * hold a message (claimed, being sent) when a test asks, so one sendDue() is not enough: a second
 * message, if any was queued, has arrived by the time this answers.
 */
export async function receivedOnceSent({ smtp, t }: MailTestApp, to: string, timeoutMs = 10_000) {
  await eventually(
    `every mail to ${to} sent (the count unsent)`,
    async () => {
      await t.app.mailSender.sendDue();
      const { rows } = await t.database.pool.query<{ unsent: number }>(
        `select count(*)::int as unsent from mail_outbox
         where to_address = $1 and sent_at is null and failed_at is null`,
        [to],
      );
      return rows[0]?.unsent;
    },
    (unsent) => unsent === 0,
    timeoutMs,
  );
  return smtp.received.filter((m) => m.to === to);
}

export interface MailTestApp {
  smtp: TestSmtpServer;
  t: TestApp;
}

/**
 * A test file's app sending its mail to a real SMTP server on 127.0.0.1 (sent every 100 ms; no
 * auto-end or payment jobs unless `deps` says so): both start before the file's tests, are handed
 * to `started`, and stop after them.
 */
export function useMailTestApp(
  started: (app: MailTestApp) => void,
  overrides: Partial<Config> = {},
  deps: AppDeps = {},
): void {
  let running: Partial<MailTestApp> = {};
  beforeAll(async () => {
    const smtp = await startTestSmtpServer();
    running = { smtp };
    const t = await buildTestApp(
      { smtpUrl: smtp.url, ...overrides },
      { mailIntervalMs: 100, autoEnd: false, paymentJobs: false, ...deps },
    );
    running.t = t;
    started({ smtp, t });
  });
  afterAll(async () => {
    await running.t?.close();
    await running.smtp?.stop();
  });
}
