import { z } from 'zod';
import { emailField, newPasswordField } from './auth.ts';

/**
 * Links mailed to an account (verify the address, reset the password) and what the pages they open
 * send back. A link's token is single use and expires: VERIFY_EMAIL_TTL_HOURS, RESET_PASSWORD_TTL_MINUTES.
 */

export const VERIFY_EMAIL_TTL_HOURS = 24;
export const RESET_PASSWORD_TTL_MINUTES = 60;
/** "Resend" of the verification link: this many per account per hour. */
export const VERIFY_RESEND_PER_HOUR = 3;

/** A mailed token as it appears in a link (base64url of 32 random bytes). */
const tokenField = z
  .string({ error: 'Token is required' })
  .min(1, 'Token is required')
  .max(128, 'Token is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'Token is malformed');

/** POST /api/auth/verify-email */
export const verifyEmailBodySchema = z.object({ token: tokenField });
export const verifyEmailResponseSchema = z.object({ email: z.string() });

/** POST /api/auth/verify-email/resend answers 202 with where the link went. */
export const resendVerificationResponseSchema = z.object({ message: z.string() });

/** POST /api/auth/password-reset/request */
export const passwordResetRequestBodySchema = z.object({ email: emailField });
/** The same answer whether or not an account uses the address. */
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account uses this address, we have sent it a link to choose a new password. The link works for 1 hour.';
export const passwordResetRequestResponseSchema = z.object({
  message: z.literal(PASSWORD_RESET_REQUESTED_MESSAGE),
});

/** POST /api/auth/password-reset */
export const passwordResetBodySchema = z.object({ token: tokenField, password: newPasswordField });

/** What a link's token may be wrong with, each with its own message and code (400). */
export const TOKEN_MESSAGES = {
  TOKEN_INVALID:
    'This link is not valid. Check that you opened the whole link from the email, or ask for a new one.',
  TOKEN_EXPIRED: 'This link has expired. Ask for a new one.',
  TOKEN_USED: 'This link was already used. Ask for a new one if you still need it.',
} as const;
