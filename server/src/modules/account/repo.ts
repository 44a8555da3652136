import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

/**
 * The account module's own queries. It reads the sessions table (written by platform/sessions.ts)
 * and, for the export and the deletion check, the account's subscriptions: read-only, so the
 * checkout module's rules stay the only writer.
 */

export interface SessionRecord {
  idHash: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
}

/** The account's sessions still in use (neither expired nor idle), most recently active first. */
export async function liveSessionsOf(
  db: Db,
  userId: string,
  idleTimeoutMs: number,
): Promise<SessionRecord[]> {
  const now = Date.now();
  const result = await db.execute<{
    id_hash: string;
    user_agent: string | null;
    created_at: Date | string;
    last_seen_at: Date | string;
  }>(sql`
    select id_hash, user_agent, created_at, last_seen_at from sessions
    where user_id = ${userId} and expires_at > ${new Date(now)}
      and last_seen_at > ${new Date(now - idleTimeoutMs)}
    order by last_seen_at desc, created_at desc`);
  return result.rows.map((row) => ({
    idHash: row.id_hash,
    userAgent: row.user_agent,
    createdAt: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
  }));
}

export interface SubscriptionRecord {
  status: string;
  provider: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  createdAt: string;
}

/** Every Pro subscription the account opened, oldest first. */
export async function subscriptionsOf(db: Db, userId: string): Promise<SubscriptionRecord[]> {
  const result = await db.execute<{
    status: string;
    provider: string;
    current_period_end: Date | string | null;
    cancel_at_period_end: boolean;
    created_at: Date | string;
  }>(sql`
    select status, provider, current_period_end, cancel_at_period_end, created_at
    from subscriptions where user_id = ${userId} order by created_at, id`);
  return result.rows.map((row) => ({
    status: row.status,
    provider: row.provider,
    currentPeriodEnd: row.current_period_end ? iso(row.current_period_end) : null,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    createdAt: iso(row.created_at),
  }));
}
