import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  type AccountExport,
  type AccountOverview,
  type AccountSession,
  CHANGE_EMAIL_TTL_HOURS,
  type changeEmailBodySchema,
  type changePasswordBodySchema,
  type deleteAccountBodySchema,
  type profileBodySchema,
  WRONG_PASSWORD_REASON,
} from '@streamshop/contract/account.ts';
import { normalizeHandle, type User } from '@streamshop/contract/auth.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { queueStorageRemovals } from '../../platform/storage-removals.ts';
import { toUser } from '../../platform/user.ts';
import {
  type AccountMail,
  anonymiseUser,
  emailInUse,
  findUserById,
  identitiesOfUser,
  passwordChangedMail,
  retireTokens,
  setPasswordHash,
  setVerifiedEmail,
  type UserRow,
  uniqueViolation,
  updateProfile,
} from '../auth/service.ts';
import { listSellerProducts, releaseUploadsOf, retireSellerProducts } from '../catalog/service.ts';
import { messagesOfUser, renameAuthor } from '../chat/service.ts';
import { streamMediaFolder } from '../media/service.ts';
import { listRecentOrders } from '../orders/service.ts';
import { endStream, forgetStreamsOfOwner, listStreamsOfOwner } from '../streams/service.ts';
import { describeUserAgent } from './device.ts';
import { accountDeletedMail, confirmNewEmailMail, emailChangeNoticeMail } from './mail.ts';
import { liveSessionsOf, subscriptionsOf } from './repo.ts';

export type ProfileInput = z.output<typeof profileBodySchema>;
export type ChangePasswordInput = z.output<typeof changePasswordBodySchema>;
export type ChangeEmailInput = z.output<typeof changeEmailBodySchema>;
export type DeleteAccountInput = z.output<typeof deleteAccountBodySchema>;

/**
 * Wrong current passwords (password change, email change, deletion) allowed per window, per
 * account and per client address: only failures count, as at sign-in, so a session that was left
 * open somewhere cannot be used to guess the password at leisure.
 */
export const PASSWORD_CHECK_LIMITS = { perAccount: 10, perIp: 50, windowSec: 600 };
/** Email change requests per account per hour: each one mails two addresses. */
export const EMAIL_CHANGES_PER_HOUR = 5;

async function accountOf(db: Db, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw unauthorized();
  return user;
}

/**
 * Checks the account's current password; a wrong one is a 400 on `field` and counts towards the
 * limits. An account without a password (identity provider only) cannot confirm this way.
 */
async function confirmPassword(
  limiter: RateLimiter,
  user: UserRow,
  password: string,
  ip: string,
  field: 'currentPassword' | 'password',
): Promise<void> {
  if (!user.passwordHash) {
    throw badRequest('Your account has no password: it signs in through an identity provider', {
      [field]: 'your account has no password (you sign in with an identity provider)',
    });
  }
  // Counted as a failure before the check and given back when right: checks sent all at once are
  // never all made (at most the limit are).
  const attempt = await limiter.reserve(
    [
      { key: `account:password-fail:user:${user.id}`, limit: PASSWORD_CHECK_LIMITS.perAccount },
      { key: `account:password-fail:ip:${ip}`, limit: PASSWORD_CHECK_LIMITS.perIp },
    ],
    PASSWORD_CHECK_LIMITS.windowSec,
  );
  if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSec);
  let right: boolean;
  try {
    right = await verifyPassword(user.passwordHash, password);
  } catch (error) {
    await attempt.release(); // our failure, not a wrong password
    throw error;
  }
  if (right) return attempt.release();
  throw badRequest(`Invalid ${field}: ${WRONG_PASSWORD_REASON}`, { [field]: WRONG_PASSWORD_REASON });
}

export async function accountOverview(db: Db, userId: string): Promise<AccountOverview> {
  const user = await accountOf(db, userId);
  const identities = await identitiesOfUser(db, userId);
  return {
    hasPassword: user.passwordHash !== null,
    providers: [...new Set(identities.map((identity) => identity.provider))].sort(),
  };
}

/** PATCH /api/account/profile: the fields given change, the others stay. */
export async function changeProfile(db: Db, userId: string, input: ProfileInput): Promise<User> {
  const updated = await updateProfile(db, userId, input);
  if (!updated) throw unauthorized();
  return toUser(updated);
}

