import { VERIFY_EMAIL_TTL_HOURS, VERIFY_RESEND_PER_HOUR } from '@streamshop/contract/account-recovery.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, conflict, tooManyRequests } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { verifyEmailMail } from './account-mail.ts';
import type { AccountTokens } from './account-tokens.ts';
import { findUserById, markEmailVerified } from './repo.ts';

/** What the account's mail needs: the outbox, the link tokens and the site's address. */
export interface AccountMail {
  mailer: Mailer;
  tokens: AccountTokens;
  publicUrl: string;
}

/** Queues a verification link to the account's address, in `tx` (sign-up's own transaction). */
export async function queueVerification(
  tx: Db | Tx,
  mail: AccountMail,
  user: { id: string; firstName: string; email: string },
): Promise<void> {
  const { id, token } = await mail.tokens.issue(tx, {
    userId: user.id,
    purpose: 'verify_email',
    email: user.email,
    ttlSec: VERIFY_EMAIL_TTL_HOURS * 3600,
  });
  await mail.mailer.queue(tx, `verify-email:${id}`, user.email, verifyEmailMail(mail.publicUrl, user, token));
}

/**
 * POST /api/auth/verify-email: the link's token marks the address it was sent to as verified. It
 * works signed out (the link may open in another browser); a token for an address the account no
 * longer uses verifies nothing.
 */
export async function verifyEmail(db: Db, mail: AccountMail, token: string): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const used = await mail.tokens.use(tx, token, 'verify_email');
    if (!(await markEmailVerified(tx, used.user_id, used.email))) {
      throw new AppError(400, 'TOKEN_INVALID', 'This link was for an address your account no longer uses.');
    }
    return { email: used.email };
  });
}

/** POST /api/auth/verify-email/resend: a new link, a few times an hour at most. */
export async function resendVerification(
  db: Db,
  mail: AccountMail,
  limiter: RateLimiter,
  userId: string,
): Promise<{ message: string }> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized');
  if (user.emailVerified) throw conflict('CONFLICT', 'Your email address is already confirmed.');
  const allowed = await limiter.hit(`verify-resend:${userId}`, VERIFY_RESEND_PER_HOUR, 3600);
  if (!allowed.allowed) throw tooManyRequests(allowed.retryAfterSec);
  await db.transaction((tx) => queueVerification(tx, mail, user));
  return { message: `We sent a new link to ${user.email}.` };
}
