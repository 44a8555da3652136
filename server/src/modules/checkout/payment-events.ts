import { MONEY_BACK_DAYS, PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { PaymentEvent } from '../../platform/payments/provider.ts';
import { confirmDiscPreorder } from '../disc/service.ts';
import { orderPlaced } from '../orders/service.ts';
import { recordProviderPayout, sellerAccountChanged } from '../payouts/service.ts';
import { type CheckoutMail, proReceiptMail } from './mail.ts';
import {
  insertOrder,
  lockPayment,
  lockSubscriptionByRef,
  markRefunding,
  markSubscriptionActive,
  markSubscriptionExpired,
  markSucceeded,
  noteFailedAttempt,
  orderOfPayment,
  productOfPayment,
  recordEvent,
  type SubscriptionToChange,
  takeOneUnit,
  updateSubscriptionTerms,
} from './payment-events-repo.ts';
import { putOnPlan } from './plan.ts';
import { lockProduct } from './repo.ts';
import { accountForMail, moneyBackEmailHash, moneyBackUsedAt } from './subscriptions-repo.ts';

export type EventOutcome = 'handled' | 'duplicate';

export interface PaymentEventResult {
  outcome: EventOutcome;
  /** Provider refs of payments that must be given back (sold out meanwhile); refunded after commit. */
  refunds: string[];
  /** Set when an order was created. */
  orderId?: string;
  /** Why an event that should have changed something was recorded and left alone; logged. */
  unapplied?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies one verified provider event, exactly once: the event id is recorded in the same
 * transaction as its effects, so a replayed or concurrent duplicate changes nothing, and a crash
 * part-way leaves nothing recorded for the provider's retry to trip over. Receipts are queued in
 * the same transaction, so they go out once too.
 */
export async function applyPaymentEvent(
  db: Db,
  mail: CheckoutMail,
  provider: string,
  event: PaymentEvent,
): Promise<PaymentEventResult> {
  return db.transaction(async (tx) => {
    if (!(await recordEvent(tx, provider, event.id, event.type)))
      return { outcome: 'duplicate', refunds: [] };
    switch (event.type) {
      case 'payment.succeeded':
        return paymentSucceeded(tx, mail, event);
      case 'payment.failed':
        if (UUID.test(event.paymentId)) {
          await noteFailedAttempt(tx, event.paymentId, event.message);
        }
        return { outcome: 'handled', refunds: [] };
      case 'subscription.paid':
      case 'subscription.updated':
      case 'subscription.ended':
        await subscriptionChanged(tx, mail, provider, event);
        return { outcome: 'handled', refunds: [] };
      case 'seller.updated':
        await sellerAccountChanged(tx, event.accountRef, event.ready);
        return { outcome: 'handled', refunds: [] };
      case 'payout.paid':
      case 'payout.failed': {
        const done = await recordProviderPayout(tx, event, event.type === 'payout.paid' ? 'paid' : 'failed');
        // Another currency, or an account that is no seller's: recorded, so never retried, and logged.
        if (done === 'other_currency') {
          return { outcome: 'handled', refunds: [], unapplied: `a payout in ${event.currency}, not in USD` };
        }
        if (done === 'unknown_account') {
          return {
            outcome: 'handled',
            refunds: [],
            unapplied: `a payout of ${event.accountRef}, no seller's account`,
          };
        }
        return { outcome: 'handled', refunds: [] };
      }
      case 'ignored':
        return { outcome: 'handled', refunds: [] };
    }
  });
}

/**
 * A charge the server made and saw succeed (an auction's off-session charge), applied as its
 * provider's `payment.succeeded` event would be: the order is written once, whichever of this and
 * the webhook comes first. Answers the payment's order, and whether this call wrote it.
 */
export async function recordPaidCharge(
  tx: Tx,
  mail: CheckoutMail,
  charge: { paymentId: string; ref: string; amountCents: number },
): Promise<{ orderId: string | undefined; created: boolean }> {
  const result = await paymentSucceeded(tx, mail, {
    type: 'payment.succeeded',
    id: `charge:${charge.paymentId}`,
    createdAt: new Date(),
    paymentId: charge.paymentId,
    ref: charge.ref,
    amountCents: charge.amountCents,
  });
  if (result.orderId) return { orderId: result.orderId, created: true };
  // Written already, by the charge's webhook (which announced it) or an earlier try.
  return { orderId: await orderOfPayment(tx, charge.paymentId), created: false };
}

async function paymentSucceeded(
  tx: Tx,
  mail: CheckoutMail,
  event: Extract<PaymentEvent, { type: 'payment.succeeded' }>,
): Promise<PaymentEventResult> {
  if (!UUID.test(event.paymentId)) return { outcome: 'handled', refunds: [] };
  // The product's row before the payment's, in a checkout's order (lockProduct, then its holds):
  // the other way round, a buyer's checkout reopened while their payment settles waited on each
  // other, a deadlock PostgreSQL broke by failing one of them (seen under two instances).
  const productId = await productOfPayment(tx, event.paymentId);
  if (productId) await lockProduct(tx, productId);
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

  if (payment.kind === 'checkout' || payment.kind === 'auction') {
    const sellerId = await takeOneUnit(tx, payment.product_id);
    const buyerId = payment.user_id;
    if (!sellerId || !buyerId) return refund('Sold out before the payment completed');
    const orderId = await insertOrder(tx, { ...payment, user_id: buyerId }, sellerId);
    if (orderId) await orderPlaced(tx, mail, orderId);
    await markSucceeded(tx, payment.id, event.ref);
    return { outcome: 'handled', refunds: [], orderId };
  }
  if (payment.kind === 'disc_preorder') {
    await confirmDiscPreorder(tx, mail, { id: payment.id, amountCents: payment.amount_cents });
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
  mail: CheckoutMail,
  provider: string,
  event: Extract<PaymentEvent, { type: 'subscription.paid' | 'subscription.updated' | 'subscription.ended' }>,
) {
  const subscription = await lockSubscriptionByRef(tx, event.subscriptionRef);
  if (!subscription) return;
  if (subscription.last_event_at && new Date(subscription.last_event_at) > event.createdAt) return;
  const at = event.createdAt;

  if (event.type === 'subscription.paid') {
    if (subscription.status === 'expired' || subscription.status === 'canceled') return;
    // Paid: active until the later of the known and the new period end; the account turns Pro.
    const terms = await markSubscriptionActive(tx, subscription.id, at, event.periodEnd);
    await putOnPlan(tx, subscription.user_id, 'pro');
    await queueProReceipt(tx, mail, subscription, {
      provider,
      invoiceRef: event.invoiceRef,
      paidAt: at,
      ...terms,
    });
  } else if (event.type === 'subscription.updated') {
    await updateSubscriptionTerms(tx, subscription.id, at, event);
  } else {
    // Ended: expired, and the account back to free when it was the active one.
    await markSubscriptionExpired(tx, subscription.id, at);
    if (subscription.status === 'active') await putOnPlan(tx, subscription.user_id, 'free');
  }
}

/**
 * The receipt of one paid invoice, keyed by the provider's invoice: a replayed event stops at
 * recordEvent, and a second event about the same invoice is refused by the key.
 */
async function queueProReceipt(
  tx: Tx,
  mail: CheckoutMail,
  subscription: SubscriptionToChange,
  invoice: {
    provider: string;
    invoiceRef: string;
    paidAt: Date;
    paidUntil: Date;
    cancelAtPeriodEnd: boolean;
  },
) {
  const account = await accountForMail(tx, subscription.user_id);
  if (!account) return;
  const firstInvoice = subscription.first_paid_at === null;
  const emailHash = moneyBackEmailHash(mail.moneyBackSecret, account.email);
  const guaranteeOpen =
    firstInvoice && !(await moneyBackUsedAt(tx, subscription.user_id, emailHash, subscription.id));
  await mail.mailer.queue(
    tx,
    `pro-receipt:${invoice.provider}:${invoice.invoiceRef}`,
    account.email,
    proReceiptMail(mail.publicUrl, {
      firstName: account.firstName,
      amountCents: PRO_PRICE_CENTS,
      paidAt: invoice.paidAt,
      paidUntil: invoice.paidUntil,
      reference: invoice.invoiceRef,
      firstInvoice,
      cancelAtPeriodEnd: invoice.cancelAtPeriodEnd,
      refundableUntil: guaranteeOpen ? new Date(invoice.paidAt.getTime() + MONEY_BACK_DAYS * DAY_MS) : null,
    }),
  );
}
