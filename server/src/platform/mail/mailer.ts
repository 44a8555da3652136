import type { Db, Tx } from '../../db/client.ts';
import type { MailSender } from './mail-sender.ts';
import { insertMail } from './outbox-repo.ts';
import { type MailBody, renderMail } from './render.ts';

/** What modules use to send mail: queue a message with the event that causes it (ADR 0015). */
export interface Mailer {
  /**
   * Queues `body` to `to` in `tx` (the event's own transaction, or the database). `key` names the
   * event: queuing the same key again sends nothing more. The message goes out shortly after the
   * transaction commits, from whichever instance gets to it first.
   */
  queue(tx: Db | Tx, key: string, to: string, body: MailBody, options?: QueueOptions): Promise<void>;
}

export interface QueueOptions {
  /** Reply-To: where the recipient's answer goes (a contact message: its writer). */
  replyTo?: string;
}

/** The time a queuing transaction usually takes to commit, before the sender is nudged. */
const KICK_DELAY_MS = 100;

export function outboxMailer(sender: Pick<MailSender, 'kick'>): Mailer {
  let kickTimer: NodeJS.Timeout | undefined;
  return {
    async queue(tx, key, to, body, options = {}) {
      const { subject, text, html } = renderMail(body);
      await insertMail(tx, { dedupeKey: key, to, replyTo: options.replyTo, subject, text, html });
      if (kickTimer) return;
      kickTimer = setTimeout(() => {
        kickTimer = undefined;
        sender.kick();
      }, KICK_DELAY_MS);
      kickTimer.unref();
    },
  };
}
