import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';

/** How often every instance looks for expired holds, refunds to retry and local renewals. */
export const PAYMENT_JOBS_INTERVAL_MS = 1000;
const BATCH = 50;

/** Gives back payments marked 'refunding'; a provider failure leaves them for the next run. */
export async function completeRefunds(
  db: Db,
  provider: PaymentProvider,
  log?: FastifyBaseLogger,
): Promise<number> {
  const due = await db.execute<{ id: string; provider_ref: string }>(sql`
    select id, provider_ref from payments
    where status = 'refunding' and provider = ${provider.name} and provider_ref is not null
    order by updated_at limit ${BATCH}`);
  let refunded = 0;
  for (const payment of due.rows) {
    try {
      await provider.refundPayment(payment.provider_ref);
      await db.execute(
        sql`update payments set status = 'refunded', updated_at = now() where id = ${payment.id}`,
      );
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
  const due = await db.execute<{ id: string; provider_ref: string | null }>(sql`
    select id, provider_ref from payments
    where status = 'pending' and provider = ${provider.name} and reserved_until <= now()
    order by reserved_until limit ${BATCH}`);
  let released = 0;
  for (const payment of due.rows) {
    try {
      const outcome = payment.provider_ref ? await provider.cancelPayment(payment.provider_ref) : 'canceled';
      if (outcome === 'succeeded') {
        // Paid at the last moment: keep the unit a little longer for the webhook.
        await db.execute(sql`
          update payments set reserved_until = now() + interval '1 minute', updated_at = now()
          where id = ${payment.id} and status = 'pending'`);
        continue;
      }
      const result = await db.execute(sql`
        update payments set status = 'expired', updated_at = now()
        where id = ${payment.id} and status = 'pending' returning id`);
      released += result.rows.length;
    } catch (error) {
      log?.warn({ err: error, paymentId: payment.id }, 'could not cancel an expired checkout; will retry');
    }
  }
  return released;
}

/** Subscriptions opened but never paid within a day are dropped, so a new attempt starts clean. */
export async function dropAbandonedSubscriptions(db: Db): Promise<void> {
  await db.execute(sql`
    update subscriptions set status = 'canceled'
    where status = 'incomplete' and created_at < now() - interval '1 day'`);
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
