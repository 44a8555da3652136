import {
  isEmailIdentifier,
  type SigninBody,
  type SignupBody,
  type signinBodySchema,
  type signupBodySchema,
} from '@streamshop/contract/auth.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, tooManyRequests } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { findUserByEmail, findUserByHandle, insertUser, type UserRow, uniqueViolation } from './repo.ts';
import { type AccountMail, queueVerification } from './verification.ts';

export type SignupInput = z.output<typeof signupBodySchema>;
export type SigninInput = z.output<typeof signinBodySchema>;
export { passwordChangedMail } from './account-mail.ts';
export { AccountTokens } from './account-tokens.ts';
/** For the account module (settings): the account's own row, its mail and its links. */
export {
  anonymiseUser,
  emailInUse,
  findUserById,
  identitiesOfUser,
  type ProfileChanges,
  setPasswordHash,
  setVerifiedEmail,
  type UserRow,
  uniqueViolation,
  updateProfile,
} from './repo.ts';
export { retireTokens } from './tokens-repo.ts';
export type { AccountMail } from './verification.ts';
export type { SigninBody, SignupBody };
/** For other modules: an account by its handle (a storefront's owner). */
export { findUserByHandle };

/**
 * Failed sign-ins allowed per window: per account (by handle or email alike) from one client
 * address, and per address over all accounts. Only failures count and the handle's limit is per address, so nobody can lock an
 * owner out from elsewhere, and a correct password from an address that has not failed always
 * gets in. The cost: guessers spread over many addresses get 10 tries each per handle per window
 * (argon2id and the password rules keep that slow; a proxy/CDN's bot defence is the next layer).
 */
export const SIGNIN_LIMITS = { perHandle: 10, perIp: 50, windowSec: 600 };
export const SIGNUP_LIMITS = { perIp: 20, windowSec: 3600 };

/** Creates the account and queues the link that verifies its address, in one transaction. */
export async function signUp(
  db: Db,
  limiter: RateLimiter,
  mail: AccountMail,
  input: SignupInput,
  ip: string,
): Promise<UserRow> {
  const byIp = await limiter.hit(`signup:ip:${ip}`, SIGNUP_LIMITS.perIp, SIGNUP_LIMITS.windowSec);
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSec);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        handle: input.handle,
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        businessName: input.businessName ?? null,
        profileImageUrl: null,
      });
      await queueVerification(tx, mail, user);
      return user;
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'users_handle_key') {
      throw conflict('HANDLE_TAKEN', 'That handle is already taken', { handle: 'is already taken' });
    }
    if (constraint === 'users_email_key') {
      throw conflict('EMAIL_TAKEN', 'An account with that email already exists', {
        email: 'is already registered',
      });
    }
    throw error;
  }
}

/** The account a sign-in names: by its email when the identifier holds an @, else by its handle. */
function findSigninAccount(db: Db, identifier: string): Promise<UserRow | undefined> {
  // Emails are stored lower-case and the identifier arrives lower-cased (signinBodySchema).
  return isEmailIdentifier(identifier) ? findUserByEmail(db, identifier) : findUserByHandle(db, identifier);
}

/**
 * The attempt is counted as a failure before the password is checked, and given back when it is
 * right: sign-ins sent all at once are never all checked (at most the limit are). An account's
 * failures are counted on its id, so its handle and its email share one count; an identifier
 * that names no account is counted on itself (and answered like a wrong password).
 */
export async function signIn(db: Db, limiter: RateLimiter, input: SigninInput, ip: string): Promise<UserRow> {
  const found = await findSigninAccount(db, input.handle);
  const account = found ? `account:${found.id}` : `unknown:${input.handle}`;
  const attempt = await limiter.reserve(
    [
      { key: `signin:fail:ip:${ip}`, limit: SIGNIN_LIMITS.perIp },
      { key: `signin:fail:${account}:ip:${ip}`, limit: SIGNIN_LIMITS.perHandle },
    ],
    SIGNIN_LIMITS.windowSec,
  );
  if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSec);
  let user: UserRow | undefined;
  try {
    if (await verifyPassword(found?.passwordHash ?? null, input.password)) user = found;
  } catch (error) {
    await attempt.release(); // our failure, not a wrong password
    throw error;
  }
  if (!user) throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid credentials');
  await attempt.release();
  return user;
}
