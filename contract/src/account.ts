import { z } from 'zod';
import { businessNameField, emailField, newPasswordField, requiredName, userSchema } from './auth.ts';
import { orderSchema, productSchema, streamSchema } from './catalog.ts';
import { MAX_PASSWORD_LENGTH } from './constants.ts';

/**
 * The settings page (/settings): profile, password, email address, sessions, export and deletion
 * of the signed-in account. Every endpoint is under /api/account and needs a session.
 */

/** The link that confirms a new address works this long, once. */
export const CHANGE_EMAIL_TTL_HOURS = 24;

/**
 * An avatar is an image uploaded here (POST /api/uploads/product-image answers its URL): no
 * external URL, so a profile picture can neither track visitors nor point at an endpoint.
 */
export const AVATAR_URL_PATTERN =
  /^\/media\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

/** PATCH /api/account/profile: only the fields sent change; null (or '') clears the optional ones. */
export const profileBodySchema = z
  .object({
    firstName: requiredName('First name', 80).optional(),
    lastName: requiredName('Last name', 80).optional(),
    businessName: businessNameField
      .nullish()
      .transform((value) => (value === undefined ? undefined : value || null)),
    profileImageUrl: z
      .string()
      .regex(AVATAR_URL_PATTERN, 'Profile picture must be an image uploaded here')
      .nullish(),
  })
  .strict();
export type ProfileBody = z.input<typeof profileBodySchema>;

/** The password the account has now, to confirm a sensitive change. */
export const currentPasswordField = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** The answer when the current password is wrong: 400 with this on `currentPassword`. */
export const WRONG_PASSWORD_REASON = 'is not your current password';

/** POST /api/account/password */
export const changePasswordBodySchema = z.object({
  currentPassword: currentPasswordField,
  newPassword: newPasswordField,
});
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;
export const changePasswordResponseSchema = z.object({
  /** How many other sessions were signed out. */
  otherSessionsEnded: z.number().int(),
});

/** POST /api/account/email: a link goes to the new address; nothing changes until it is opened. */
export const changeEmailBodySchema = z.object({ email: emailField, currentPassword: currentPasswordField });
export type ChangeEmailBody = z.input<typeof changeEmailBodySchema>;
export const changeEmailResponseSchema = z.object({ message: z.string(), email: z.string() });

/** POST /api/account/email/confirm: the token of the link mailed to the new address. */
export const confirmEmailBodySchema = z.object({
  token: z
    .string({ error: 'Token is required' })
    .min(1, 'Token is required')
    .max(128, 'Token is too long')
    .regex(/^[A-Za-z0-9_-]+$/, 'Token is malformed'),
});
export const confirmEmailResponseSchema = z.object({ email: z.string() });

/** One signed-in browser of the account (GET /api/account/sessions). */
export const accountSessionSchema = z.object({
  /** Opaque: derived from the session, but neither its id nor the stored hash. */
  id: z.string(),
  /** 'Chrome 126 on Windows 10', or 'Unknown browser' when the User-Agent says nothing useful. */
  description: z.string(),
  device: z.enum(['desktop', 'mobile', 'tablet', 'other']),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });
export const sessionIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'id is not a session id'),
});
export const sessionsEndedResponseSchema = z.object({ ended: z.number().int() });

/**
 * POST /api/account/delete: the password, or (accounts that only sign in through an identity
 * provider and have none) the handle typed out.
 */
export const deleteAccountBodySchema = z
  .object({
    password: z.string().max(MAX_PASSWORD_LENGTH, 'Password is too long').optional(),
    handle: z.string().max(64, 'Handle is too long').optional(),
  })
  .strict();
export type DeleteAccountBody = z.input<typeof deleteAccountBodySchema>;
export const deleteAccountResponseSchema = z.object({ ok: z.literal(true) });

/** GET /api/account/export's file name for a handle and a day. */
export const exportFileName = (handle: string, day: string) => `streamshop-${handle}-${day}.json`;

/** GET /api/account: what the settings page needs beyond the user. */
export const accountOverviewSchema = z.object({
  /** False for accounts that only sign in through an identity provider. */
  hasPassword: z.boolean(),
  /** The identity providers linked to the account ('google', 'replit'). */
  providers: z.array(z.string()),
});
export type AccountOverview = z.infer<typeof accountOverviewSchema>;

/** GET /api/account/export: everything the account holds, as one JSON file. */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: userSchema,
  products: z.array(productSchema),
  streams: z.array(streamSchema),
  orders: z.array(orderSchema),
  chatMessages: z.array(
    z.object({ roomName: z.string(), message: z.string(), kind: z.string(), createdAt: z.string() }),
  ),
  subscriptions: z.array(
    z.object({
      status: z.string(),
      provider: z.string(),
      currentPeriodEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      createdAt: z.string(),
    }),
  ),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