/**
 * POST /api/account/password: the new password replaces the old once the old one is given; reset
 * links already mailed stop working and a notice goes to the address. The caller ends the
 * account's other sessions.
 */
export async function changePassword(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  userId: string,
  input: ChangePasswordInput,
  ip: string,
): Promise<void> {
  const user = await accountOf(db, userId);
  await confirmPassword(limiter, user, input.currentPassword, ip, 'currentPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash);
    await retireTokens(tx, user.id, 'reset_password');
    await mail.mailer.queue(
      tx,
      `password-changed:settings:${randomUUID()}`,
      user.email,
      passwordChangedMail(mail.publicUrl, user),
    );
  });
}

/**
 * POST /api/account/email: a single-use link to the new address, a notice to the current one.
 * Nothing changes until the link is opened. An address another account uses is refused at once
 * (409), as sign-up does: the caller proved the password, and sign-up answers the same question
 * to anyone, so this tells nothing new; it saves a mail that could never be confirmed.
 */
export async function requestEmailChange(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  userId: string,
  input: ChangeEmailInput,
  ip: string,
): Promise<{ message: string; email: string }> {
  const user = await accountOf(db, userId);
  await confirmPassword(limiter, user, input.currentPassword, ip, 'currentPassword');
  if (input.email === user.email) {
    throw badRequest('Invalid email: it is already your address', { email: 'is already your address' });
  }
  if (await emailInUse(db, input.email, user.id)) {
    throw conflict('EMAIL_TAKEN', 'An account with that email already exists', {
      email: 'is already registered',
    });
  }
  const allowed = await limiter.hit(`account:email-change:${user.id}`, EMAIL_CHANGES_PER_HOUR, 3600);
  if (!allowed.allowed) throw tooManyRequests(allowed.retryAfterSec);
  await db.transaction(async (tx) => {
    // Only the newest link works: asking again for another address retires the earlier one.
    await retireTokens(tx, user.id, 'change_email');
    const { id, token } = await mail.tokens.issue(tx, {
      userId: user.id,
      purpose: 'change_email',
      email: input.email,
      ttlSec: CHANGE_EMAIL_TTL_HOURS * 3600,
    });
    await mail.mailer.queue(
      tx,
      `change-email:${id}`,
      input.email,
      confirmNewEmailMail(mail.publicUrl, { firstName: user.firstName, email: input.email }, token),
    );
    await mail.mailer.queue(
      tx,
      `change-email-notice:${id}`,
      user.email,
      emailChangeNoticeMail(mail.publicUrl, user, input.email),
    );
  });
  return {
    message: `We sent a link to ${input.email}. Your address changes when you open it (within ${CHANGE_EMAIL_TTL_HOURS} hours).`,
    email: input.email,
  };
}

const emailTaken = () =>
  conflict('EMAIL_TAKEN', 'Another account started using that address in the meantime', {
    email: 'is already registered',
  });

/**
 * POST /api/account/email/confirm: the link's token makes the address it was sent to the
 * account's, verified (the link reached it). Links mailed to the old address (reset, verify) and
 * other change links stop working. Works signed out, like the verification link.
 */
export async function confirmEmailChange(
  db: Db,
  mail: AccountMail,
  token: string,
): Promise<{ email: string }> {
  try {
    return await db.transaction(async (tx) => {
      const used = await mail.tokens.use(tx, token, 'change_email');
      if (await emailInUse(tx, used.email, used.user_id)) throw emailTaken();
      if (!(await setVerifiedEmail(tx, used.user_id, used.email))) {
        throw new AppError(400, 'TOKEN_INVALID', 'This link belongs to an account that no longer exists.');
      }
      for (const purpose of ['change_email', 'reset_password', 'verify_email'] as const) {
        await retireTokens(tx, used.user_id, purpose);
      }
      return { email: used.email };
    });
  } catch (error) {
    if (uniqueViolation(error) === 'users_email_key') throw emailTaken();
    throw error;
  }
}

/**
 * A session's id in the settings page: an HMAC of the stored hash under its own label, so the page
 * can name a session without ever holding what would sign anybody in or find its row directly.
 */
export function publicSessionId(secret: string, idHash: string): string {
  return createHmac('sha256', secret).update(`account-session:${idHash}`).digest('base64url').slice(0, 22);
}

export interface SessionsContext {
  secret: string;
  idleTimeoutMs: number;
}

