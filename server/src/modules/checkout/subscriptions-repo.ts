import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** Pro subscriptions' queries. */

export type SubscriptionRow = {
  id: string;
  provider: string;
  providerRef: string | null;
  clientSecret: string | null;
  status: 'incomplete' | 'active' | 'canceled' | 'expired';
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  firstPaidAt: Date | null;
  refundRequestedAt: Date | null;
  refundedAt: Date | null;
};

const SUBSCRIPTION_COLUMNS = sql.raw(`id, provider, provider_ref as "providerRef",
  client_secret as "clientSecret", status, current_period_end as "currentPeriodEnd",
  cancel_at_period_end as "cancelAtPeriodEnd", first_paid_at as "firstPaidAt",
  refund_requested_at as "refundRequestedAt", refunded_at as "refundedAt"`);

type Moment = 'currentPeriodEnd' | 'firstPaidAt' | 'refundRequestedAt' | 'refundedAt';
type SubscriptionRecord = Omit<SubscriptionRow, Moment> & Record<Moment, Date | string | null>;

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));
const toRow = (row: SubscriptionRecord): SubscriptionRow => ({
  ...row,
  currentPeriodEnd: toDate(row.currentPeriodEnd),
  firstPaidAt: toDate(row.firstPaidAt),
  refundRequestedAt: toDate(row.refundRequestedAt),
  refundedAt: toDate(row.refundedAt),
});

async function oneSubscription(
  db: Db | Tx,
  query: ReturnType<typeof sql>,
): Promise<SubscriptionRow | undefined> {
  const result = await db.execute<SubscriptionRecord>(query);
  const row = result.rows[0];
  return row ? toRow(row) : undefined;
}

/** Where the account's mail goes; undefined for a deleted account. */
export async function accountForMail(
  db: Db | Tx,
  userId: string,
): Promise<{ email: string; firstName: string } | undefined> {
  const result = await db.execute<{ email: string; firstName: string }>(sql`
    select email, first_name as "firstName" from users where id = ${userId} and deleted_at is null`);
  return result.rows[0];
}

export async function planOf(db: Db, userId: string): Promise<'free' | 'pro' | undefined> {
  const result = await db.execute<{ plan: 'free' | 'pro' }>(sql`select plan from users where id = ${userId}`);
  return result.rows[0]?.plan;
}

/** The account's subscription being set up or running (at most one: a unique index). */
export function openSubscriptionOf(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`select ${SUBSCRIPTION_COLUMNS} from subscriptions
      where user_id = ${userId} and status in ('incomplete', 'active')`,
  );
}

export function activeSubscriptionOf(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`select ${SUBSCRIPTION_COLUMNS} from subscriptions where user_id = ${userId} and status = 'active'`,
  );
}

/** The latest subscription that was ever paid for. */
export function latestPaidSubscriptionOf(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`select ${SUBSCRIPTION_COLUMNS} from subscriptions
      where user_id = ${userId} and status in ('active', 'expired')
      order by created_at desc limit 1`,
  );
}

export async function insertIncompleteSubscription(
  db: Db,
  userId: string,
  provider: string,
): Promise<string> {
  const result = await db.execute<{ id: string }>(sql`
    insert into subscriptions (user_id, provider, status) values (${userId}, ${provider}, 'incomplete')
    returning id`);
  const row = result.rows[0];
  if (!row) throw new Error('the subscription row was not written');
  return row.id;
}

export async function attachProviderSubscription(
  db: Db,
  subscriptionId: string,
  created: { ref: string; clientSecret: string },
): Promise<void> {
  await db.execute(sql`
    update subscriptions set provider_ref = ${created.ref}, client_secret = ${created.clientSecret}
    where id = ${subscriptionId}`);
}

export async function cancelSubscriptionRow(db: Db, subscriptionId: string): Promise<void> {
  await db.execute(sql`update subscriptions set status = 'canceled' where id = ${subscriptionId}`);
}

export function markCancelAtPeriodEnd(
  db: Db | Tx,
  subscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`update subscriptions set cancel_at_period_end = true where id = ${subscriptionId}
      returning ${SUBSCRIPTION_COLUMNS}`,
  );
}

export function subscriptionById(db: Db, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`select ${SUBSCRIPTION_COLUMNS} from subscriptions where id = ${subscriptionId}`,
  );
}

/**
 * The key of a money-back claim (money_back_claims): HMAC-SHA256 under SESSION_SECRET of the
 * trimmed, lower-cased address, so the table never holds an address and one differing only in
 * case or spaces is the same.
 */
export function moneyBackEmailHash(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`money-back-email:${email.trim().toLowerCase()}`)
    .digest('base64url');
}

/** The hash of the account's current address; null for a deleted account. */
export async function currentEmailHash(db: Db | Tx, secret: string, userId: string): Promise<string | null> {
  const account = await accountForMail(db, userId);
  return account ? moneyBackEmailHash(secret, account.email) : null;
}

