import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRateLimiter } from '../../platform/rate-limit.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { PASSWORD_CHECK_LIMITS } from '../account/service.ts';
import { SIGNIN_LIMITS } from './service.ts';

/**
 * Password guesses sent all at once (security review, item 4). Only failures count, but each
 * attempt is counted before its password is checked (and given back when it is right), so however
 * many arrive together, at most the limit are ever checked: the rest are 429 without a check.
 * Each test runs on the in-memory limiter and, with TEST_REDIS_URL, on Redis.
 */

const PARALLEL = 25;
const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(async () => {
  await redis?.quit();
});

const backends = [
  { backend: 'in memory', limiter: () => undefined },
  ...(redis
    ? [
        {
          backend: 'on Redis',
          // A prefix of its own: the counts never meet another test's (or another run's).
          limiter: () => redisRateLimiter(redis, `test:${randomBytes(4).toString('hex')}:`),
        },
      ]
    : []),
];
if (!redis) it.skip('parallel guesses on Redis (set TEST_REDIS_URL to run)', () => {});

/** How many responses had each status, e.g. { 401: 10, 429: 15 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe.each(backends)('parallel guesses, limits $backend', ({ limiter }) => {
  let t: TestApp;
  beforeAll(async () => {
    const rateLimiter = limiter();
    t = await buildTestApp({}, rateLimiter ? { rateLimiter } : {});
  });
  afterAll(async () => {
    await t?.close();
  });

  const signIn = (handle: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress, payload: { handle, password } });

  it(`${PARALLEL} wrong sign-ins at once for one handle from one address: ${SIGNIN_LIMITS.perHandle} are checked (401), the rest 429`, async () => {
    const account = await signUp(t.app);
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => signIn(account.handle, 'wrong password', '198.51.100.40')),
    );
    expect(tally(responses.map((response) => response.statusCode))).toEqual({
      401: SIGNIN_LIMITS.perHandle,
      429: PARALLEL - SIGNIN_LIMITS.perHandle,
    });
    const limited = responses.find((response) => response.statusCode === 429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // The address that failed stays locked out, even with the right password; the owner elsewhere gets in.
    expect((await signIn(account.handle, account.password, '198.51.100.40')).statusCode).toBe(429);
    expect((await signIn(account.handle, account.password, '198.51.100.41')).statusCode).toBe(200);
  });

  it('a right password gives its count back: only failures count, in a row or at once', async () => {
    const account = await signUp(t.app);
    const address = '198.51.100.42';
    for (let i = 0; i < SIGNIN_LIMITS.perHandle - 1; i++) {
      expect((await signIn(account.handle, 'wrong password', address)).statusCode).toBe(401);
    }
    for (let i = 0; i < 5; i++) {
      expect((await signIn(account.handle, account.password, address)).statusCode).toBe(200);
    }
    // One failure left: of several at once, one is checked.
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => signIn(account.handle, 'wrong password', address)),
    );
    expect(tally(responses.map((response) => response.statusCode))).toEqual({ 401: 1, 429: 4 });
  });

  it(`${PARALLEL} password changes at once with a wrong currentPassword: ${PASSWORD_CHECK_LIMITS.perAccount} are checked (400), the rest 429`, async () => {
    const account = await signUp(t.app);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/password',
        remoteAddress: '198.51.100.43',
        headers: { cookie: account.cookie },
        payload: { currentPassword, newPassword: 'a brand new password' },
      });
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => change('wrong password')));
    expect(tally(responses.map((response) => response.statusCode))).toEqual({
      400: PASSWORD_CHECK_LIMITS.perAccount,
      429: PARALLEL - PASSWORD_CHECK_LIMITS.perAccount,
    });
    expect((await change(account.password)).statusCode).toBe(429);
    // The password did not change.
    expect((await signIn(account.handle, account.password, '198.51.100.44')).statusCode).toBe(200);
  });
});
