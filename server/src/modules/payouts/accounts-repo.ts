import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** A seller's payout account at the provider (Stripe Connect), kept on their user row. */
export type AccountRow = {
  email: string;
  stripe_account_id: string | null;
  payouts_enabled_at: Date | string | null;
};

export async function accountOf(db: Db | Tx, userId: string): Promise<AccountRow | undefined> {
  const result = await db.execute<AccountRow>(sql`
    select email, stripe_account_id, payouts_enabled_at from users where id = ${userId}`);
  return result.rows[0];
}

/**
 * Keeps the first account opened for the user: a concurrent second request (which the provider's
 * idempotency key gives the same account anyway) changes nothing. Answers the account kept.
 */
export async function keepAccountRef(db: Db, userId: string, accountRef: string): Promise<string | null> {
  await db.execute(sql`
    update users set stripe_account_id = ${accountRef}
    where id = ${userId} and stripe_account_id is null`);
  return (await accountOf(db, userId))?.stripe_account_id ?? null;
}

/** What the provider says of the account: ready keeps the first moment it became so; not ready clears it. */
export async function setAccountReady(db: Db | Tx, accountRef: string, ready: boolean): Promise<void> {
  await db.execute(sql`
    update users set payouts_enabled_at =
      case when ${ready} then coalesce(payouts_enabled_at, now()) else null end
    where stripe_account_id = ${accountRef}`);
}
