import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** A message as the sender hands it over: the outbox row's id names it (Message-ID, file name). */
export interface OutgoingMail {
  id: string;
  to: string;
  replyTo?: string | undefined;
  /** A one-click unsubscribe URL (RFC 8058): List-Unsubscribe and List-Unsubscribe-Post. */
  listUnsubscribe?: string | undefined;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Where mail goes, for the log: 'SMTP host:port' or the outbox folder. Never the password. */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailSettings {
  /** smtp://user:pass@host:port or smtps://…; undefined writes .eml files to outboxDir. */
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  publicUrl: string;
}

/** Every SMTP step is bounded: a server that hangs fails the attempt, which is retried later. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function messageOf(mail: OutgoingMail, settings: MailSettings) {
  const host = new URL(settings.publicUrl).hostname || 'streamshop.local';
  return {
    from: settings.from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    ...(mail.listUnsubscribe
      ? {
          headers: {
            'List-Unsubscribe': `<${mail.listUnsubscribe}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // The same id on a resend (a crash between acceptance and bookkeeping), so clients show one.
    messageId: `<${mail.id}@${host}>`,
  };
}

/** Sends over SMTP when SMTP_URL is set; otherwise writes each message to DATA_DIR/outbox as .eml. */
export function createMailTransport(settings: MailSettings): MailTransport {
  if (settings.smtpUrl) {
    const url = new URL(settings.smtpUrl);
    const smtp = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      description: `SMTP ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
      async send(mail) {
        await smtp.sendMail(messageOf(mail, settings));
      },
      close: () => smtp.close(),
    };
  }
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `the folder ${settings.outboxDir} (.eml files; set SMTP_URL to send them)`,
    async send(mail) {
      const info = await files.sendMail(messageOf(mail, settings));
      await mkdir(settings.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writeFile(path.join(settings.outboxDir, `${stamp}-${mail.id}.eml`), info.message as Buffer);
    },
    close: () => files.close(),
  };
}
