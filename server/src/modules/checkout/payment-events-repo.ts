import type { Plan } from '@streamshop/contract/constants.ts';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** The queries of applying a provider's event, each inside the event's transaction. */

/** Records the event's id; false when it was recorded before (a duplicate). */
export async function recordEvent(tx: Tx, provider: string, eventId: string, type: string): Promise<boolean> {
  const recorded = await tx.execute(sql`
    insert into payment_events (provider, event_id, type) values (${provider}, ${eventId}, ${type})
    on conflict do nothing returning event_id`);
  return recorded.rows.length > 0;
}

export async function noteFailedAttempt(tx: Tx, paymentId: string, message: string): Promise<void> {
  await tx.execute(sql`
    update payments set last_error = ${message}, updated_at = now()
    where id = ${paymentId} and status = 'pending'`);
}

export type PaymentToSettle = {
  id: string;
  user_id: string | null;
  kind: string;
  product_id: string | null;
  amount_cents: number;
  status: string;
  stream_id: string | null;
  during_live: boolean;
  shipping_cents: number;
  /** The address snapshot of a shipped product (jsonb), copied onto the order. */
  shipping_address: unknown;
};

/** The product a payment is for (set when the payment is made, never changed), without a lock. */
export async function productOfPayment(tx: Tx, paymentId: string): Promise<string | null | undefined> {
  const found = await tx.execute<{ product_id: string | null }>(
    sql`select product_id from payments where id = ${paymentId}`,
  );
  return found.rows[0]?.product_id;
}

/** The payment, locked until the transaction ends. */
export async function lockPayment(tx: Tx, paymentId: string): Promise<PaymentToSettle | undefined> {
  const found = await tx.execute<PaymentToSettle>(sql`
    select id, user_id, kind, product_id, amount_cents, status, stream_id, during_live, shipping_cents,
      shipping_address
    from payments where id = ${paymentId} for update`);
  return found.rows[0];
}

/** The payment is to be given back (the refund job asks the provider until it agrees). */
export async function markRefunding(tx: Tx, paymentId: string, ref: string, reason: string): Promise<void> {
  await tx.execute(sql`
    update payments set status = 'refunding', provider_ref = coalesce(provider_ref, ${ref}),
      last_error = ${reason}, reserved_until = null, updated_at = now()
    where id = ${paymentId}`);
}

/** Takes one unit of the product if one is left; the product's seller, or undefined when sold out. */
export async function takeOneUnit(tx: Tx, productId: string | null): Promise<string | undefined> {
  const taken = await tx.execute<{ seller_id: string }>(sql`
    update products set stock = stock - 1, updated_at = clock_timestamp()
    where id = ${productId} and stock > 0
    returning seller_id`);
  return taken.rows[0]?.seller_id;
}

/** The payment's order (one per payment); undefined when it exists already. */
export async function insertOrder(
  tx: Tx,
  payment: PaymentToSettle & { user_id: string },
  sellerId: string,
): Promise<string | undefined> {
  const order = await tx.execute<{ id: string }>(sql`
    insert into orders (buyer_id, seller_id, product_id, payment_id, amount_cents, stream_id, during_live,
      shipping_cents, shipping_address)
    values (${payment.user_id}, ${sellerId}, ${payment.product_id}, ${payment.id}, ${payment.amount_cents},
      ${payment.stream_id}, ${payment.during_live}, ${payment.shipping_cents},
      ${payment.shipping_address === null ? null : sql`${JSON.stringify(payment.shipping_address)}::jsonb`})
    on conflict (payment_id) do nothing returning id`);
  return order.rows[0]?.id;
}

/** The order written for the payment, if any. */
export async function orderOfPayment(tx: Tx, paymentId: string): Promise<string | undefined> {
  const found = await tx.execute<{ id: string }>(sql`select id from orders where payment_id = ${paymentId}`);
  return found.rows[0]?.id;
}

export async function markSucceeded(tx: Tx, paymentId: string, ref: string): Promise<void> {
  await tx.execute(sql`
    update payments set status = 'succeeded', provider_ref = coalesce(provider_ref, ${ref}),
      reserved_until = null, last_error = null, updated_at = now()
    where id = ${paymentId}`);
}

export type SubscriptionToChange = {
  id: string;
  user_id: string;
  status: string;
  last_event_at: string | null;
  /** Null until its first invoice is paid. */
  first_paid_at: string | null;
};

/** The subscription the provider's ref names, locked until the transaction ends. */
export async function lockSubscriptionByRef(tx: Tx, ref: string): Promise<SubscriptionToChange | undefined> {
  const found = await tx.execute<SubscriptionToChange>(sql`
    select id, user_id, status, last_event_at, first_paid_at from subscriptions
    where provider_ref = ${ref} for update`);
  return found.rows[0];
}

/** Active until the later of the known and the given period end; the terms it is on now. */
export async function markSubscriptionActive(
  tx: Tx,
  subscriptionId: string,
  at: Date,
  periodEnd: Date,
): Promise<{ paidUntil: Date; cancelAtPeriodEnd: boolean }> {
  const updated = await tx.execute<{ paid_until: Date | string; cancel_at_period_end: boolean }>(sql`
    update subscriptions set status = 'active', last_event_at = ${at},
      first_paid_at = coalesce(first_paid_at, ${at}),
      current_period_end = greatest(coalesce(current_period_end, ${periodEnd}), ${periodEnd})
    where id = ${subscriptionId}
    returning current_period_end as paid_until, cancel_at_period_end`);
  const row = updated.rows[0];
  return {
    paidUntil: row ? new Date(row.paid_until) : periodEnd,
    cancelAtPeriodEnd: row?.cancel_at_period_end ?? false,
  };
}

export async function setUserPlan(tx: Tx, userId: string, plan: Plan): Promise<void> {
  await tx.execute(sql`update users set plan = ${plan} where id = ${userId}`);
}

export async function updateSubscriptionTerms(
  tx: Tx,
  subscriptionId: string,
  at: Date,
  terms: { cancelAtPeriodEnd: boolean; periodEnd: Date | null },
): Promise<void> {
  await tx.execute(sql`
    update subscriptions set cancel_at_period_end = ${terms.cancelAtPeriodEnd}, last_event_at = ${at},
      current_period_end = coalesce(${terms.periodEnd}, current_period_end)
    where id = ${subscriptionId}`);
}

export async function markSubscriptionExpired(tx: Tx, subscriptionId: string, at: Date): Promise<void> {
  await tx.execute(sql`
    update subscriptions set status = 'expired', last_event_at = ${at} where id = ${subscriptionId}`);
}
