import Stripe from 'stripe';
import { type PaymentProvider, ProviderError, type SavedCard, type SavedCardCharge } from './provider.ts';
import { toProviderError } from './stripe-errors.ts';

/** Shown when Stripe declines without a message of its own. */
const GENERIC_DECLINE = 'Your card was declined.';
/** An off-session charge that needs the buyer (3-D Secure): nobody is there to do it. */
const NEEDS_BUYER = 'Your bank asked to confirm this payment, which cannot be done while you are away.';

/**
 * Saved cards on Stripe (issue 28): a Customer per account, a SetupIntent for off-session use that
 * the browser confirms with the Payment Element, and off-session PaymentIntents on the card it saved.
 */
export function stripeSavedCards(
  stripe: Stripe,
  secrets: string[],
): Pick<PaymentProvider, 'createCardSetup' | 'savedCard' | 'detachCard' | 'chargeSavedCard'> {
  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toProviderError(operation, error, secrets);
    }
  }

  return {
    async createCardSetup({ userId, email, customerRef }) {
      const customer =
        customerRef ??
        (
          await call('customer creation', () =>
            stripe.customers.create(
              { email, metadata: { userId } },
              // One customer per account, however often the first setup is asked for at once.
              { idempotencyKey: `customer-cards-${userId}` },
            ),
          )
        ).id;
      const setup = await call('card setup creation', () =>
        stripe.setupIntents.create({
          customer,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
          metadata: { userId },
        }),
      );
      if (!setup.client_secret) {
        throw new ProviderError(
          `Stripe card setup creation failed: SetupIntent ${setup.id} has no client secret`,
        );
      }
      return { customerRef: customer, setupRef: setup.id, clientSecret: setup.client_secret };
    },

    async savedCard(setupRef): Promise<SavedCard | null> {
      let setup: Stripe.SetupIntent;
      try {
        setup = await stripe.setupIntents.retrieve(setupRef, { expand: ['payment_method'] });
      } catch (error) {
        // No such setup (a made-up ref): nothing was saved by it.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
          return null;
        }
        throw toProviderError('card setup lookup', error, secrets);
      }
      if (setup.status !== 'succeeded') return null;
      const method = setup.payment_method;
      const customer = typeof setup.customer === 'string' ? setup.customer : setup.customer?.id;
      if (!method || typeof method === 'string' || !method.card || !customer) return null;
      return {
        customerRef: customer,
        methodRef: method.id,
        brand: method.card.brand,
        last4: method.card.last4,
        expMonth: method.card.exp_month,
        expYear: method.card.exp_year,
      };
    },

    async detachCard(methodRef) {
      try {
        await stripe.paymentMethods.detach(methodRef);
      } catch (error) {
        // Detached already (or gone): what was asked for.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          (error.code === 'resource_missing' || /not attached/i.test(error.message))
        ) {
          return;
        }
        throw toProviderError('card removal', error, secrets);
      }
    },

    async chargeSavedCard(input): Promise<SavedCardCharge> {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: 'usd',
            customer: input.customerRef,
            payment_method: input.methodRef,
            off_session: true,
            confirm: true,
            description: input.description,
            // The key the webhook mapping reads (stripe-events.ts), as for every other payment.
            metadata: { paymentId: input.paymentId },
            ...(input.transfer && {
              transfer_data: { destination: input.transfer.accountRef },
              application_fee_amount: input.transfer.feeCents,
            }),
          },
          { idempotencyKey: `charge-saved:${input.paymentId}` },
        );
      } catch (error) {
        if (
          error instanceof Stripe.errors.StripeCardError ||
          (error instanceof Stripe.errors.StripeError && error.code === 'authentication_required')
        ) {
          const ref = error.payment_intent?.id ?? null;
          const message = error.code === 'authentication_required' ? NEEDS_BUYER : error.message;
          return { status: 'declined', ref, message: message || GENERIC_DECLINE };
        }
        throw toProviderError('saved card charge', error, secrets);
      }
      // 'processing': accepted by the bank and settled shortly; the webhook records it.
      if (intent.status === 'succeeded' || intent.status === 'processing') {
        return { status: 'succeeded', ref: intent.id };
      }
      if (intent.status === 'requires_action')
        return { status: 'declined', ref: intent.id, message: NEEDS_BUYER };
      return {
        status: 'declined',
        ref: intent.id,
        message: intent.last_payment_error?.message || GENERIC_DECLINE,
      };
    },
  };
}
