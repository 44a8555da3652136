import {
  PASSWORD_RESET_REQUESTED_MESSAGE,
  RESET_PASSWORD_TTL_MINUTES,
} from '@streamshop/contract/account-recovery.ts';
import type { Db } from '../../db/client.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import { hashPassword } from '../../platform/password.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { passwordChangedMail, resetPasswordMail } from './account-mail.ts';
import { findUserByEmail, findUserById, markEmailVerified, setPasswordHash, type UserRow } from './repo.ts';
import { retireTokens } from './tokens-repo.ts';
import type { AccountMail } from './verification.ts';

/** Reset requests per client address and per email address, and new-password posts per address, per hour. */
export const RESET_LIMITS = { perIp: 10, perEmail: 3, submitsPerIp: 20, windowSec: 3600 };

/**
 * POST /api/auth/password-reset/request: the limits, then the same answer whatever `email` is, so
 * it never tells whether an address is registered; the limits count every request, found or not.
 * `mailing` looks the address up and queues the link; the caller runs it after answering, so the
 * answer's timing does not tell either.
 */
export async function requestPasswordReset(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  email: string,
  ip: string,
): Promise<{ message: typeof PASSWORD_RESET_REQUESTED_MESSAGE; mailing: () => Promise<void> }> {
  for (const [key, limit] of [
    [`reset:ip:${ip}`, RESET_LIMITS.perIp],
    [`reset:email:${email}`, RESET_LIMITS.perEmail],
  ] as const) {
    const result = await limiter.hit(key, limit, RESET_LIMITS.windowSec);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
  }
  return { message: PASSWORD_RESET_REQUESTED_MESSAGE, mailing: () => mailResetLink(db, mail, email) };
}

/** Queues a reset link to `email` when an account uses it (a lost request is asked again). */
async function mailResetLink(db: Db, mail: AccountMail, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await db.transaction(async (tx) => {
    const { id, token } = await mail.tokens.issue(tx, {
      userId: user.id,
      purpose: 'reset_password',
      email: user.email,
      ttlSec: RESET_PASSWORD_TTL_MINUTES * 60,
    });
    await mail.mailer.queue(
      tx,
      `reset-password:${id}`,
      user.email,
      resetPasswordMail(mail.publicUrl, user, token),
    );
  });
}

/**
 * POST /api/auth/password-reset: the link's token sets a new password. Every other reset link of
 * the account stops working, the address counts as verified (the link reached it), and a notice
 * goes to it. The caller then ends every session of the account and starts one for this browser.
 */
export async function resetPassword(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  input: { token: string; password: string },
  ip: string,
): Promise<UserRow> {
  const allowed = await limiter.hit(
    `reset:submit:ip:${ip}`,
    RESET_LIMITS.submitsPerIp,
    RESET_LIMITS.windowSec,
  );
  if (!allowed.allowed) throw tooManyRequests(allowed.retryAfterSec);
  const { token, password } = input;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const used = await mail.tokens.use(tx, token, 'reset_password');
    await setPasswordHash(tx, used.user_id, passwordHash);
    await retireTokens(tx, used.user_id, 'reset_password');
    await markEmailVerified(tx, used.user_id, used.email);
    const user = await findUserById(tx, used.user_id);
    if (!user) throw new Error('the account of a valid reset token is gone');
    await mail.mailer.queue(
      tx,
      `password-changed:${used.id}`,
      user.email,
      passwordChangedMail(mail.publicUrl, user),
    );
    return user;
  });
}
