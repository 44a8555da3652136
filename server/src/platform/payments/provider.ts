import type { PaymentConfig } from '@streamshop/contract/payments.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { AppError, databaseUnavailable } from '../errors.ts';

/**
 * One interface for every payment provider. The order logic (modules/checkout) only sees this:
 * it opens payments and subscriptions here, and learns their outcome from webhook events that
 * parseWebhook has verified and translated into PaymentEvent.
 */
export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  /**
   * Present when the provider pays sellers itself (Stripe Connect): each seller onboards to an
   * account of theirs before taking paid orders, and every checkout is a destination charge to it.
   * Absent for the local provider, whose ledger is the whole story (ADR 0016).
   */
  readonly sellerAccounts?: SellerAccounts;
  /** What the browser needs to show the card form. */
  clientConfig(): PaymentConfig;
  /** Opens a card payment; idempotent per paymentId. */
  createPayment(input: CreatePaymentInput): Promise<ProviderSession>;
  /**
   * Cancels an unpaid payment so it can no longer succeed. Answers 'succeeded' when it is too late
   * (the buyer paid), so the caller keeps the reservation and waits for the webhook.
   */
  cancelPayment(ref: string): Promise<'canceled' | 'succeeded'>;
  /** Gives a captured payment back; idempotent. */
  refundPayment(ref: string): Promise<void>;
  /**
   * Opens a payment on a page the provider hosts (the Stream Disc deposit): the visitor is sent to
   * `url` and comes back to successUrl or cancelUrl. Idempotent per paymentId.
   */
  createHostedPayment(input: CreateHostedPaymentInput): Promise<{ ref: string; url: string }>;
  /** Opens a monthly Pro subscription whose first invoice is paid with the returned secret. */
  createSubscription(input: CreateSubscriptionInput): Promise<ProviderSession>;
  /** Pro stays until the end of the paid period, then the provider ends the subscription. */
  cancelSubscriptionAtPeriodEnd(ref: string): Promise<void>;
  /**
   * The money-back guarantee: gives back every paid invoice of the subscription and ends it now
   * (the provider then reports subscription.ended). Idempotent: a retry after a failure part-way
   * refunds nothing twice.
   */
  refundSubscription(ref: string): Promise<void>;
  /**
   * Saved cards (auctions' "you bid, you buy"): opens a setup the browser confirms with the
   * provider's card form (Stripe: a SetupIntent for off-session use). `customerRef` is the
   * account's customer at the provider, made here when null and returned either way.
   */
  createCardSetup(input: {
    userId: string;
    email: string;
    customerRef: string | null;
  }): Promise<CardSetupSession>;
  /** The card a confirmed setup saved; null while the setup is not confirmed. */
  savedCard(setupRef: string): Promise<SavedCard | null>;
  /** Forgets a saved card at the provider (idempotent). */
  detachCard(methodRef: string): Promise<void>;
  /**
   * Charges a saved card off-session (no buyer present); idempotent per paymentId, so a retry after
   * a crash never charges twice. A decline is an answer, not an error; a network failure throws.
   */
  chargeSavedCard(input: ChargeSavedCardInput): Promise<SavedCardCharge>;
  /** Verifies the signature and translates the event; throws WebhookSignatureError otherwise. */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentEvent>;
}

export interface CreatePaymentInput {
  /** Our payments.id; the provider echoes it back in its events. */
  paymentId: string;
  amountCents: number;
  description: string;
  /** A destination charge: the seller's account gets the amount less the platform's fee. */
  transfer?: { accountRef: string; feeCents: number };
}

/** Sellers' payout accounts at the provider (Stripe Connect Express). */
export interface SellerAccounts {
  /** Opens the seller's account; idempotent per user, so a double click opens one. */
  create(input: { userId: string; email: string }): Promise<string>;
  /** A single-use link to the provider's hosted onboarding of that account. */
  onboardingLink(accountRef: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  /** Whether the account can receive transfers and be paid out now. */
  ready(accountRef: string): Promise<boolean>;
}

export interface CreateHostedPaymentInput extends CreatePaymentInput {
  email: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CreateSubscriptionInput {
  /** Our subscriptions.id. */
  subscriptionId: string;
  userId: string;
  email: string;
  amountCents: number;
}

export interface CardSetupSession {
  customerRef: string;
  setupRef: string;
  clientSecret: string;
}

export interface SavedCard {
  customerRef: string;
  methodRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeSavedCardInput extends CreatePaymentInput {
  customerRef: string;
  methodRef: string;
}

export type SavedCardCharge =
  | { status: 'succeeded'; ref: string }
  /** Declined (or needing the buyer, which off-session means the same): the card network's message. */
  | { status: 'declined'; ref: string | null; message: string };

export interface ProviderSession {
  ref: string;
  clientSecret: string;
}

interface EventBase {
  /** The provider's event id; an event id is handled at most once. */
  id: string;
  createdAt: Date;
}

export type PaymentEvent = EventBase &
  (
    | { type: 'payment.succeeded'; paymentId: string; ref: string; amountCents: number }
    | { type: 'payment.failed'; paymentId: string; ref: string; message: string }
    /**
     * An invoice of the subscription was paid: pro until periodEnd. `invoiceRef` names the invoice,
     * which a provider may announce in more than one event (Stripe: invoice.paid and
     * invoice.payment_succeeded): one receipt per invoice.
     */
    | { type: 'subscription.paid'; subscriptionRef: string; invoiceRef: string; periodEnd: Date }
    | {
        type: 'subscription.updated';
        subscriptionRef: string;
        periodEnd: Date | null;
        cancelAtPeriodEnd: boolean;
      }
    /** The provider ended the subscription (period over after a cancel, or unpaid). */
    | { type: 'subscription.ended'; subscriptionRef: string }
    /** A seller's payout account changed: it can (or can no longer) take paid orders. */
    | { type: 'seller.updated'; accountRef: string; ready: boolean }
    /**
     * The provider paid money out of a seller's account to their bank (`payout.paid`), or such a
     * payout failed and the money went back to the account (`payout.failed`, also for a cancel).
     * `amountCents` is in the payout's `currency` (lower case, as ISO 4217: 'usd').
     */
    | {
        type: 'payout.paid' | 'payout.failed';
        accountRef: string;
        payoutRef: string;
        amountCents: number;
        currency: string;
      }
    /** A provider event this product does not act on; recorded so it is not handled twice. */
    | { type: 'ignored'; providerType: string }
  );

export class WebhookSignatureError extends Error {}

/** A provider call failed (network, provider down); the caller answers 502. */
export class ProviderError extends Error {}

/**
 * The answer when a provider call failed: 502 with the provider's reason (never a key, see
 * stripe.ts); 503 when it failed because the database is away (the local provider keeps its
 * payments there).
 */
export function providerUnavailable(error: unknown): AppError {
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const reason = error instanceof Error ? error.message : 'unknown error';
  return new AppError(502, 'SERVICE_UNAVAILABLE', `The payment provider could not be reached: ${reason}`);
}
