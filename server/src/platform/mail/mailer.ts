import type { Db, Tx } from '../../db/client.ts';
import type { MailSender } from './mail-sender.ts';
import { insertMail, insertMails } from './outbox-repo.ts';
import { type MailBody, renderMail } from './render.ts';

/** What modules use to send mail: queue a message with the event that causes it (ADR 0015). */
export interface Mailer {
  /**
   * Queues `body` to `to` in `tx` (the event's own transaction, or the database). `key` names the
   * event: queuing the same key again sends nothing more. The message goes out shortly after the
   * transaction commits, from whichever instance gets to it first.
   */
  queue(tx: Db | Tx, key: string, to: string, body: MailBody, options?: QueueOptions): Promise<void>;
  /** Queues many messages in one statement (a notification batch); the same rules per message. */
  queueMany(tx: Db | Tx, mails: QueuedMessage[]): Promise<void>;
}

export interface QueuedMessage {
  key: string;
  to: string;
  body: MailBody;
  options?: QueueOptions;
}

export interface QueueOptions {
  /** Reply-To: where the recipient's answer goes (a contact message: its writer). */
  replyTo?: string;
  /** The one-click unsubscribe URL (RFC 8058) of a notification email. */
  listUnsubscribe?: string;
}

/** The time a queuing transaction usually takes to commit, before the sender is nudged. */
const KICK_DELAY_MS = 100;

export function outboxMailer(sender: Pick<MailSender, 'kick'>): Mailer {
  let kickTimer: NodeJS.Timeout | undefined;
  const kickSoon = () => {
    if (kickTimer) return;
    kickTimer = setTimeout(() => {
      kickTimer = undefined;
      sender.kick();
    }, KICK_DELAY_MS);
    kickTimer.unref();
  };
  const rendered = (key: string, to: string, body: MailBody, options: QueueOptions = {}) => ({
    dedupeKey: key,
    to,
    replyTo: options.replyTo,
    listUnsubscribe: options.listUnsubscribe,
    ...renderMail(body),
  });
  return {
    async queue(tx, key, to, body, options) {
      await insertMail(tx, rendered(key, to, body, options));
      kickSoon();
    },
    async queueMany(tx, mails) {
      if (mails.length === 0) return;
      await insertMails(
        tx,
        mails.map((mail) => rendered(mail.key, mail.to, mail.body, mail.options)),
      );
      kickSoon();
    },
  };
}
