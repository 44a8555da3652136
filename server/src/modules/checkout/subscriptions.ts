import { PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import type { PaymentSession, Subscription } from '@streamshop/contract/payments.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { providerUnavailable } from './service.ts';
import {
  activeSubscriptionOf,
  attachProviderSubscription,
  cancelSubscriptionRow,
  insertIncompleteSubscription,
  latestPaidSubscriptionOf,
  markCancelAtPeriodEnd,
  openSubscriptionOf,
  planOf,
  type SubscriptionRow,
} from './subscriptions-repo.ts';

export const ALREADY_PRO_MESSAGE = 'Already Pro';

const UNIQUE_VIOLATION = '23505';

/**
 * Opens a Pro subscription for a free user. The plan changes only when the provider confirms the
 * first payment (subscription.paid); until then the subscription is 'incomplete' and a return to
 * /subscribe continues it.
 */
export async function openSubscription(
  db: Db,
  provider: PaymentProvider,
  user: { id: string; email: string },
): Promise<PaymentSession> {
  const session = (clientSecret: string): PaymentSession => ({
    clientSecret,
    amountCents: PRO_PRICE_CENTS,
    reservedUntil: null,
  });
  const plan = await planOf(db, user.id);
  if (!plan) throw notFound('Account not found');
  if (plan === 'pro') throw conflict('CONFLICT', ALREADY_PRO_MESSAGE);

  const open = await openSubscriptionOf(db, user.id);
  if (open?.status === 'active') throw conflict('CONFLICT', ALREADY_PRO_MESSAGE);
  if (open?.clientSecret && open.provider === provider.name) return session(open.clientSecret);
  if (open) {
    // Left unfinished by a crash or another provider: start over.
    await cancelSubscriptionRow(db, open.id);
  }

  let subscriptionId: string;
  try {
    subscriptionId = await insertIncompleteSubscription(db, user.id, provider.name);
  } catch (error) {
    const code =
      (error as { code?: string; cause?: { code?: string } }).code ??
      (error as { cause?: { code?: string } }).cause?.code;
    if (code === UNIQUE_VIOLATION) {
      throw conflict('CONFLICT', 'Your subscription is already being set up. Try again in a moment.');
    }
    throw error;
  }

  try {
    const created = await provider.createSubscription({
      subscriptionId,
      userId: user.id,
      email: user.email,
      amountCents: PRO_PRICE_CENTS,
    });
    await attachProviderSubscription(db, subscriptionId, created);
    return session(created.clientSecret);
  } catch (error) {
    await cancelSubscriptionRow(db, subscriptionId);
    throw providerUnavailable(error);
  }
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** The caller's latest subscription that was ever paid for, or null. */
export async function subscriptionOf(db: Db, userId: string): Promise<Subscription | null> {
  const row = await latestPaidSubscriptionOf(db, userId);
  return row ? toSubscription(row) : null;
}

/** Cancels at the end of the paid period: pro stays until then, then the provider ends it. */
export async function cancelSubscription(
  db: Db,
  provider: PaymentProvider,
  userId: string,
): Promise<Subscription> {
  const active = await activeSubscriptionOf(db, userId);
  if (!active?.providerRef) throw conflict('CONFLICT', 'You have no active Pro subscription to cancel.');
  if (active.cancelAtPeriodEnd) return toSubscription(active);
  if (active.provider !== provider.name) {
    throw conflict('CONFLICT', 'This subscription is managed by another payment provider.');
  }
  try {
    await provider.cancelSubscriptionAtPeriodEnd(active.providerRef);
  } catch (error) {
    throw providerUnavailable(error);
  }
  const updated = await markCancelAtPeriodEnd(db, active.id);
  return toSubscription(updated ?? active);
}
