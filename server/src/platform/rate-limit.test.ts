import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/eventually.ts';
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

    it('reserves on every key or on none: refused while any key is at its limit, with its retry time', async () => {
      const limiter = make();
      const keys = [
        { key: 'r:wide', limit: 3 },
        { key: 'r:narrow', limit: 2 },
      ];
      expect((await limiter.reserve(keys, 60)).allowed).toBe(true);
      expect((await limiter.reserve(keys, 60)).allowed).toBe(true);
      const full = await limiter.reserve(keys, 60);
      expect(full.allowed).toBe(false);
      expect(full.retryAfterSec).toBeGreaterThan(0);
      expect(full.retryAfterSec).toBeLessThanOrEqual(60);
      // The refused reservation counted nowhere: 'r:wide' has one left.
      expect((await limiter.reserve([{ key: 'r:wide', limit: 3 }], 60)).allowed).toBe(true);
      expect((await limiter.reserve([{ key: 'r:wide', limit: 3 }], 60)).allowed).toBe(false);
      // Reservations and hits count on the same keys.
      await limiter.hit('r:shared', 2, 60);
      await limiter.hit('r:shared', 2, 60);
      expect((await limiter.reserve([{ key: 'r:shared', limit: 2 }], 60)).allowed).toBe(false);
    });

    it('allows at most the limit of reservations made at once', async () => {
      const limiter = make();
      const keys = [
        { key: 'at-once:ip', limit: 50 },
        { key: 'at-once:handle', limit: 10 },
      ];
      const results = await Promise.all(Array.from({ length: 25 }, () => limiter.reserve(keys, 60)));
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      // Only the allowed ones counted on the wider key: 40 more fit under its 50.
      const wide = await Promise.all(
        Array.from({ length: 45 }, () => limiter.reserve([{ key: 'at-once:ip', limit: 50 }], 60)),
      );
      expect(wide.filter((r) => r.allowed)).toHaveLength(40);
    });

    it('release gives a reservation back on every key, once', async () => {
      const limiter = make();
      const keys = [
        { key: 'g:a', limit: 2 },
        { key: 'g:b', limit: 2 },
      ];
      const first = await limiter.reserve(keys, 60);
      await limiter.reserve(keys, 60);
      expect((await limiter.reserve(keys, 60)).allowed).toBe(false);
      await first.release();
      await first.release();
      expect((await limiter.reserve(keys, 60)).allowed).toBe(true);
      expect((await limiter.reserve(keys, 60)).allowed).toBe(false);
      // Releasing a refused reservation gives nothing back.
      const refused = await limiter.reserve([{ key: 'g:a', limit: 2 }], 60);
      await refused.release();
      expect((await limiter.reserve([{ key: 'g:a', limit: 2 }], 60)).allowed).toBe(false);
    });

    it('many reservations at once, each released, leave nothing counted', async () => {
      const limiter = make();
      const keys = [{ key: 'churn', limit: 3 }];
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all(Array.from({ length: 3 }, () => limiter.reserve(keys, 60)));
        expect(results.every((r) => r.allowed)).toBe(true);
        await Promise.all(results.map((r) => r.release()));
      }
      expect((await limiter.reserve(keys, 60)).allowed).toBe(true);
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

it('memory rate limiter: a reservation released after its window ended takes nothing from the next window', async () => {
  let now = 0;
  const limiter = memoryRateLimiter(() => now);
  const keys = [{ key: 'k', limit: 1 }];
  const old = await limiter.reserve(keys, 10);
  expect((await limiter.reserve(keys, 10)).allowed).toBe(false);
  now += 10_001;
  expect((await limiter.reserve(keys, 10)).allowed).toBe(true);
  await old.release();
  expect((await limiter.reserve(keys, 10)).allowed).toBe(false);
});

if (redis) {
  const prefix = () => `test:${randomBytes(4).toString('hex')}:`;
  behavesAsFixedWindow('redis rate limiter', () => redisRateLimiter(redis, prefix()));

  it('redis rate limiter: a reservation released after its window ended takes nothing from the next window', async () => {
    const limiter = redisRateLimiter(redis, prefix());
    const keys = [{ key: 'k', limit: 1 }];
    const old = await limiter.reserve(keys, 1);
    expect(old.allowed).toBe(true);
    // The 1 s window ends; the first reservation after it opens a 60 s one.
    await eventually('a new window', async () => (await limiter.reserve(keys, 60)).allowed);
    await old.release();
    expect((await limiter.reserve(keys, 60)).allowed).toBe(false);
  });
} else {
  it.skip('redis rate limiter (set TEST_REDIS_URL to run)', () => {});
}
