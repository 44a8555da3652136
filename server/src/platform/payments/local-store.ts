import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Claim } from '../leases.ts';

/** The local payment provider's own tables: intents, subscriptions and the webhook outbox. */

type Executor = Db | Tx;

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_action'
  | 'succeeded'
  | 'canceled'
  | 'refunded';

export type IntentRow = {
  id: string;
  clientSecret: string;
  amountCents: number;
  status: IntentStatus;
  paymentId: string | null;
  subscriptionId: string | null;
  description: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  cardLast4: string | null;
};

const INTENT_COLUMNS = sql.raw(`id, client_secret as "clientSecret", amount_cents as "amountCents", status,
  payment_id as "paymentId", subscription_id as "subscriptionId", description, success_url as "successUrl",
  cancel_url as "cancelUrl", card_last4 as "cardLast4"`);

async function oneIntent(db: Executor, query: ReturnType<typeof sql>): Promise<IntentRow | undefined> {
  return (await db.execute<IntentRow>(query)).rows[0];
}

export function intentBySecretForUpdate(tx: Tx, clientSecret: string): Promise<IntentRow | undefined> {
  return oneIntent(
    tx,
    sql`select ${INTENT_COLUMNS} from local_payment_intents where client_secret = ${clientSecret} for update`,
  );
}

export function intentById(db: Executor, id: string, forUpdate = false): Promise<IntentRow | undefined> {
  return oneIntent(
    db,
    sql`select ${INTENT_COLUMNS} from local_payment_intents where id = ${id} ${forUpdate ? sql`for update` : sql``}`,
  );
}

export function intentOfPayment(db: Db, paymentId: string): Promise<IntentRow | undefined> {
  return oneIntent(
    db,
    sql`select ${INTENT_COLUMNS} from local_payment_intents where payment_id = ${paymentId}`,
  );
}

export async function insertIntent(
  db: Executor,
  intent: {
    id: string;
    clientSecret: string;
    amountCents: number;
    paymentId?: string;
    subscriptionId?: string;
  },
): Promise<void> {
  await db.execute(sql`
    insert into local_payment_intents (id, client_secret, amount_cents, payment_id, subscription_id, status)
    values (${intent.id}, ${intent.clientSecret}, ${intent.amountCents}, ${intent.paymentId ?? null},
      ${intent.subscriptionId ?? null}, 'requires_payment_method')`);
}

export async function setHostedPage(
  db: Db,
  id: string,
  page: { description: string; successUrl: string; cancelUrl: string },
): Promise<void> {
  await db.execute(sql`
    update local_payment_intents
    set description = ${page.description}, success_url = ${page.successUrl}, cancel_url = ${page.cancelUrl}
    where id = ${id}`);
}

/** A new status (and card, error) for the intent, at `at`. Only where its status is `onlyFrom`, when given. */
export async function setIntentStatus(
  db: Executor,
  id: string,
  change: { status: IntentStatus; at: Date; cardLast4?: string | null; lastError?: string | null },
  onlyFrom?: IntentStatus,
): Promise<void> {
  await db.execute(sql`
    update local_payment_intents
    set status = ${change.status}, updated_at = ${change.at},
      card_last4 = ${change.cardLast4 === undefined ? sql`card_last4` : sql`${change.cardLast4}`},
      last_error = ${change.lastError === undefined ? sql`last_error` : sql`${change.lastError}`}
    where id = ${id} ${onlyFrom ? sql`and status = ${onlyFrom}` : sql``}`);
}

export type LocalSubscriptionRow = {
  id: string;
  status: 'incomplete' | 'active' | 'ended';
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

const SUBSCRIPTION_COLUMNS = sql.raw(`id, status, current_period_end as "currentPeriodEnd",
  cancel_at_period_end as "cancelAtPeriodEnd"`);

type SubscriptionRecord = Omit<LocalSubscriptionRow, 'currentPeriodEnd'> & {
  currentPeriodEnd: Date | string | null;
};
const toSubscription = (row: SubscriptionRecord): LocalSubscriptionRow => ({
  ...row,
  currentPeriodEnd: row.currentPeriodEnd === null ? null : new Date(row.currentPeriodEnd),
});

export async function insertSubscription(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`insert into local_subscriptions (id, status) values (${id}, 'incomplete')`);
}

export async function activateSubscription(
  tx: Tx,
  id: string,
  periodEnd: Date,
  cardLast4: string | null,
): Promise<void> {
  await tx.execute(sql`
    update local_subscriptions set status = 'active', current_period_end = ${periodEnd}, card_last4 = ${cardLast4}
    where id = ${id}`);
}

