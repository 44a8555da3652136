import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { type HeldLeases, holdLeases, LEASE_SEC } from '../leases.ts';
import {
  type ClaimedMail,
  claimDueMail,
  markMailFailed,
  markMailSent,
  renewMailClaims,
} from './outbox-repo.ts';
import type { MailTransport } from './transport.ts';

const BATCH = 20;
/** After this many failed attempts a message is marked failed and logged. */
export const MAX_MAIL_ATTEMPTS = 20;

/** 10 s, 40 s, 90 s, 160 s … after the nth failed attempt, at most an hour. */
export const retryDelaySec = (attempts: number) => Math.min(3600, 10 * attempts * attempts);

export interface MailSenderOptions {
  /** How often due mail is looked for (default 1 s). */
  intervalMs?: number;
}

/**
 * Sends the outbox on this instance: every second, and at once when `kick` says something was
 * queued here. Sending never runs in a request; a failure waits for its retry.
 */
export class MailSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly log: FastifyBaseLogger,
    private readonly options: MailSenderOptions = {},
  ) {}

  start(): void {
    this.log.info(`mail goes to ${this.transport.description}`);
    this.schedule();
  }

  /** Something was queued: send it now rather than at the next tick. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sendDue()
      .catch((error: unknown) => void this.log.warn({ err: error }, 'sending mail failed'))
      .then(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Sends what is due now; answers how many went out (tests and the drain at shutdown). Claims are
   * short leases renewed while the batch is sent (ADR 0015), so a sender that dies leaves its
   * messages to another within seconds, and a slow one keeps them.
   */
  async sendDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      let claimed: ClaimedMail[];
      const claimedAt = performance.now();
      try {
        claimed = await claimDueMail(this.db, LEASE_SEC, BATCH);
      } catch (error) {
        this.log.warn({ err: error }, 'looking for mail to send failed');
        return sent;
      }
      const leases = holdLeases(
        claimed.map((mail) => ({ id: mail.id, token: mail.attempts })),
        (claims, leaseSec) => renewMailClaims(this.db, claims, leaseSec),
        {
          claimedAt,
          onError: (error) => this.log.warn({ err: error }, 'renewing the lease of mail failed'),
        },
      );
      try {
        for (const mail of claimed) {
          if (await this.sendOne(mail, leases)) sent++;
        }
      } finally {
        await leases.stop();
      }
      if (claimed.length < BATCH || this.stopped) return sent;
    }
  }

  private async sendOne(mail: ClaimedMail, leases: HeldLeases): Promise<boolean> {
    // Stalled past the lease and taken over by another sender: that one sends it.
    if (!(await leases.holds(mail.id))) return false;
    const claim = { id: mail.id, token: mail.attempts };
    try {
      await this.transport.send({
        id: mail.id,
        to: mail.to_address,
        replyTo: mail.reply_to ?? undefined,
        listUnsubscribe: mail.list_unsubscribe ?? undefined,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
    } catch (error) {
      await leases.finish(mail.id);
      const giveUp = mail.attempts >= MAX_MAIL_ATTEMPTS;
      const reason = error instanceof Error ? error.message : String(error);
      (giveUp ? this.log.error : this.log.warn).call(
        this.log,
        { mailId: mail.id, attempts: mail.attempts, reason },
        giveUp ? 'mail could not be sent; giving up' : 'mail could not be sent; will retry',
      );
      await markMailFailed(this.db, claim, reason, retryDelaySec(mail.attempts), giveUp).catch(() => {});
      return false;
    }
    await leases.finish(mail.id);
    try {
      await markMailSent(this.db, mail.id);
    } catch (error) {
      // Sent, but not written down: the lease runs out and it may go again (same Message-ID).
      this.log.warn({ err: error, mailId: mail.id }, 'mail sent but not marked sent');
    }
    this.log.info({ mailId: mail.id, subject: mail.subject }, 'mail sent');
    return true;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.kick();
      this.schedule();
    }, this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  /** Stops the ticks and waits for a send in progress. */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.transport.close();
  }
}
