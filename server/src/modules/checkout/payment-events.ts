import type { Db, Tx } from '../../db/client.ts';
import type { PaymentEvent } from '../../platform/payments/provider.ts';
import {
  insertOrder,
  lockPayment,
  lockSubscriptionByRef,
  markDiscPreorderPaid,
  markRefunding,
  markSubscriptionActive,
  markSubscriptionExpired,
  markSucceeded,
  noteFailedAttempt,
  recordEvent,
  setUserPlan,
  takeOneUnit,
  updateSubscriptionTerms,
} from './payment-events-repo.ts';

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
    if (!(await recordEvent(tx, provider, event.id, event.type)))
      return { outcome: 'duplicate', refunds: [] };
    switch (event.type) {
      case 'payment.succeeded':
        return paymentSucceeded(tx, event);
      case 'payment.failed':
        if (UUID.test(event.paymentId)) {
          await noteFailedAttempt(tx, event.paymentId, event.message);
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
  const payment = await lockPayment(tx, event.paymentId);
  // Unknown payment, or already settled by an earlier event: nothing to do.
  if (!payment || !['pending', 'expired', 'failed'].includes(payment.status)) {
    return { outcome: 'handled', refunds: [] };
  }
  const refund = async (reason: string): Promise<PaymentEventResult> => {
    await markRefunding(tx, payment.id, event.ref, reason);
    return { outcome: 'handled', refunds: [event.ref] };
  };
  if (event.amountCents !== payment.amount_cents) {
    return refund(`Paid ${event.amountCents} cents where ${payment.amount_cents} were due`);
  }

  if (payment.kind === 'checkout') {
    const sellerId = await takeOneUnit(tx, payment.product_id);
    const buyerId = payment.user_id;
    if (!sellerId || !buyerId) return refund('Sold out before the payment completed');
    const orderId = await insertOrder(tx, { ...payment, user_id: buyerId }, sellerId);
    await markSucceeded(tx, payment.id, event.ref);
    return { outcome: 'handled', refunds: [], orderId };
  }
  if (payment.kind === 'disc_preorder') {
    await markDiscPreorderPaid(tx, payment.id);
  }
  await markSucceeded(tx, payment.id, event.ref);
  return { outcome: 'handled', refunds: [] };
}

/**
 * Subscription events may arrive out of order: one older than the newest already applied is
 * ignored, so a late 'updated' cannot undo an 'ended', nor a late 'paid' revive it.
 */
async function subscriptionChanged(
  tx: Tx,
  event: Extract<PaymentEvent, { type: 'subscription.paid' | 'subscription.updated' | 'subscription.ended' }>,
) {
  const subscription = await lockSubscriptionByRef(tx, event.subscriptionRef);
  if (!subscription) return;
  if (subscription.last_event_at && new Date(subscription.last_event_at) > event.createdAt) return;
  const at = event.createdAt;

  if (event.type === 'subscription.paid') {
    if (subscription.status === 'expired' || subscription.status === 'canceled') return;
    // Paid: active until the later of the known and the new period end; the account turns Pro.
    await markSubscriptionActive(tx, subscription.id, at, event.periodEnd);
    await setUserPlan(tx, subscription.user_id, 'pro');
  } else if (event.type === 'subscription.updated') {
    await updateSubscriptionTerms(tx, subscription.id, at, event);
  } else {
    // Ended: expired, and the account back to free when it was the active one.
    await markSubscriptionExpired(tx, subscription.id, at);
    if (subscription.status === 'active') await setUserPlan(tx, subscription.user_id, 'free');
  }
}
