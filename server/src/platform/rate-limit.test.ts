import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './rate-limit.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(async () => {
  await redis?.quit();
});

function behavesAsFixedWindow(name: string, make: () => RateLimiter) {
  describe(name, () => {
    it('allows up to the limit in a window, then refuses with a retry time', async () => {
      const limiter = make();
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.hit('k', 3, 60));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results[3]?.retryAfterSec).toBeGreaterThan(0);
      expect(results[3]?.retryAfterSec).toBeLessThanOrEqual(60);
    });

    it('keeps keys apart and can reset one', async () => {
      const limiter = make();
      await limiter.hit('a', 1, 60);
      expect((await limiter.hit('a', 1, 60)).allowed).toBe(false);
      expect((await limiter.hit('b', 1, 60)).allowed).toBe(true);
      await limiter.reset('a');
      expect((await limiter.hit('a', 1, 60)).allowed).toBe(true);
    });

    it('peeks without counting: allowed until the hits reach the limit', async () => {
      const limiter = make();
      for (let i = 0; i < 5; i++) expect((await limiter.peek('p', 2)).allowed).toBe(true);
      await limiter.hit('p', 2, 60);
      expect((await limiter.peek('p', 2)).allowed).toBe(true);
      await limiter.hit('p', 2, 60);
      const full = await limiter.peek('p', 2);
      expect(full.allowed).toBe(false);
      expect(full.retryAfterSec).toBeGreaterThan(0);
    });
  });
}

behavesAsFixedWindow('memory rate limiter', () => memoryRateLimiter());

it('memory rate limiter opens a new window when the old one is over', async () => {
  let now = 0;
  const limiter = memoryRateLimiter(() => now);
  await limiter.hit('k', 1, 10);
  expect((await limiter.hit('k', 1, 10)).allowed).toBe(false);
  now += 10_001;
  expect((await limiter.hit('k', 1, 10)).allowed).toBe(true);
});

if (redis) {
  behavesAsFixedWindow('redis rate limiter', () =>
    redisRateLimiter(redis, `test:${randomBytes(4).toString('hex')}:`),
  );
} else {
  it.skip('redis rate limiter (set TEST_REDIS_URL to run)', () => {});
}
