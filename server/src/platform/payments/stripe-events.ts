/** Stripe's webhook events as the product's PaymentEvents (stripe.ts's parseWebhook verifies them first). */
import type Stripe from 'stripe';
import type { PaymentEvent } from './provider.ts';

/** The message of a failed payment when Stripe gives none. */
const DEFAULT_FAILURE_MESSAGE = 'Your payment could not be completed.';

/** A connected account takes destination charges once transfers are active, and pays out once enabled. */
export function accountReady(account: Stripe.Account): boolean {
  return account.payouts_enabled === true && account.capabilities?.transfers === 'active';
}

/** Translates a verified Stripe event into the product's PaymentEvent. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, createdAt: new Date(event.created * 1000) };
  const ignored: PaymentEvent = { ...base, type: 'ignored', providerType: event.type };

  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      const paymentId = intent.metadata?.paymentId;
      // Subscription invoices are paid by PaymentIntents too; those arrive as invoice.paid.
      if (!paymentId) return ignored;
      return {
        ...base,
        type: 'payment.succeeded',
        paymentId,
        ref: intent.id,
        amountCents: intent.amount_received || intent.amount,
      };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const paymentId = intent.metadata?.paymentId;
      if (!paymentId) return ignored;
      return {
        ...base,
        type: 'payment.failed',
        paymentId,
        ref: intent.id,
        message: intent.last_payment_error?.message ?? DEFAULT_FAILURE_MESSAGE,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const invoice = event.data.object;
      const parentSubscription = invoice.parent?.subscription_details?.subscription;
      if (!parentSubscription) return ignored;
      // The paid period ends where the invoice's latest line ends (invoice.period_end is the
      // previous period for subscription invoices).
      const lineEnds = invoice.lines.data.map((line) => line.period.end);
      if (lineEnds.length === 0) return ignored;
      return {
        ...base,
        type: 'subscription.paid',
        subscriptionRef: typeof parentSubscription === 'string' ? parentSubscription : parentSubscription.id,
        invoiceRef: invoice.id ?? event.id,
        periodEnd: new Date(Math.max(...lineEnds) * 1000),
      };
    }
    case 'customer.subscription.updated': {
      const subscription = event.data.object;
      const periodEnd = subscription.items.data[0]?.current_period_end;
      return {
        ...base,
        type: 'subscription.updated',
        subscriptionRef: subscription.id,
        periodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
      };
    }
    case 'customer.subscription.deleted':
      return { ...base, type: 'subscription.ended', subscriptionRef: event.data.object.id };
    case 'account.updated':
      return {
        ...base,
        type: 'seller.updated',
        accountRef: event.data.object.id,
        ready: accountReady(event.data.object),
      };
    case 'payout.paid':
    case 'payout.failed':
    case 'payout.canceled': {
      // A connected account's payout names the account; one without it is the platform's own
      // payout to its bank, which is no seller's money.
      if (!event.account) return ignored;
      const payout = event.data.object;
      return {
        ...base,
        type: event.type === 'payout.paid' ? 'payout.paid' : 'payout.failed',
        accountRef: event.account,
        payoutRef: payout.id,
        amountCents: payout.amount,
        currency: payout.currency,
      };
    }
    default:
      return ignored;
  }
}
