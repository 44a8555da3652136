import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Pro subscriptions' queries. */

export type SubscriptionRow = {
  id: string;
  provider: string;
  providerRef: string | null;
  clientSecret: string | null;
  status: 'incomplete' | 'active' | 'canceled' | 'expired';
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

const SUBSCRIPTION_COLUMNS = sql.raw(`id, provider, provider_ref as "providerRef",
  client_secret as "clientSecret", status, current_period_end as "currentPeriodEnd",
  cancel_at_period_end as "cancelAtPeriodEnd"`);

type SubscriptionRecord = Omit<SubscriptionRow, 'currentPeriodEnd'> & {
  currentPeriodEnd: Date | string | null;
};
const toRow = (row: SubscriptionRecord): SubscriptionRow => ({
  ...row,
  currentPeriodEnd: row.currentPeriodEnd === null ? null : new Date(row.currentPeriodEnd),
});

async function oneSubscription(db: Db, query: ReturnType<typeof sql>): Promise<SubscriptionRow | undefined> {
  const result = await db.execute<SubscriptionRecord>(query);
  const row = result.rows[0];
  return row ? toRow(row) : undefined;
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

export function markCancelAtPeriodEnd(db: Db, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  return oneSubscription(
    db,
    sql`update subscriptions set cancel_at_period_end = true where id = ${subscriptionId}
      returning ${SUBSCRIPTION_COLUMNS}`,
  );
}

/** Subscriptions opened but never paid within a day. */
export async function cancelAbandonedSubscriptions(db: Db): Promise<void> {
  await db.execute(sql`
    update subscriptions set status = 'canceled'
    where status = 'incomplete' and created_at < now() - interval '1 day'`);
}
