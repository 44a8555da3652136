import { MONEY_BACK_DAYS, PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import type { PaymentSession, Subscription } from '@streamshop/contract/payments.ts';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { providerUnavailable } from '../../platform/payments/provider.ts';
import { type CheckoutMail, formatLongDate, proCancelledMail, proRefundedMail } from './mail.ts';
import { putOnPlan } from './plan.ts';
import {
  accountForMail,
  activeSubscriptionOf,
  attachProviderSubscription,
  cancelSubscriptionRow,
  claimMoneyBack,
  currentEmailHash,
  insertIncompleteSubscription,
  latestPaidSubscriptionOf,
  markCancelAtPeriodEnd,
  markRefunded,
  moneyBackEmailHash,
  moneyBackUsedAt,
  openSubscriptionOf,
  planOf,
  recordEarlierMoneyBackClaims as recordEarlierClaims,
  releaseRefundAttempt,
  type SubscriptionRow,
  subscriptionById,
} from './subscriptions-repo.ts';

export const ALREADY_PRO_MESSAGE = 'Already Pro';

/** The answer (409) to a money-back request while an earlier one is with the provider. */
export const MONEY_BACK_PROCESSING_MESSAGE = 'Your money-back refund is already being processed.';

/**
 * How long a money-back request holds the subscription while it asks the provider (several
 * calls, each retried): one that dies leaves it to a retry after this long.
 */
const REFUND_ATTEMPT_SEC = 300;

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

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of the money-back window of an active subscription, or null when it is over or used. */
function refundableUntil(row: SubscriptionRow, usedElsewhere: Date | null, now = new Date()): Date | null {
  if (row.status !== 'active' || !row.firstPaidAt || usedElsewhere) return null;
  const until = new Date(row.firstPaidAt.getTime() + MONEY_BACK_DAYS * DAY_MS);
  return row.refundRequestedAt || until > now ? until : null;
}

function toSubscription(row: SubscriptionRow, usedElsewhere: Date | null): Subscription {
  return {
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    refundableUntil: refundableUntil(row, usedElsewhere)?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** When the account, or its address (`secret` keys its hash), used the guarantee on another subscription. */
async function usedElsewhereAt(db: Db, secret: string, userId: string, exceptId: string) {
  return moneyBackUsedAt(db, userId, await currentEmailHash(db, secret, userId), exceptId);
}

async function subscriptionView(
  db: Db,
  secret: string,
  userId: string,
  row: SubscriptionRow,
): Promise<Subscription> {
  const usedElsewhere = row.status === 'active' ? await usedElsewhereAt(db, secret, userId, row.id) : null;
  return toSubscription(row, usedElsewhere);
}

/** The caller's latest subscription that was ever paid for, or null. */
export async function subscriptionOf(db: Db, secret: string, userId: string): Promise<Subscription | null> {
  const row = await latestPaidSubscriptionOf(db, userId);
  return row ? subscriptionView(db, secret, userId, row) : null;
}

/** The account's active subscription at its provider, for a cancel or a refund; 409 without one. */
async function activeSubscriptionToChange(
  db: Db,
  userId: string,
  verb: 'cancel' | 'refund',
): Promise<SubscriptionRow & { providerRef: string }> {
  const active = await activeSubscriptionOf(db, userId);
  if (!active?.providerRef) throw conflict('CONFLICT', `You have no active Pro subscription to ${verb}.`);
  return { ...active, providerRef: active.providerRef };
}

function assertManagedBy(subscription: SubscriptionRow, provider: PaymentProvider): void {
  if (subscription.provider !== provider.name) {
    throw conflict('CONFLICT', 'This subscription is managed by another payment provider.');
  }
}

/**
 * Cancels at the end of the paid period: pro stays until then, then the provider ends it. The
 * notice is queued with the change, once per subscription.
 */
export async function cancelSubscription(
  db: Db,
  provider: PaymentProvider,
  mail: CheckoutMail,
  userId: string,
): Promise<Subscription> {
  const active = await activeSubscriptionToChange(db, userId, 'cancel');
  if (active.cancelAtPeriodEnd) {
    // Already cancelled (maybe by the provider's event, after a request that died before its
    // notice): the notice's key lets it go out at most once.
    await queueCancellationNotice(db, mail, userId, active);
    return subscriptionView(db, mail.moneyBackSecret, userId, active);
  }
  assertManagedBy(active, provider);
  try {
    await provider.cancelSubscriptionAtPeriodEnd(active.providerRef);
  } catch (error) {
    throw providerUnavailable(error);
  }
  const updated = await db.transaction(async (tx) => {
    const row = (await markCancelAtPeriodEnd(tx, active.id)) ?? active;
    await queueCancellationNotice(tx, mail, userId, row);
    return row;
  });
  return subscriptionView(db, mail.moneyBackSecret, userId, updated);
}

async function queueCancellationNotice(
  tx: Db | Tx,
  mail: CheckoutMail,
  userId: string,
  subscription: SubscriptionRow,
): Promise<void> {
  const account = await accountForMail(tx, userId);
  if (!account) return;
  await mail.mailer.queue(
    tx,
    `pro-cancel:${subscription.id}`,
    account.email,
    proCancelledMail(mail.publicUrl, {
      firstName: account.firstName,
      paidUntil: subscription.currentPeriodEnd,
    }),
  );
}

const MONTH_MS = (365.25 / 12) * DAY_MS;

/**
 * What the money-back refund gave back: every invoice paid so far, one per month from the first
 * payment to the end of the paid period (a month shorter than the guarantee, as February, can
 * have renewed once within it).
 */
function refundedCents(subscription: SubscriptionRow): number {
  const { firstPaidAt, currentPeriodEnd } = subscription;
  const months =
    firstPaidAt && currentPeriodEnd
      ? Math.round((currentPeriodEnd.getTime() - firstPaidAt.getTime()) / MONTH_MS)
      : 1;
  return Math.max(1, months) * PRO_PRICE_CENTS;
}

/** 409: the guarantee was used on `at` (the subscription still running can be cancelled). */
const moneyBackUsed = (at: Date, running: boolean) =>
  conflict(
    'CONFLICT',
    `The money-back guarantee can be used once per account, and yours was used on ${formatLongDate(at)}.${running ? ' You can still cancel at the end of the billing period.' : ''}`,
  );

/** 409 for a subscription whose refund was asked for: done (used), or still with the provider. */
const moneyBackTaken = (row: SubscriptionRow & { refundRequestedAt: Date }) =>
  row.refundedAt
    ? moneyBackUsed(row.refundRequestedAt, false)
    : conflict('CONFLICT', MONEY_BACK_PROCESSING_MESSAGE);

/**
 * Why the claim was refused, read again after it: the guarantee was used by another subscription
 * (of the account or its address) meanwhile, this one's refund is done or with the provider (a
 * request sent at the same time), or its 30 days are over.
 */
async function refusal(db: Db, secret: string, userId: string, active: SubscriptionRow) {
  const usedElsewhere = await usedElsewhereAt(db, secret, userId, active.id);
  if (usedElsewhere) return moneyBackUsed(usedElsewhere, true);
  const now = (await subscriptionById(db, active.id)) ?? active;
  if (now.refundRequestedAt) return moneyBackTaken({ ...now, refundRequestedAt: now.refundRequestedAt });
  const ended = active.firstPaidAt ? new Date(active.firstPaidAt.getTime() + MONEY_BACK_DAYS * DAY_MS) : null;
  return conflict(
    'CONFLICT',
    `The ${MONEY_BACK_DAYS}-day money-back guarantee ${ended ? `ended on ${formatLongDate(ended)}` : 'has ended'}. You can still cancel at the end of the billing period.`,
  );
}

/**
 * The 30-day money-back guarantee: the provider gives the first payment back and ends the
 * subscription, and the account is on the free plan at once (a live stream keeps its limits until
 * it ends). Once per account and per address (a keyed hash of it is kept, so a new account with
 * the address of a deleted one, or the account under a new address, cannot use it again); a retry
 * after the provider failed part-way is the same request; requests sent at the same time refund
 * once, the others told it is being processed (or done).
 */
export async function refundSubscription(
  db: Db,
  provider: PaymentProvider,
  mail: CheckoutMail,
  userId: string,
): Promise<Subscription> {
  const secret = mail.moneyBackSecret;
  const active = await activeSubscriptionOf(db, userId);
  if (!active?.providerRef) {
    // Ended by a refund (maybe a request sent with this one): say so rather than "no subscription".
    const latest = await latestPaidSubscriptionOf(db, userId);
    if (latest?.refundRequestedAt)
      throw moneyBackTaken({ ...latest, refundRequestedAt: latest.refundRequestedAt });
    throw conflict('CONFLICT', 'You have no active Pro subscription to refund.');
  }
  assertManagedBy(active, provider);
  const usedElsewhere = await usedElsewhereAt(db, secret, userId, active.id);
  if (usedElsewhere) throw moneyBackUsed(usedElsewhere, true);
  const emailHash = await currentEmailHash(db, secret, userId);
  const claimed = emailHash
    ? await claimMoneyBack(db, {
        subscriptionId: active.id,
        emailHash,
        days: MONEY_BACK_DAYS,
        attemptSec: REFUND_ATTEMPT_SEC,
      })
    : undefined;
  if (!claimed?.providerRef) throw await refusal(db, secret, userId, active);
  try {
    await provider.refundSubscription(claimed.providerRef);
  } catch (error) {
    // Not refunded: a retry may go at once (the request itself stays recorded, so it still may
    // after the 30 days).
    await releaseRefundAttempt(db, claimed.id);
    throw providerUnavailable(error);
  }
  const refunded = await db.transaction(async (tx) => {
    const row = await markRefunded(tx, claimed.id);
    await putOnPlan(tx, userId, 'free');
    const account = await accountForMail(tx, userId);
    if (account) {
      await mail.mailer.queue(
        tx,
        `pro-refund:${claimed.id}`,
        account.email,
        proRefundedMail(mail.publicUrl, {
          firstName: account.firstName,
          amountCents: refundedCents(claimed),
        }),
      );
    }
    return row;
  });
  return toSubscription(refunded ?? claimed, null);
}

/**
 * Money-back refunds claimed before claims were kept by address, recorded now under the account's
 * current address (idempotent; run at start).
 */
export function recordEarlierMoneyBackClaims(db: Db, secret: string): Promise<number> {
  return recordEarlierClaims(db, (email) => moneyBackEmailHash(secret, email));
}