export async function listSessions(
  db: Db,
  context: SessionsContext,
  userId: string,
  currentIdHash: string | null,
): Promise<AccountSession[]> {
  const sessions = await liveSessionsOf(db, userId, context.idleTimeoutMs);
  return sessions.map((session) => ({
    id: publicSessionId(context.secret, session.idHash),
    ...describeUserAgent(session.userAgent),
    createdAt: session.createdAt,
    lastActiveAt: session.lastSeenAt,
    current: session.idHash === currentIdHash,
  }));
}

/** The stored hash of the account's session the page calls `id`, or undefined. */
export async function sessionHashOf(
  db: Db,
  context: SessionsContext,
  userId: string,
  id: string,
): Promise<string | undefined> {
  const sessions = await liveSessionsOf(db, userId, context.idleTimeoutMs);
  return sessions.find((session) => publicSessionId(context.secret, session.idHash) === id)?.idHash;
}

/** Everything the account holds, for GET /api/account/export. */
export async function exportAccount(db: Db, userId: string): Promise<AccountExport> {
  const user = await accountOf(db, userId);
  const [products, streams, orders, chatMessages, subscriptions] = await Promise.all([
    listSellerProducts(db, userId, 100_000),
    listStreamsOfOwner(db, userId),
    listRecentOrders(db, userId, 100_000),
    messagesOfUser(db, userId),
    subscriptionsOf(db, userId),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    profile: toUser(user),
    products,
    streams,
    orders,
    chatMessages,
    subscriptions,
  };
}

export const SUBSCRIPTION_OPEN_MESSAGE =
  'Your Pro subscription still renews. Cancel it on the dashboard first (it will not be charged again); then you can delete your account.';

/**
 * POST /api/account/delete. The password confirms it (or, for an account without one, its handle
 * typed out). Live and unstarted streams end, products leave the catalogue (deleted, or unlisted
 * when an order names them), chat messages stay under a placeholder handle, a last message goes
 * to the address, and the users row is emptied: orders and payments keep naming it. The rooms go
 * (404) with their video: recordings, replays and thumbnails are queued for removal from storage
 * in the same transaction, as are the images the account uploaded (it owns them: those of other
 * accounts stay, whatever its profile or products named), but the images of the products that
 * stay for their orders (the storage removals worker takes them out, retrying until storage
 * answers; a live stream's last seconds are removed where its recording stops). The caller ends every session and kicks the worker.
 * Answers the rooms that were live, for their viewers to be told.
 */
export async function deleteAccount(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  userId: string,
  input: DeleteAccountInput,
  ip: string,
): Promise<{ endedLiveRooms: string[] }> {
  const user = await accountOf(db, userId);
  if (user.passwordHash) {
    if (!input.password)
      throw badRequest('Invalid password: is required', { password: 'Password is required' });
    await confirmPassword(limiter, user, input.password, ip, 'password');
  } else if (normalizeHandle(input.handle ?? '') !== user.handle) {
    throw badRequest('Invalid handle: type your handle to confirm', { handle: 'does not match your handle' });
  }
  const renewing = (await subscriptionsOf(db, userId)).some(
    (subscription) => subscription.status === 'active' && !subscription.cancelAtPeriodEnd,
  );
  if (renewing) throw conflict('CONFLICT', SUBSCRIPTION_OPEN_MESSAGE);

  const endedLiveRooms: string[] = [];
  for (const stream of await listStreamsOfOwner(db, userId)) {
    if (stream.isActive || !stream.startedAt) {
      await endStream(db, userId, stream.roomName);
      if (stream.isActive) endedLiveRooms.push(stream.roomName);
    }
  }
  const placeholderHandle = `deleted_${randomBytes(6).toString('hex')}`;
  await db.transaction(async (tx) => {
    await retireSellerProducts(db, tx, userId);
    const rooms = await forgetStreamsOfOwner(tx, userId);
    await queueStorageRemovals(tx, [
      ...rooms.map(streamMediaFolder),
      // After the products are retired: the images of those that stay are kept.
      ...(await releaseUploadsOf(tx, userId, new URL(mail.publicUrl).origin)),
    ]);
    await renameAuthor(tx, userId, placeholderHandle);
    await mail.mailer.queue(
      tx,
      `account-deleted:${userId}`,
      user.email,
      accountDeletedMail(mail.publicUrl, user),
    );
    await anonymiseUser(tx, userId, placeholderHandle);
  });
  return { endedLiveRooms };
}
