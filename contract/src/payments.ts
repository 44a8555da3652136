import { z } from 'zod';
import { orderDetailSchema } from './orders.ts';
import { shippingAddressOutSchema } from './shipping.ts';
import { textSchema } from './text.ts';

/** Which payment provider the server uses, and what the browser needs to talk to it. */
export const paymentConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('local'), sellersOnboard: z.literal(false) }),
  /** sellersOnboard: a seller takes paid orders only once `seller.onboarded` (Stripe Connect). */
  z.object({ provider: z.literal('stripe'), publishableKey: z.string(), sellersOnboard: z.literal(true) }),
]);
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/** POST /api/checkout/:productId and POST /api/create-subscription answer with this. */
export const paymentSessionSchema = z.object({
  clientSecret: z.string(),
  /** Cents the buyer will be charged, computed by the server. */
  amountCents: z.number().int(),
  /** Until when the unit is held for this buyer (checkout only). */
  reservedUntil: z.string().nullable(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;

/** POST /api/checkout/:productId: the session and how its amount is made up (server-side). */
export const checkoutSessionSchema = paymentSessionSchema.extend({
  /** The product's price, or the live offer's. */
  subtotalCents: z.number().int(),
  /** The product's flat shipping (0 for digital and pickup). amountCents = subtotal + shipping. */
  shippingCents: z.number().int(),
  /** Where it ships, as the server stored it on the hold; null when nothing ships. */
  shippingAddress: shippingAddressOutSchema.nullable(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/**
 * POST /api/checkout/:productId when no unit is left for a new hold but the buyer placed an order
 * of this product in the last 10 minutes (as long as a hold lasts): a retry after paying (a lost
 * answer, a crashed server, a second tab) gets that order back instead of 409.
 */
export const checkoutOrderedSchema = z.object({ order: orderDetailSchema });

/** Everything POST /api/checkout/:productId answers with 200: a session to pay, or the order paid. */
export const checkoutAnswerSchema = z.union([checkoutSessionSchema, checkoutOrderedSchema]);
export type CheckoutAnswer = z.infer<typeof checkoutAnswerSchema>;

/** The caller's Pro subscription, or null when they never subscribed. */
export const subscriptionSchema = z.object({
  status: z.enum(['incomplete', 'active', 'canceled', 'expired']),
  /** Pro lasts until this moment; null before the first payment. */
  currentPeriodEnd: z.string().nullable(),
  /** Cancelled by the user: pro stays until currentPeriodEnd, then the plan returns to free. */
  cancelAtPeriodEnd: z.boolean(),
  /**
   * Until when POST /api/subscription/refund gives the first payment back (the 30-day money-back
   * guarantee); null when it cannot (over 30 days, used before on this account, or not active).
   */
  refundableUntil: z.string().nullable(),
  /** When the money-back refund was made; the plan returned to free then. */
  refundedAt: z.string().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema.nullable() });

// ---- The local provider's card form (the product's own stand-in for a card network) ----

/** Card numbers of the common test-card conventions that the local provider understands. */
export const TEST_CARDS = {
  success: '4242424242424242',
  successMastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  incorrectCvc: '4000000000000127',
  requiresAuthentication: '4000002500003155',
  /** Saves as a card (a setup succeeds), but every charge on it is declined (Stripe's 0341). */
  declineAfterAttach: '4000000000000341',
} as const;

const digits = (value: string) => value.replace(/[\s-]/g, '');

export const localCardSchema = z.object({
  number: z
    .string({ error: 'number is required' })
    .transform(digits)
    .pipe(z.string().regex(/^\d{12,19}$/, 'Your card number is incomplete.')),
  expMonth: z.coerce
    .number({ error: 'expMonth must be a number' })
    .int()
    .min(1, "Your card's expiration month is invalid.")
    .max(12, "Your card's expiration month is invalid."),
  /** Two or four digits. */
  expYear: z.coerce
    .number({ error: 'expYear must be a number' })
    .int()
    .min(0, "Your card's expiration year is invalid.")
    .max(9999, "Your card's expiration year is invalid."),
  cvc: z.string({ error: 'cvc is required' }).regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
});
export type LocalCard = z.input<typeof localCardSchema>;

export const localConfirmBodySchema = z.object({
  clientSecret: textSchema('clientSecret').min(1, 'clientSecret is required').max(200),
  card: localCardSchema,
});

export const localAuthenticateBodySchema = z.object({
  clientSecret: textSchema('clientSecret').min(1, 'clientSecret is required').max(200),
  /** The buyer completed (true) or failed (false) the extra confirmation step. */
  approve: z.boolean({ error: 'approve must be true or false' }),
});

/** The state of a local payment after a confirm or authenticate call. */
export const localPaymentResultSchema = z.object({
  status: z.enum(['succeeded', 'requires_action', 'failed']),
  /** The card network's message when status is failed, e.g. 'Your card was declined.' */
  message: z.string().optional(),
});
export type LocalPaymentResult = z.infer<typeof localPaymentResultSchema>;

/** GET /api/payments/local/hosted/:id: the local provider's hosted payment page (the $1 deposit). */
export const localHostedPaymentSchema = z.object({
  description: z.string(),
  amountCents: z.number().int(),
  clientSecret: z.string(),
  status: z.enum(['open', 'paid', 'expired']),
  successUrl: z.string(),
  cancelUrl: z.string(),
});
export type LocalHostedPayment = z.infer<typeof localHostedPaymentSchema>;
