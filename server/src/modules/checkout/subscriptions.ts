import { PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import type { PaymentSession, Subscription } from '@streamshop/contract/payments.ts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { providerUnavailable } from './service.ts';

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
  const [account] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, user.id));
  if (!account) throw notFound('Account not found');
  if (account.plan === 'pro') throw conflict('CONFLICT', ALREADY_PRO_MESSAGE);

  const [open] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, ['incomplete', 'active'])));
  if (open?.status === 'active') throw conflict('CONFLICT', ALREADY_PRO_MESSAGE);
  if (open?.clientSecret && open.provider === provider.name) return session(open.clientSecret);
  if (open) {
    // Left unfinished by a crash or another provider: start over.
    await db.update(subscriptions).set({ status: 'canceled' }).where(eq(subscriptions.id, open.id));
  }

  let subscriptionId: string;
  try {
    const [row] = await db
      .insert(subscriptions)
      .values({ userId: user.id, provider: provider.name, status: 'incomplete' })
      .returning({ id: subscriptions.id });
    if (!row) throw new Error('the subscription row was not written');
    subscriptionId = row.id;
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
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
    await db
      .update(subscriptions)
      .set({ providerRef: created.ref, clientSecret: created.clientSecret })
      .where(eq(subscriptions.id, subscriptionId));
    return session(created.clientSecret);
  } catch (error) {
    await db.update(subscriptions).set({ status: 'canceled' }).where(eq(subscriptions.id, subscriptionId));
    throw providerUnavailable(error);
  }
}

function toSubscription(row: typeof subscriptions.$inferSelect): Subscription {
  return {
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** The caller's latest subscription that was ever paid for, or null. */
export async function subscriptionOf(db: Db, userId: string): Promise<Subscription | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ['active', 'expired'])))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ? toSubscription(row) : null;
}

/** Cancels at the end of the paid period: pro stays until then, then the provider ends it. */
export async function cancelSubscription(
  db: Db,
  provider: PaymentProvider,
  userId: string,
): Promise<Subscription> {
  const [active] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')));
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
  const [updated] = await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true })
    .where(eq(subscriptions.id, active.id))
    .returning();
  return toSubscription(updated ?? active);
}
