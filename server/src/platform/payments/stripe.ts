import Stripe from 'stripe';
import type { StripeSettings } from '../../config.ts';
import {
  type CreateHostedPaymentInput,
  type CreatePaymentInput,
  type CreateSubscriptionInput,
  type PaymentEvent,
  type PaymentProvider,
  ProviderError,
  type ProviderSession,
  type SellerAccounts,
  WebhookSignatureError,
} from './provider.ts';
import { stripeSavedCards } from './stripe-cards.ts';
import { redact, toProviderError } from './stripe-errors.ts';
import { accountReady, toPaymentEvent } from './stripe-events.ts';

/** The monthly Pro price is found again by this key, so a restart does not create a second one. */
export const PRO_PRICE_LOOKUP_KEY = 'streamshop_pro_monthly';

/**
 * PaymentProvider on Stripe: card payments are PaymentIntents (paid in the browser with the Payment
 * Element), Pro is a Subscription whose first invoice is paid the same way.
 *
 * The webhook endpoint must send events in the SDK's API version (Stripe.API_VERSION): events are
 * rendered in the endpoint's version, and the mapping below reads fields of that version
 * (invoice.parent, items.data[].current_period_end).
 */
export function stripeProvider(settings: StripeSettings, options: { stripe?: Stripe } = {}): PaymentProvider {
  const stripe = options.stripe ?? new Stripe(settings.secretKey, { maxNetworkRetries: 2 });
  const secrets = [settings.secretKey, settings.webhookSecret, settings.connectWebhookSecret ?? ''].filter(
    (s) => s.length > 0,
  );
  /** The account endpoint's secret, then the Connect endpoint's (both post to the same URL). */
  const signingSecrets = [settings.webhookSecret, settings.connectWebhookSecret].filter((s): s is string =>
    Boolean(s),
  );

  /** Runs a Stripe call; a Stripe error becomes a ProviderError carrying Stripe's message. */
  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toProviderError(operation, error, secrets);
    }
  }

  /** Price id per amount; a promise so concurrent first subscriptions share one lookup. */
  const priceIds = new Map<number, Promise<string>>();

  function proPriceId(amountCents: number): Promise<string> {
    let price = priceIds.get(amountCents);
    if (!price) {
      price = findOrCreateProPrice(amountCents);
      priceIds.set(amountCents, price);
      // A failed lookup is not cached: the next subscription tries again.
      price.catch(() => priceIds.delete(amountCents));
    }
    return price;
  }

  async function findOrCreateProPrice(amountCents: number): Promise<string> {
    const existing = await call('price lookup', () =>
      stripe.prices.list({ lookup_keys: [PRO_PRICE_LOOKUP_KEY], active: true, limit: 1 }),
    );
    const found = existing.data[0];
    if (
      found &&
      found.unit_amount === amountCents &&
      found.currency === 'usd' &&
      found.recurring?.interval === 'month'
    ) {
      return found.id;
    }
    // None yet, or the Pro price changed: a new price takes the lookup key over.
    const created = await call('price creation', () =>
      stripe.prices.create(
        {
          currency: 'usd',
          unit_amount: amountCents,
          recurring: { interval: 'month' },
          lookup_key: PRO_PRICE_LOOKUP_KEY,
          // Same parameters for the same amount, so the idempotency key holds across instances.
          transfer_lookup_key: true,
          product_data: { name: 'StreamShop Pro' },
        },
        { idempotencyKey: `price-${PRO_PRICE_LOOKUP_KEY}-${amountCents}` },
      ),
    );
    return created.id;
  }

  /** Refunds a PaymentIntent once (idempotency key per intent); "already refunded" is done. */
  async function refund(ref: string, fromSeller: boolean): Promise<void> {
    try {
      const created = await stripe.refunds.create(
        { payment_intent: ref, ...(fromSeller && { reverse_transfer: true, refund_application_fee: true }) },
        { idempotencyKey: `refund-${ref}` },
      );
      if (created.status === 'failed' || created.status === 'canceled') {
        throw new ProviderError(`Stripe refund failed: refund ${created.id} of ${ref} is ${created.status}`);
      }
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.code === 'charge_already_refunded') return;
      throw toProviderError('refund', error, secrets);
    }
  }

  const sellerAccounts: SellerAccounts = {
    async create({ userId, email }) {
      const account = await call('seller account creation', () =>
        stripe.accounts.create(
          {
            type: 'express',
            email,
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            metadata: { userId },
          },
          { idempotencyKey: `seller-account-${userId}` },
        ),
      );
      return account.id;
    },
    async onboardingLink(accountRef, { returnUrl, refreshUrl }) {
      const link = await call('onboarding link creation', () =>
        stripe.accountLinks.create({
          account: accountRef,
          type: 'account_onboarding',
          return_url: returnUrl,
          refresh_url: refreshUrl,
        }),
      );
      return link.url;
    },
    async ready(accountRef) {
      return accountReady(await call('seller account lookup', () => stripe.accounts.retrieve(accountRef)));
    },
  };

  const provider: PaymentProvider = {
    name: 'stripe',
    sellerAccounts,
    ...stripeSavedCards(stripe, secrets),

    clientConfig() {
      return { provider: 'stripe', publishableKey: settings.publishableKey, sellersOnboard: true };
    },

    async createPayment(input: CreatePaymentInput): Promise<ProviderSession> {
      const intent = await call('payment creation', () =>
        stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: 'usd',
            automatic_payment_methods: { enabled: true },
            description: input.description,
            metadata: { paymentId: input.paymentId },
            // A destination charge: Stripe moves the amount less our fee to the seller's account.
            ...(input.transfer && {
              transfer_data: { destination: input.transfer.accountRef },
              application_fee_amount: input.transfer.feeCents,
            }),
          },
          { idempotencyKey: `payment-${input.paymentId}` },
        ),
      );
      if (!intent.client_secret) {
        throw new ProviderError(
          `Stripe payment creation failed: PaymentIntent ${intent.id} has no client secret`,
        );
      }
      return { ref: intent.id, clientSecret: intent.client_secret };
    },

    /** A Checkout Session: Stripe's hosted page; its PaymentIntent carries our paymentId. */
    async createHostedPayment(input: CreateHostedPaymentInput): Promise<{ ref: string; url: string }> {
      const session = await call('checkout session creation', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            customer_email: input.email,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: input.amountCents,
                  product_data: { name: input.description },
                },
              },
            ],
            payment_intent_data: { metadata: { paymentId: input.paymentId }, description: input.description },
            metadata: { paymentId: input.paymentId },
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: `hosted-${input.paymentId}` },
        ),
      );
      if (!session.url) {
        throw new ProviderError(`Stripe checkout session creation failed: session ${session.id} has no URL`);
      }
      return { ref: session.id, url: session.url };
    },

    async cancelPayment(ref: string): Promise<'canceled' | 'succeeded'> {
      try {
        const intent = await stripe.paymentIntents.cancel(ref);
        if (intent.status === 'canceled') return 'canceled';
        throw new ProviderError(
          `Stripe payment cancellation failed: PaymentIntent ${ref} is ${intent.status}`,
        );
      } catch (error) {
        if (
          !(error instanceof Stripe.errors.StripeError) ||
          error.code !== 'payment_intent_unexpected_state'
        ) {
          throw toProviderError('payment cancellation', error, secrets);
        }
      }
      // Too late to cancel: find out why.
      const intent = await call('payment lookup', () => stripe.paymentIntents.retrieve(ref));
      if (intent.status === 'succeeded') return 'succeeded';
      if (intent.status === 'canceled') return 'canceled';
      // 'processing' (e.g. a bank debit) may still succeed: the hold must stay, so the caller retries later.
      throw new ProviderError(
        `Stripe payment cancellation failed: PaymentIntent ${ref} is ${intent.status} and cannot be canceled now`,
      );
    },

    async refundPayment(ref: string): Promise<void> {
      // A destination charge takes the refund back from the seller's account, and our fee back
      // to the buyer's refund, as the ledger's refund and fee_refund entries say (ADR 0016).
      const intent = await call('payment lookup', () => stripe.paymentIntents.retrieve(ref));
      await refund(ref, Boolean(intent.transfer_data?.destination));
    },

    async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSession> {
      const price = await proPriceId(input.amountCents);
      const customer = await call('customer creation', () =>
        stripe.customers.create(
          { email: input.email, metadata: { userId: input.userId } },
          { idempotencyKey: `customer-${input.subscriptionId}` },
        ),
      );
      const subscription = await call('subscription creation', () =>
        stripe.subscriptions.create(
          {
            customer: customer.id,
            items: [{ price }],
            payment_behavior: 'default_incomplete',
            payment_settings: { save_default_payment_method: 'on_subscription' },
            expand: ['latest_invoice.confirmation_secret'],
            metadata: { subscriptionId: input.subscriptionId, userId: input.userId },
          },
          { idempotencyKey: `subscription-${input.subscriptionId}` },
        ),
      );
      const invoice = subscription.latest_invoice;
      const clientSecret =
        typeof invoice === 'object' ? invoice?.confirmation_secret?.client_secret : undefined;
      if (!clientSecret) {
        throw new ProviderError(
          `Stripe subscription creation failed: subscription ${subscription.id} has no first-invoice payment to confirm`,
        );
      }
      return { ref: subscription.id, clientSecret };
    },

    async cancelSubscriptionAtPeriodEnd(ref: string): Promise<void> {
      await call('subscription cancellation', () =>
        stripe.subscriptions.update(ref, { cancel_at_period_end: true }),
      );
    },

    async refundSubscription(ref: string): Promise<void> {
      const invoices = await call('subscription refund', () =>
        stripe.invoices.list({ subscription: ref, status: 'paid', limit: 12, expand: ['data.payments'] }),
      );
      for (const invoice of invoices.data) {
        for (const payment of invoice.payments?.data ?? []) {
          const intent = payment.payment.payment_intent;
          const intentId = typeof intent === 'string' ? intent : intent?.id;
          // Pro invoices are the platform's own charges, never destination charges.
          if (payment.status === 'paid' && intentId) await refund(intentId, false);
        }
      }
      try {
        await stripe.subscriptions.cancel(ref);
      } catch (error) {
        // Cancelling an ended subscription is an error at Stripe; ended is what was asked for.
        const current = await call('subscription lookup', () => stripe.subscriptions.retrieve(ref));
        if (current.status !== 'canceled') throw toProviderError('subscription refund', error, secrets);
      }
    },

    async parseWebhook(rawBody, headers): Promise<PaymentEvent> {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '') {
        throw new WebhookSignatureError('Missing Stripe-Signature header');
      }
      let failure: unknown;
      for (const secret of signingSecrets) {
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(rawBody, signature, secret);
        } catch (error) {
          failure = error;
          continue;
        }
        return toPaymentEvent(event);
      }
      const reason = failure instanceof Error ? redact(failure.message, secrets) : 'invalid payload';
      throw new WebhookSignatureError(`Stripe webhook rejected: ${reason}`);
    },
  };
  return provider;
}
