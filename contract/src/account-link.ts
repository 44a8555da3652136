import { z } from 'zod';
import { OIDC_PROVIDERS } from './auth.ts';
import { MAX_PASSWORD_LENGTH } from './constants.ts';

/**
 * Linking an external sign-in to an existing account. When a provider's verified email belongs to
 * an account the identity is not linked to, the callback keeps it as a pending link (an HttpOnly
 * cookie) and sends the browser to LINK_ACCOUNT_PATH, which asks for that account's password.
 */
export const LINK_ACCOUNT_PATH = '/link-account';

/** GET /api/auth/link: what the pending link is, so the page can say what it links to what. */
export const pendingAccountLinkSchema = z.object({
  provider: z.enum(OIDC_PROVIDERS),
  email: z.string(),
  /** False for an account made with an external sign-in: it cannot be linked with a password. */
  hasPassword: z.boolean(),
  /** The providers the account already signs in with. */
  signInWith: z.array(z.enum(OIDC_PROVIDERS)),
});
export type PendingAccountLink = z.infer<typeof pendingAccountLinkSchema>;

/** POST /api/auth/link. */
export const linkAccountBodySchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type LinkAccountBody = z.input<typeof linkAccountBodySchema>;