export async function markCancelAtPeriodEnd(tx: Tx, id: string): Promise<LocalSubscriptionRow | undefined> {
  const row = (
    await tx.execute<SubscriptionRecord>(sql`
      update local_subscriptions set cancel_at_period_end = true where id = ${id}
      returning ${SUBSCRIPTION_COLUMNS}`)
  ).rows[0];
  return row && toSubscription(row);
}

/** Active subscriptions whose period ended by `at`. */
export async function subscriptionsDue(db: Db, at: Date): Promise<LocalSubscriptionRow[]> {
  const result = await db.execute<SubscriptionRecord>(sql`
    select ${SUBSCRIPTION_COLUMNS} from local_subscriptions where status = 'active' and current_period_end <= ${at}`);
  return result.rows.map(toSubscription);
}

export async function lockActiveSubscription(tx: Tx, id: string): Promise<LocalSubscriptionRow | undefined> {
  const row = (
    await tx.execute<SubscriptionRecord>(sql`
      select ${SUBSCRIPTION_COLUMNS} from local_subscriptions where id = ${id} and status = 'active' for update`)
  ).rows[0];
  return row && toSubscription(row);
}

/** Gives back every paid intent of the subscription (its first payment: renewals reuse the saved card). */
export async function refundIntentsOfSubscription(tx: Tx, subscriptionId: string, at: Date): Promise<void> {
  await tx.execute(sql`
    update local_payment_intents set status = 'refunded', updated_at = ${at}
    where subscription_id = ${subscriptionId} and status = 'succeeded'`);
}

export async function endSubscription(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`update local_subscriptions set status = 'ended' where id = ${id}`);
}

export async function extendSubscription(tx: Tx, id: string, periodEnd: Date): Promise<void> {
  await tx.execute(sql`update local_subscriptions set current_period_end = ${periodEnd} where id = ${id}`);
}

export async function insertWebhookEvent(tx: Tx, id: string, payload: string): Promise<void> {
  await tx.execute(sql`insert into local_webhook_events (id, payload) values (${id}, ${payload})`);
}

export async function markDelivered(db: Db, id: string, at: Date): Promise<void> {
  await db.execute(
    sql`update local_webhook_events set delivered_at = ${at} where id = ${id} and delivered_at is null`,
  );
}

export type ClaimedEvent = { id: string; payload: string; created_at: string; attempts: number };

/**
 * Claims due events for a short lease (`leaseSec`), so two deliverers do not both send them: those
 * of `only`, or else those older than `freshSec` (fresh ones are left to the request that wrote
 * them). The claim bumps `attempts`, which is its token (platform/leases.ts).
 */
export async function claimDueEvents(
  db: Db,
  options: { only: string[] | undefined; leaseSec: number; freshSec: number; limit: number },
): Promise<ClaimedEvent[]> {
  const { only, leaseSec, freshSec, limit } = options;
  const claimed = await db.execute<ClaimedEvent>(sql`
    update local_webhook_events e
    set attempts = e.attempts + 1,
        next_attempt_at = now() + make_interval(secs => ${leaseSec})
    where e.id in (
      select id from local_webhook_events
      where delivered_at is null and next_attempt_at <= now()
        ${only ? sql`and id in ${only}` : sql`and created_at < now() - make_interval(secs => ${freshSec})`}
      order by created_at, id
      limit ${limit}
      for update skip locked)
    returning e.id, e.payload, e.created_at::text as created_at, e.attempts`);
  return claimed.rows;
}

/** Extends the lease of claimed events nobody claimed since (same attempts); answers their ids. */
export async function renewEventClaims(db: Db, claims: Claim[], leaseSec: number): Promise<string[]> {
  if (claims.length === 0) return [];
  const owned = sql.join(
    claims.map((claim) => sql`(${claim.id}::text, ${claim.token}::int)`),
    sql`, `,
  );
  const renewed = await db.execute<{ id: string }>(sql`
    update local_webhook_events
    set next_attempt_at = now() + make_interval(secs => ${leaseSec})
    where delivered_at is null and (id, attempts) in (${owned})
    returning id`);
  return renewed.rows.map((row) => row.id);
}

/**
 * A failed delivery is tried again after 2, 8, 18 … seconds, at most an hour apart; only while the
 * claim is still this deliverer's (`token`), so a late failure cannot cut another's lease short.
 */
export async function scheduleRetry(db: Db, claim: Claim): Promise<void> {
  await db.execute(sql`
    update local_webhook_events
    set next_attempt_at = now() + make_interval(secs => least(3600, 2 * attempts * attempts))
    where id = ${claim.id} and attempts = ${claim.token} and delivered_at is null`);
}
