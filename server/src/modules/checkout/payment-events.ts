import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { PaymentEvent } from '../../platform/payments/provider.ts';

export type EventOutcome = 'handled' | 'duplicate';

export interface PaymentEventResult {
  outcome: EventOutcome;
  /** Provider refs of payments that must be given back (sold out meanwhile); refunded after commit. */
  refunds: string[];
  /** Set when an order was created. */
  orderId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies one verified provider event, exactly once: the event id is recorded in the same
 * transaction as its effects, so a replayed or concurrent duplicate changes nothing, and a crash
 * part-way leaves nothing recorded for the provider's retry to trip over.
 */
export async function applyPaymentEvent(
  db: Db,
  provider: string,
  event: PaymentEvent,
): Promise<PaymentEventResult> {
  return db.transaction(async (tx) => {
    const recorded = await tx.execute(sql`
      insert into payment_events (provider, event_id, type) values (${provider}, ${event.id}, ${event.type})
      on conflict do nothing returning event_id`);
    if (recorded.rows.length === 0) return { outcome: 'duplicate', refunds: [] };
    switch (event.type) {
      case 'payment.succeeded':
        return paymentSucceeded(tx, event);
      case 'payment.failed':
        if (UUID.test(event.paymentId)) {
          await tx.execute(sql`
            update payments set last_error = ${event.message}, updated_at = now()
            where id = ${event.paymentId} and status = 'pending'`);
        }
        return { outcome: 'handled', refunds: [] };
      case 'subscription.paid':
      case 'subscription.updated':
      case 'subscription.ended':
        await subscriptionChanged(tx, event);
        return { outcome: 'handled', refunds: [] };
      case 'ignored':
        return { outcome: 'handled', refunds: [] };
    }
  });
}

async function paymentSucceeded(
  tx: Tx,
  event: Extract<PaymentEvent, { type: 'payment.succeeded' }>,
): Promise<PaymentEventResult> {
  if (!UUID.test(event.paymentId)) return { outcome: 'handled', refunds: [] };
  const found = await tx.execute<{
    id: string;
    user_id: string | null;
    kind: string;
    product_id: string | null;
    amount_cents: number;
    status: string;
    stream_id: string | null;
    during_live: boolean;
  }>(sql`
    select id, user_id, kind, product_id, amount_cents, status, stream_id, during_live
    from payments where id = ${event.paymentId} for update`);
  const payment = found.rows[0];
  // Unknown payment, or already settled by an earlier event: nothing to do.
  if (!payment || !['pending', 'expired', 'failed'].includes(payment.status)) {
    return { outcome: 'handled', refunds: [] };
  }
  const refund = async (reason: string): Promise<PaymentEventResult> => {
    await tx.execute(sql`
      update payments set status = 'refunding', provider_ref = coalesce(provider_ref, ${event.ref}),
        last_error = ${reason}, reserved_until = null, updated_at = now()
      where id = ${payment.id}`);
    return { outcome: 'handled', refunds: [event.ref] };
  };
  if (event.amountCents !== payment.amount_cents) {
    return refund(`Paid ${event.amountCents} cents where ${payment.amount_cents} were due`);
  }

  if (payment.kind === 'checkout') {
    const taken = await tx.execute<{ seller_id: string }>(sql`
      update products set stock = stock - 1, updated_at = clock_timestamp()
      where id = ${payment.product_id} and stock > 0
      returning seller_id`);
    const sellerId = taken.rows[0]?.seller_id;
    if (!sellerId || !payment.user_id) return refund('Sold out before the payment completed');
    const order = await tx.execute<{ id: string }>(sql`
      insert into orders (buyer_id, seller_id, product_id, payment_id, amount_cents, stream_id, during_live)
      values (${payment.user_id}, ${sellerId}, ${payment.product_id}, ${payment.id}, ${payment.amount_cents},
        ${payment.stream_id}, ${payment.during_live})
      on conflict (payment_id) do nothing returning id`);
    await markSucceeded(tx, payment.id, event.ref);
    return { outcome: 'handled', refunds: [], orderId: order.rows[0]?.id };
  }
  if (payment.kind === 'disc_preorder') {
    await tx.execute(sql`update disc_preorders set status = 'paid' where payment_ref = ${payment.id}`);
  }
  await markSucceeded(tx, payment.id, event.ref);
  return { outcome: 'handled', refunds: [] };
}

async function markSucceeded(tx: Tx, paymentId: string, ref: string) {
  await tx.execute(sql`
    update payments set status = 'succeeded', provider_ref = coalesce(provider_ref, ${ref}),
      reserved_until = null, last_error = null, updated_at = now()
    where id = ${paymentId}`);
}

/**
 * Subscription events may arrive out of order: one older than the newest already applied is
 * ignored, so a late 'updated' cannot undo an 'ended', nor a late 'paid' revive it.
 */
async function subscriptionChanged(
  tx: Tx,
  event: Extract<PaymentEvent, { type: 'subscription.paid' | 'subscription.updated' | 'subscription.ended' }>,
) {
  const found = await tx.execute<{
    id: string;
    user_id: string;
    status: string;
    last_event_at: string | null;
  }>(sql`
    select id, user_id, status, last_event_at from subscriptions
    where provider_ref = ${event.subscriptionRef} for update`);
  const subscription = found.rows[0];
  if (!subscription) return;
  if (subscription.last_event_at && new Date(subscription.last_event_at) > event.createdAt) return;
  const at = event.createdAt;

  if (event.type === 'subscription.paid') {
    if (subscription.status === 'expired' || subscription.status === 'canceled') return;
    await tx.execute(sql`
      update subscriptions set status = 'active', last_event_at = ${at},
        current_period_end = greatest(coalesce(current_period_end, ${event.periodEnd}), ${event.periodEnd})
      where id = ${subscription.id}`);
    await tx.execute(sql`update users set plan = 'pro' where id = ${subscription.user_id}`);
  } else if (event.type === 'subscription.updated') {
    await tx.execute(sql`
      update subscriptions set cancel_at_period_end = ${event.cancelAtPeriodEnd}, last_event_at = ${at},
        current_period_end = coalesce(${event.periodEnd}, current_period_end)
      where id = ${subscription.id}`);
  } else {
    await tx.execute(sql`
      update subscriptions set status = 'expired', last_event_at = ${at} where id = ${subscription.id}`);
    if (subscription.status === 'active') {
      await tx.execute(sql`update users set plan = 'free' where id = ${subscription.user_id}`);
    }
  }
}
