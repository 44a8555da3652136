import {
  type CardSetup,
  MAX_PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentMethodsResponse,
} from '@streamshop/contract/payment-methods.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { conflict, notFound, tooManyRequests } from '../../platform/errors.ts';
import { type PaymentProvider, providerUnavailable } from '../../platform/payments/provider.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { savedAddresses } from '../checkout/service.ts';
import {
  customerRefOf,
  deleteMethod,
  insertMethod,
  keepCustomerRef,
  lockAccountCards,
  methodByRef,
  methodOfUser,
  methodsOf,
  type PaymentMethodRow,
} from './repo.ts';

/** Saved cards (issue 28): what auctions charge off-session when the buyer wins. */

export const TOO_MANY_CARDS_MESSAGE = `You can keep at most ${MAX_PAYMENT_METHODS} cards. Remove one before adding another.`;
export const NOT_CONFIRMED_MESSAGE = 'The card is not confirmed yet';
const SETUP_NOT_FOUND_MESSAGE = 'No such card setup';

/** Card setups an account may open per window: enough for typos and retries, not for card testing. */
export const SETUP_LIMIT = { perAccount: 10, windowSec: 3600 };

const toPaymentMethod = (row: PaymentMethodRow, isDefault: boolean): PaymentMethod => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.expMonth,
  expYear: row.expYear,
  isDefault,
  createdAt: iso(row.createdAt),
});

/** Runs a provider call; its failure is a 502 (503 while the database is away). */
async function atProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw providerUnavailable(error);
  }
}

/** GET /api/payment-methods: the caller's cards at this provider, newest (the default) first. */
export async function listPaymentMethods(
  db: Db,
  provider: PaymentProvider,
  userId: string,
): Promise<PaymentMethodsResponse> {
  const [rows, addresses] = await Promise.all([
    methodsOf(db, userId, provider.name),
    savedAddresses(db, userId),
  ]);
  return {
    paymentMethods: rows.map((row, index) => toPaymentMethod(row, index === 0)),
    defaultShippingAddress: addresses[0] ?? null,
  };
}

/** POST /api/payment-methods/setup: a setup to confirm in the browser (the customer made on the first). */
export async function openCardSetup(
  db: Db,
  provider: PaymentProvider,
  limiter: RateLimiter,
  user: { id: string; email: string },
): Promise<CardSetup> {
  const limit = await limiter.hit(
    `payment-methods:setup:${user.id}`,
    SETUP_LIMIT.perAccount,
    SETUP_LIMIT.windowSec,
  );
  if (!limit.allowed) throw tooManyRequests(limit.retryAfterSec);
  if ((await methodsOf(db, user.id, provider.name)).length >= MAX_PAYMENT_METHODS) {
    throw conflict('CONFLICT', TOO_MANY_CARDS_MESSAGE);
  }
  const known = await customerRefOf(db, user.id, provider.name);
  const setup = await atProvider(() =>
    provider.createCardSetup({ userId: user.id, email: user.email, customerRef: known }),
  );
  if (known) return { clientSecret: setup.clientSecret, setupRef: setup.setupRef };
  const kept = await keepCustomerRef(db, user.id, provider.name, setup.customerRef);
  if (kept === setup.customerRef) return { clientSecret: setup.clientSecret, setupRef: setup.setupRef };
  // Another request made the account's customer first: set up on that one instead.
  const again = await atProvider(() =>
    provider.createCardSetup({ userId: user.id, email: user.email, customerRef: kept }),
  );
  return { clientSecret: again.clientSecret, setupRef: again.setupRef };
}

/**
 * POST /api/payment-methods {setupRef}: saves the card a confirmed setup of the caller's saved;
 * the same card twice is the same saved card. 404 for a setup of another account.
 */
export async function saveCard(
  db: Db,
  provider: PaymentProvider,
  userId: string,
  setupRef: string,
): Promise<PaymentMethod> {
  const customerRef = await customerRefOf(db, userId, provider.name);
  // No customer yet: this account opened no setup, so the setup is someone else's.
  if (!customerRef) throw notFound(SETUP_NOT_FOUND_MESSAGE);
  const card = await atProvider(() => provider.savedCard(setupRef));
  if (card && card.customerRef !== customerRef) throw notFound(SETUP_NOT_FOUND_MESSAGE);
  if (!card) throw conflict('CONFLICT', NOT_CONFIRMED_MESSAGE);
  const saved = await db.transaction(async (tx) => {
    await lockAccountCards(tx, userId);
    const existing = await methodByRef(tx, provider.name, card.methodRef);
    if (existing) return existing;
    if ((await methodsOf(tx, userId, provider.name)).length >= MAX_PAYMENT_METHODS) {
      throw conflict('CONFLICT', TOO_MANY_CARDS_MESSAGE);
    }
    return insertMethod(tx, userId, provider.name, card);
  });
  // The method ref is the caller's customer's (checked above), so a row found is theirs.
  if (!saved || saved.userId !== userId) throw notFound(SETUP_NOT_FOUND_MESSAGE);
  const newest = (await methodsOf(db, userId, provider.name))[0];
  return toPaymentMethod(saved, newest?.id === saved.id);
}

/** DELETE /api/payment-methods/:id: forgets the card here and at the provider; 404 for another's. */
export async function removeCard(
  db: Db,
  provider: PaymentProvider,
  userId: string,
  id: string,
): Promise<void> {
  const method = await methodOfUser(db, userId, id);
  if (!method) throw notFound('Card not found');
  // Detached first: a failure leaves the card listed, and a retry detaches it (idempotent).
  if (method.provider === provider.name) await atProvider(() => provider.detachCard(method.methodRef));
  await deleteMethod(db, userId, id);
}

/** The card an auction win is charged to: the account's newest at this provider, if any. */
export async function defaultCardOf(
  db: Db,
  userId: string,
  provider: string,
): Promise<{ id: string; customerRef: string; methodRef: string; brand: string; last4: string } | undefined> {
  const newest = (await methodsOf(db, userId, provider))[0];
  if (!newest) return undefined;
  const { id, customerRef, methodRef, brand, last4 } = newest;
  return { id, customerRef, methodRef, brand, last4 };
}
