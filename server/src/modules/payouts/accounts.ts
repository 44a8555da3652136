import { ONBOARDING_RETURN_PATH, type PayoutAccount } from '@streamshop/contract/orders.ts';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { type PaymentProvider, providerUnavailable } from '../../platform/payments/provider.ts';
import { accountOf, keepAccountRef, setAccountReady } from './accounts-repo.ts';

/**
 * Sellers' payout accounts (ADR 0016). With Stripe Connect a seller onboards on Stripe's hosted
 * pages and takes paid orders once Stripe can pay them; the local provider needs none of it.
 */

export const NOT_ONBOARDED_MESSAGE =
  'This seller is not taking orders yet: they have not finished setting up payouts.';
export const NO_ONBOARDING_MESSAGE =
  'Payouts need no setting up with the local payment provider: your earnings are kept in the ledger.';
export const ALREADY_READY_MESSAGE = 'Your payouts are set up already.';

/**
 * GET /api/payouts/account. While an account is pending the provider is asked again (the seller
 * is usually just back from its onboarding, before or without the account.updated webhook).
 */
export async function payoutAccount(
  db: Db,
  provider: PaymentProvider,
  userId: string,
): Promise<PayoutAccount> {
  const accounts = provider.sellerAccounts;
  if (!accounts) return { status: 'not_required', readySince: null };
  const row = await accountOf(db, userId);
  if (!row) throw notFound('User not found');
  if (!row.stripe_account_id) return { status: 'not_started', readySince: null };
  if (!row.payouts_enabled_at) {
    const ready = await accounts.ready(row.stripe_account_id).catch((error: unknown) => {
      throw providerUnavailable(error);
    });
    if (!ready) return { status: 'pending', readySince: null };
    await setAccountReady(db, row.stripe_account_id, true);
    return payoutAccount(db, provider, userId);
  }
  return { status: 'ready', readySince: iso(row.payouts_enabled_at) };
}

/**
 * POST /api/payouts/onboarding: opens the seller's account on first use and answers a fresh link
 * to the provider's onboarding of it (links are single use, so each visit asks for a new one).
 */
export async function startOnboarding(
  db: Db,
  provider: PaymentProvider,
  userId: string,
  publicUrl: string,
): Promise<{ url: string }> {
  const accounts = provider.sellerAccounts;
  if (!accounts) throw conflict('CONFLICT', NO_ONBOARDING_MESSAGE);
  const row = await accountOf(db, userId);
  if (!row) throw notFound('User not found');
  if (row.payouts_enabled_at) throw conflict('CONFLICT', ALREADY_READY_MESSAGE);
  try {
    const accountRef =
      row.stripe_account_id ??
      (await keepAccountRef(db, userId, await accounts.create({ userId, email: row.email })));
    if (!accountRef) throw new Error('the account was not kept');
    const back = `${publicUrl.replace(/\/$/, '')}${ONBOARDING_RETURN_PATH}&onboarding=`;
    const url = await accounts.onboardingLink(accountRef, {
      returnUrl: `${back}return`,
      refreshUrl: `${back}refresh`,
    });
    return { url };
  } catch (error) {
    throw providerUnavailable(error);
  }
}

/** The provider's account.updated: in the transaction that records the event. */
export function sellerAccountChanged(tx: Tx, accountRef: string, ready: boolean): Promise<void> {
  return setAccountReady(tx, accountRef, ready);
}

/**
 * Where a checkout's money goes: null with the local provider; the seller's ready account with
 * Stripe Connect, or 409 when the seller has not finished onboarding (no paid orders before).
 */
export async function payoutDestination(
  tx: Tx,
  provider: PaymentProvider,
  sellerId: string,
): Promise<string | null> {
  if (!provider.sellerAccounts) return null;
  const row = await accountOf(tx, sellerId);
  if (!row?.stripe_account_id || !row.payouts_enabled_at) throw conflict('CONFLICT', NOT_ONBOARDED_MESSAGE);
  return row.stripe_account_id;
}
