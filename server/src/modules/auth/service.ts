import type {
  SigninBody,
  SignupBody,
  signinBodySchema,
  signupBodySchema,
} from '@streamshop/contract/auth.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, tooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { findUserByHandle, insertUser, type UserRow, uniqueViolation } from './repo.ts';

export type SignupInput = z.output<typeof signupBodySchema>;
export type SigninInput = z.output<typeof signinBodySchema>;
export type { SigninBody, SignupBody };

/** Sign-in attempts allowed per window, per handle and per client address. */
export const SIGNIN_LIMITS = { perHandle: 10, perIp: 50, windowSec: 600 };
export const SIGNUP_LIMITS = { perIp: 20, windowSec: 3600 };

export async function signUp(db: Db, limiter: RateLimiter, input: SignupInput, ip: string): Promise<UserRow> {
  const byIp = await limiter.hit(`signup:ip:${ip}`, SIGNUP_LIMITS.perIp, SIGNUP_LIMITS.windowSec);
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSec);
  const passwordHash = await hashPassword(input.password);
  try {
    return await insertUser(db, {
      handle: input.handle,
      email: input.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      businessName: input.businessName ?? null,
      profileImageUrl: null,
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

export async function signIn(db: Db, limiter: RateLimiter, input: SigninInput, ip: string): Promise<UserRow> {
  for (const [key, limit] of [
    [`signin:ip:${ip}`, SIGNIN_LIMITS.perIp],
    [`signin:handle:${input.handle}`, SIGNIN_LIMITS.perHandle],
  ] as const) {
    const result = await limiter.hit(key, limit, SIGNIN_LIMITS.windowSec);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
  }
  const user = await findUserByHandle(db, input.handle);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid credentials');
  return user;
}
