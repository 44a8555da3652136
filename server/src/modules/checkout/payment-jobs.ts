import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { type PaymentProvider, providerUnavailable } from '../../platform/payments/provider.ts';
import {
  expireHold,
  extendHoldForWebhook,
  lapsedHolds,
  markRefunded,
  pendingHoldsOf,
  refundsDue,
} from './repo.ts';
import { cancelAbandonedSubscriptions } from './subscriptions-repo.ts';

/** How often every instance looks for expired holds, refunds to retry and local renewals. */
export const PAYMENT_JOBS_INTERVAL_MS = 1000;
const BATCH = 50;

/** Gives back payments marked 'refunding'; a provider failure leaves them for the next run. */
export async function completeRefunds(
  db: Db,
  provider: PaymentProvider,
  log?: FastifyBaseLogger,
  /** Only this payment (an order just cancelled or refunded): its request waits for no other. */
  only?: string,
): Promise<number> {
  let refunded = 0;
  for (const payment of await refundsDue(db, provider.name, BATCH, only)) {
    try {
      await provider.refundPayment(payment.ref);
      await markRefunded(db, payment.id);
      refunded++;
    } catch (error) {
      log?.warn({ err: error, paymentId: payment.id }, 'refund failed; will retry');
    }
  }
  return refunded;
}

/**
 * Frees the units of checkouts whose hold ran out. The provider cancels the payment first, so a
 * unit is free again only once that payment can no longer succeed; a payment that did succeed
 * keeps its hold until its webhook arrives.
 */
export async function releaseExpiredHolds(
  db: Db,
  provider: PaymentProvider,
  log?: FastifyBaseLogger,
): Promise<number> {
  let released = 0;
  for (const payment of await lapsedHolds(db, provider.name, BATCH)) {
    try {
      if (await releaseHold(db, provider, payment)) released += 1;
    } catch (error) {
      log?.warn({ err: error, paymentId: payment.id }, 'could not cancel an expired checkout; will retry');
    }
  }
  return released;
}

/**
 * Ends one hold: the provider cancels its payment first, so the unit is free only once that
 * payment can no longer succeed. False when it was paid at the last moment (the hold then lasts a
 * minute more, for the webhook) or was no longer pending.
 */
async function releaseHold(
  db: Db,
  provider: PaymentProvider,
  payment: { id: string; ref: string | null },
): Promise<boolean> {
  const outcome = payment.ref ? await provider.cancelPayment(payment.ref) : 'canceled';
  if (outcome === 'succeeded') {
    await extendHoldForWebhook(db, payment.id);
    return false;
  }
  return expireHold(db, payment.id);
}

/**
 * The buyer left checkout (DELETE /api/checkout/:productId): their holds of the product end now
 * rather than when they lapse. A provider failure answers 502; a hold left behind lapses as usual.
 */
export async function releaseBuyerHolds(
  db: Db,
  provider: PaymentProvider,
  buyerId: string,
  productId: string,
): Promise<number> {
  let released = 0;
  for (const payment of await pendingHoldsOf(db, buyerId, productId)) {
    try {
      if (await releaseHold(db, provider, payment)) released += 1;
    } catch (error) {
      throw providerUnavailable(error);
    }
  }
  return released;
}

/** Subscriptions opened but never paid within a day are dropped, so a new attempt starts clean. */
export function dropAbandonedSubscriptions(db: Db): Promise<void> {
  return cancelAbandonedSubscriptions(db);
}

export async function runPaymentJobs(
  db: Db,
  provider: PaymentProvider,
  log?: FastifyBaseLogger,
): Promise<void> {
  if (provider.name === 'local') {
    const local = provider as LocalProvider;
    await local.renewDue();
    await local.deliverDue();
  }
  await releaseExpiredHolds(db, provider, log);
  await completeRefunds(db, provider, log);
  await dropAbandonedSubscriptions(db);
}

/** Runs the jobs every second; the returned stop waits for a run already under way. */
export function startPaymentJobs(
  db: Db,
  provider: PaymentProvider,
  log: FastifyBaseLogger,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = runPaymentJobs(db, provider, log)
      .catch((error) => log.warn({ err: error }, 'payment jobs failed'))
      .finally(() => {
        running = undefined;
      });
  }, PAYMENT_JOBS_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
