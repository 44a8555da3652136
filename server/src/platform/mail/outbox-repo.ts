import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Claim } from '../leases.ts';

/** The mail outbox's queries (ADR 0015). */

export interface QueuedMail {
  dedupeKey: string;
  to: string;
  /** Reply-To, when answers should not go to MAIL_FROM. */
  replyTo?: string | undefined;
  /** The one-click unsubscribe URL of a notification (RFC 8058). */
  listUnsubscribe?: string | undefined;
  subject: string;
  text: string;
  html: string;
}

/** Queues a message in the caller's transaction; the same dedupe key queues nothing more. */
export async function insertMail(tx: Db | Tx, mail: QueuedMail): Promise<boolean> {
  const result = await tx.execute(sql`
    insert into mail_outbox (dedupe_key, to_address, reply_to, list_unsubscribe, subject, text_body, html_body)
    values (${mail.dedupeKey}, ${mail.to}, ${mail.replyTo ?? null}, ${mail.listUnsubscribe ?? null},
      ${mail.subject}, ${mail.text}, ${mail.html})
    on conflict (dedupe_key) do nothing`);
  return (result.rowCount ?? 0) > 0;
}

/** Queues several messages in one statement; those whose dedupe key is taken are skipped. */
export async function insertMails(tx: Db | Tx, mails: QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  const rows = mails.map(
    (mail) => sql`(${mail.dedupeKey}, ${mail.to}, ${mail.replyTo ?? null}, ${mail.listUnsubscribe ?? null},
      ${mail.subject}, ${mail.text}, ${mail.html})`,
  );
  await tx.execute(sql`
    insert into mail_outbox (dedupe_key, to_address, reply_to, list_unsubscribe, subject, text_body, html_body)
    values ${sql.join(rows, sql`, `)}
    on conflict (dedupe_key) do nothing`);
}

export type ClaimedMail = {
  id: string;
  to_address: string;
  reply_to: string | null;
  list_unsubscribe: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
};

/**
 * Claims up to `limit` due messages for `leaseSec` seconds: another sender (here or on another
 * instance) skips them until the lease runs out, which is how a crashed sender's messages go out.
 * The claim bumps `attempts`, which is its token (platform/leases.ts).
 */
export async function claimDueMail(db: Db, leaseSec: number, limit: number): Promise<ClaimedMail[]> {
  const result = await db.execute<ClaimedMail>(sql`
    update mail_outbox set lease_until = now() + make_interval(secs => ${leaseSec}), attempts = attempts + 1
    where id in (
      select id from mail_outbox
      where sent_at is null and failed_at is null and next_attempt_at <= now()
        and (lease_until is null or lease_until < now())
      order by next_attempt_at limit ${limit}
      for update skip locked)
    returning id, to_address, reply_to, list_unsubscribe, subject, text_body, html_body, attempts`);
  return result.rows;
}

/** Extends the lease of claimed messages nobody claimed since (same attempts); answers their ids. */
export async function renewMailClaims(db: Db, claims: Claim[], leaseSec: number): Promise<string[]> {
  if (claims.length === 0) return [];
  const owned = sql.join(
    claims.map((claim) => sql`(${claim.id}::uuid, ${claim.token}::int)`),
    sql`, `,
  );
  const renewed = await db.execute<{ id: string }>(sql`
    update mail_outbox set lease_until = now() + make_interval(secs => ${leaseSec})
    where sent_at is null and failed_at is null and (id, attempts) in (${owned})
    returning id`);
  return renewed.rows.map((row) => row.id);
}

/** Sent: the bodies (which may hold a single-use link) are dropped. */
export async function markMailSent(db: Db, id: string): Promise<void> {
  await db.execute(sql`
    update mail_outbox set sent_at = now(), lease_until = null, text_body = null, html_body = null,
      last_error = null
    where id = ${id}`);
}

/**
 * A failed attempt: tried again after `retryInSec`, or given up on when `giveUp`; only while the
 * claim is still this sender's (`token`), so a late failure cannot cut another's lease short.
 */
export async function markMailFailed(
  db: Db,
  claim: Claim,
  error: string,
  retryInSec: number,
  giveUp: boolean,
): Promise<void> {
  await db.execute(sql`
    update mail_outbox set lease_until = null, last_error = ${error.slice(0, 500)},
      next_attempt_at = now() + make_interval(secs => ${retryInSec}),
      failed_at = ${giveUp ? sql`now()` : null}
    where id = ${claim.id} and attempts = ${claim.token} and sent_at is null`);
}
