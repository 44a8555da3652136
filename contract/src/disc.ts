import { z } from 'zod';
import { EMAIL_PATTERN } from './auth.ts';
import { DISC_ORDER_MAX_QUANTITY, DISC_ORDER_MIN_QUANTITY } from './constants.ts';
import { type TextOptions, textSchema } from './text.ts';

/**
 * Bodies of the public marketing forms (spec sections 3, 5 and 7). The same schemas check the
 * forms in the browser and the bodies on the server.
 */

/** The most discs one newsletter pre-order may reserve; keeps the total well inside an int. */
export const NEWSLETTER_PREORDER_MAX_QUANTITY = 100_000;

/** Spec section 8: what the disc forms say when the server's answer carries no message. */
export const BETA_DUPLICATE_MESSAGE = 'This email is already registered for beta access!';
export const PREORDER_DUPLICATE_MESSAGE = 'This email already has a pre-order!';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';
export const GENERIC_FORM_ERROR_MESSAGE = 'Something went wrong. Please try again.';

const requiredText = (label: string, max: number, options?: TextOptions) =>
  textSchema(label, options)
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** A person's name: no text-direction characters either (the seller and the admin read it). */
const requiredName = (label: string, max: number) => requiredText(label, max, { name: true });

/** Blank or missing becomes undefined, so an empty optional field is not stored as ''. */
const optionalText = (label: string, max: number, options?: TextOptions) =>
  textSchema(label, options)
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

/** Trimmed and lower-cased, so duplicates are found whatever the letter case. */
export const discEmailSchema = textSchema('Email')
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE)
  .transform((email) => email.toLowerCase());

export const BETA_SOURCES = ['landing', 'stream-disc', 'music', 'film', 'social', 'site'] as const;
export type BetaSource = (typeof BETA_SOURCES)[number];

/** POST /api/beta-signup */
export const betaSignupBodySchema = z.object({
  email: discEmailSchema,
  /** Which page the visitor signed up on. */
  source: z.enum(BETA_SOURCES).optional(),
});
export type BetaSignupBody = z.input<typeof betaSignupBodySchema>;

export const betaSignupResponseSchema = z.object({ ok: z.literal(true) });

/** A price with two decimals as the spec sends it: "35.00". */
export const PRICE_STRING_PATTERN = /^\d{1,9}\.\d{2}$/;

/** POST /api/pre-order: the newsletter ('Limited Founders Batch Edition') pre-order. */
export const newsletterPreorderBodySchema = z.object({
  name: requiredName('Name', 120),
  email: discEmailSchema,
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(NEWSLETTER_PREORDER_MAX_QUANTITY, `Quantity must be at most ${NEWSLETTER_PREORDER_MAX_QUANTITY}`),
  /** What the form showed; the server recomputes it from the quantity and rejects a mismatch. */
  totalPrice: z
    .string({ error: 'Total price is required' })
    .regex(PRICE_STRING_PATTERN, 'Total price must have 2 decimals, like 35.00'),
});
export type NewsletterPreorderBody = z.input<typeof newsletterPreorderBodySchema>;

export const newsletterPreorderResponseSchema = z.object({
  id: z.string(),
  quantity: z.number().int(),
  totalPrice: z.string(),
});
export type NewsletterPreorder = z.infer<typeof newsletterPreorderResponseSchema>;

/** POST /api/stream-disc-orders: the full 'Order Stream Disc' form. */
export const discOrderBodySchema = z.object({
  name: requiredName('Full name', 120),
  email: discEmailSchema,
  phone: optionalText('Phone', 40),
  company: optionalText('Company', 120, { name: true }),
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(DISC_ORDER_MIN_QUANTITY, `Quantity must be at least ${DISC_ORDER_MIN_QUANTITY}`)
    .max(DISC_ORDER_MAX_QUANTITY, `Quantity must be at most ${DISC_ORDER_MAX_QUANTITY}`)
    .default(DISC_ORDER_MIN_QUANTITY),
  shippingAddress: requiredText('Shipping address', 200),
  city: requiredText('City', 100),
  state: requiredText('State/Province', 100),
  zipCode: requiredText('ZIP/Postal code', 20),
  country: textSchema('Country')
    .max(56, 'Country must be at most 56 characters')
    .optional()
    .transform((value) => (value ? value : 'US')),
});
export type DiscOrderBody = z.input<typeof discOrderBodySchema>;

export const discOrderResponseSchema = z.object({ id: z.string() });

/** POST /api/stream-disc/pre-order: the $1 reservation. */
export const discPreorderBodySchema = z.object({
  name: requiredName('Name', 120),
  email: discEmailSchema,
  phone: optionalText('Phone', 40),
});
export type DiscPreorderBody = z.input<typeof discPreorderBodySchema>;

/** Where the visitor pays the deposit; it returns to /stream-disc?preorder=success|cancelled. */
export const discPreorderResponseSchema = z.object({ checkoutUrl: z.string() });
