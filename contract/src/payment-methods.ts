import { z } from 'zod';
import { savedAddressSchema } from './shipping.ts';

/**
 * Saved cards (issue 28): a buyer saves a card once (Stripe SetupIntent with the Stripe provider,
 * the same flow with the local provider's test cards) and is charged off-session with it when they
 * win an auction. The default card is the most recently saved one.
 */

/** At most this many saved cards per account. */
export const MAX_PAYMENT_METHODS = 5;

export const paymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  /** The card auctions charge: the most recently saved. */
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** GET /api/payment-methods */
export const paymentMethodsResponseSchema = z.object({
  paymentMethods: z.array(paymentMethodSchema),
  /** Where an auction win ships: the most recently used saved address; null when there is none. */
  defaultShippingAddress: savedAddressSchema.nullable(),
});
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponseSchema>;

/**
 * POST /api/payment-methods/setup → a setup to confirm in the browser with the provider's card form
 * (Stripe.js confirmSetup, or POST /api/payments/local/setups/confirm), then POST
 * /api/payment-methods {setupRef} saves the card it confirmed.
 */
export const cardSetupSchema = z.object({ clientSecret: z.string(), setupRef: z.string() });
export type CardSetup = z.infer<typeof cardSetupSchema>;

export const saveCardBodySchema = z.strictObject({
  setupRef: z
    .string({ error: 'setupRef is required' })
    .min(1, { error: 'setupRef is required' })
    .max(200, { error: 'setupRef must be at most 200 characters' }),
});

export const savedCardResponseSchema = z.object({ paymentMethod: paymentMethodSchema });
