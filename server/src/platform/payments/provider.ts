import type { PaymentConfig } from '@streamshop/contract/payments.ts';

/**
 * One interface for every payment provider. The order logic (modules/checkout) only sees this:
 * it opens payments and subscriptions here, and learns their outcome from webhook events that
 * parseWebhook has verified and translated into PaymentEvent.
 */
export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
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
    /** An invoice of the subscription was paid: pro until periodEnd. */
    | { type: 'subscription.paid'; subscriptionRef: string; periodEnd: Date }
    | {
        type: 'subscription.updated';
        subscriptionRef: string;
        periodEnd: Date | null;
        cancelAtPeriodEnd: boolean;
      }
    /** The provider ended the subscription (period over after a cancel, or unpaid). */
    | { type: 'subscription.ended'; subscriptionRef: string }
    /** A provider event this product does not act on; recorded so it is not handled twice. */
    | { type: 'ignored'; providerType: string }
  );

export class WebhookSignatureError extends Error {}

/** A provider call failed (network, provider down); the caller answers 502. */
export class ProviderError extends Error {}
