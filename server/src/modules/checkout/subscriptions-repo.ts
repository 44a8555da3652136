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

/** When the account first asked for the money-back refund on another subscription than `exceptId`. */
export async function moneyBackUsedAt(db: Db | Tx, userId: string, exceptId: string): Promise<Date | null> {
  const result = await db.execute<{ at: Date | string | null }>(sql`
    select min(refund_requested_at) as at from subscriptions
    where user_id = ${userId} and id <> ${exceptId} and refund_requested_at is not null`);
  return toDate(result.rows[0]?.at ?? null);
}

/**
 * Records the refund request on the active subscription, atomically with the guarantee's rules: its
 * first payment less than `days` days ago (or a request already under way, retried), and no other
 * subscription of the account refunded. Undefined when the rules refuse it.
 */
export function claimMoneyBack(
  db: Db,
  subscriptionId: string,
  days: number,
): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`update subscriptions s set refund_requested_at = coalesce(s.refund_requested_at, now())
      where s.id = ${subscriptionId} and s.status = 'active'
        and (s.refund_requested_at is not null or s.first_paid_at > now() - make_interval(days => ${days}))
        and not exists (select 1 from subscriptions o
          where o.user_id = s.user_id and o.id <> s.id and o.refund_requested_at is not null)
      returning ${SUBSCRIPTION_COLUMNS}`,
  );
}

/** The provider refunded it: expired now, and a late provider event older than now changes nothing. */
export function markRefunded(tx: Tx, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    tx,
    sql`update subscriptions set status = 'expired', refunded_at = coalesce(refunded_at, now()),
        last_event_at = greatest(last_event_at, now())
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
