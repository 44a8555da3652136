import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PLANS } from './constants.ts';
import { textSchema } from './text.ts';

/** Handles: 3-30 of [a-z0-9_], compared case-insensitively (stored lower-case). */
export const HANDLE_PATTERN = /^[a-z0-9_]{3,30}$/;
/** Spec section 5: text, @, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Strips surrounding spaces and one leading @, and lower-cases: ' @Ana ' -> 'ana'. */
export function normalizeHandle(input: string): string {
  return input.trim().replace(/^@/, '').trim().toLowerCase();
}

const handleField = z
  .string({ error: 'Handle is required' })
  .transform(normalizeHandle)
  .pipe(
    z
      .string()
      .min(1, 'Handle is required')
      .regex(HANDLE_PATTERN, 'Handle must be 3-30 characters of a-z, 0-9 and _'),
  );

/** A person's or business's name, shown to others: no control or text-direction characters. */
export const requiredName = (label: string, max: number) =>
  textSchema(label, { name: true })
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** An email address as people type it: trimmed, lower-cased, checked against EMAIL_PATTERN. */
export const emailField = textSchema('Email')
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL_PATTERN, 'Please enter a valid email address.')
  .transform((email) => email.toLowerCase());

/** A new password: the sign-up rules. */
export const newPasswordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** A business name: optional; empty means none. */
export const businessNameField = textSchema('Business name', { name: true }).max(
  120,
  'Business name must be at most 120 characters',
);

export const signupBodySchema = z.object({
  firstName: requiredName('First name', 80),
  lastName: requiredName('Last name', 80),
  handle: handleField,
  email: emailField,
  password: newPasswordField,
  businessName: businessNameField.optional().transform((value) => (value ? value : undefined)),
});
export type SignupBody = z.input<typeof signupBodySchema>;

/** A sign-in identifier that holds an @ after its first character is an email address. */
export function isEmailIdentifier(identifier: string): boolean {
  return normalizeHandle(identifier).includes('@');
}

export const signinBodySchema = z.object({
  /** The handle or the account's email address (normalised as a handle: lower-case, no leading @). */
  handle: textSchema('Handle or email')
    .transform(normalizeHandle)
    .pipe(z.string().min(1, 'Handle or email is required').max(254, 'Handle or email is too long')),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type SigninBody = z.input<typeof signinBodySchema>;

/** The signed-in user as every auth endpoint returns it. Never holds secrets. */
export const userSchema = z.object({
  id: z.string(),
  handle: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  businessName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  plan: z.enum(PLANS),
  /** The owner proved the email address is theirs (a link mailed to it); until then a banner asks. */
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const logoutResponseSchema = z.object({ ok: z.literal(true) });

/** External identity providers of the sign-in page. */
export const OIDC_PROVIDERS = ['google', 'replit'] as const;
export type OidcProvider = (typeof OIDC_PROVIDERS)[number];

/** GET /api/auth/providers: the external providers this server has credentials for, in button order. */
export const EXTERNAL_PROVIDERS_URL = '/api/auth/providers';
export const externalProvidersSchema = z.object({
  providers: z.array(z.object({ id: z.enum(OIDC_PROVIDERS), label: z.string() })),
});
export type ExternalProviders = z.infer<typeof externalProvidersSchema>;