/**
 * When the money-back refund was first asked for on another subscription than `exceptId`: by the
 * account, or by any account (a deleted one too) with the address `emailHash` stands for then.
 */
export async function moneyBackUsedAt(
  db: Db | Tx,
  userId: string,
  emailHash: string | null,
  exceptId: string,
): Promise<Date | null> {
  const result = await db.execute<{ at: Date | string | null }>(sql`
    select least(
      (select min(refund_requested_at) from subscriptions
        where user_id = ${userId} and id <> ${exceptId} and refund_requested_at is not null),
      (select min(claimed_at) from money_back_claims
        where email_hash = ${emailHash} and subscription_id <> ${exceptId})) as at`);
  return toDate(result.rows[0]?.at ?? null);
}

class AddressClaimedMeanwhile extends Error {}

/**
 * Records the refund request on the active subscription, atomically with the guarantee's rules: its
 * first payment less than `days` days ago (or a request already made, retried after the provider
 * failed), no other subscription of the account or of the address refunded, and no other request
 * with the provider now (it holds the attempt for `attemptSec`; a concurrent update of the row waits
 * for it and then finds it held). The claim of the address is written with it. Undefined when the
 * rules refuse it.
 */
export async function claimMoneyBack(
  db: Db,
  claim: { subscriptionId: string; emailHash: string; days: number; attemptSec: number },
): Promise<SubscriptionRow | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const claimed = await oneSubscription(
        tx,
        sql`update subscriptions s set refund_requested_at = coalesce(s.refund_requested_at, now()),
          refund_attempt_until = now() + make_interval(secs => ${claim.attemptSec})
        where s.id = ${claim.subscriptionId} and s.status = 'active'
          and (s.refund_attempt_until is null or s.refund_attempt_until <= now())
          and (s.refund_requested_at is not null
            or s.first_paid_at > now() - make_interval(days => ${claim.days}))
          and not exists (select 1 from subscriptions o
            where o.user_id = s.user_id and o.id <> s.id and o.refund_requested_at is not null)
          and not exists (select 1 from money_back_claims c
            where c.email_hash = ${claim.emailHash} and c.subscription_id <> s.id)
        returning ${SUBSCRIPTION_COLUMNS}`,
      );
      if (!claimed) return undefined;
      await tx.execute(sql`
        insert into money_back_claims (email_hash, subscription_id)
        values (${claim.emailHash}, ${claimed.id}) on conflict (email_hash) do nothing`);
      const owner = await tx.execute<{ subscription_id: string }>(
        sql`select subscription_id from money_back_claims where email_hash = ${claim.emailHash}`,
      );
      // Another subscription claimed the address meanwhile: this one is refused, unchanged.
      if (owner.rows[0]?.subscription_id !== claimed.id) throw new AddressClaimedMeanwhile();
      return claimed;
    });
  } catch (error) {
    if (error instanceof AddressClaimedMeanwhile) return undefined;
    throw error;
  }
}

/** The provider failed: the next request may try again at once. */
export async function releaseRefundAttempt(db: Db, subscriptionId: string): Promise<void> {
  await db.execute(sql`update subscriptions set refund_attempt_until = null where id = ${subscriptionId}`);
}

/**
 * Claims made before claims were recorded by address (subscriptions refunded by accounts that still
 * exist): recorded now, under the account's current address. Idempotent; run at start.
 */
export async function recordEarlierMoneyBackClaims(db: Db, hash: (email: string) => string): Promise<number> {
  const unrecorded = await db.execute<{ id: string; email: string; at: Date | string }>(sql`
    select s.id, u.email, s.refund_requested_at as at from subscriptions s join users u on u.id = s.user_id
    where s.refund_requested_at is not null and u.deleted_at is null
      and not exists (select 1 from money_back_claims c where c.subscription_id = s.id)`);
  for (const row of unrecorded.rows) {
    await db.execute(sql`
      insert into money_back_claims (email_hash, subscription_id, claimed_at)
      values (${hash(row.email)}, ${row.id}, ${new Date(row.at).toISOString()}) on conflict (email_hash) do nothing`);
  }
  return unrecorded.rows.length;
}

/** The provider refunded it: expired now, and a late provider event older than now changes nothing. */
export function markRefunded(tx: Tx, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    tx,
    sql`update subscriptions set status = 'expired', refunded_at = coalesce(refunded_at, now()),
        refund_attempt_until = null, last_event_at = greatest(last_event_at, now())
      where id = ${subscriptionId}
      returning ${SUBSCRIPTION_COLUMNS}`,
  );
}

/** Subscriptions opened but never paid within a day. */
export async function cancelAbandonedSubscriptions(db: Db): Promise<void> {
  await db.execute(sql`
    update subscriptions set status = 'canceled'
    where status = 'incomplete' and created_at < now() - interval '1 day'`);
}
