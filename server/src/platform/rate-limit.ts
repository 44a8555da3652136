import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets; set when not allowed. */
  retryAfterSec: number;
}

/**
 * Fixed-window counters, for attempts counted per window (sign-ins, sign-ups, form posts); rates
 * of continuous actions (chat messages) use token-bucket.ts. In memory for one instance; in Redis
 * when REDIS_URL is set, so limits hold across instances.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSec: number): Promise<RateLimitResult>;
  /** Whether one more hit would be allowed, without counting one (limits that count only failures). */
  peek(key: string, limit: number): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  return {
    async hit(key, limit, windowSec) {
      const t = now();
      if (t - lastSweep > 60_000) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
        lastSweep = t;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= t) {
        window = { count: 0, resetAt: t + windowSec * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      const allowed = window.count <= limit;
      return { allowed, retryAfterSec: allowed ? 0 : Math.ceil((window.resetAt - t) / 1000) };
    },
    async peek(key, limit) {
      const t = now();
      const window = windows.get(key);
      if (!window || window.resetAt <= t || window.count < limit) return { allowed: true, retryAfterSec: 0 };
      return { allowed: false, retryAfterSec: Math.ceil((window.resetAt - t) / 1000) };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function redisRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return {
    async hit(key, limit, windowSec) {
      const k = `${prefix}rl:${key}`;
      const results = await redis.multi().incr(k).expire(k, windowSec, 'NX').ttl(k).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? windowSec);
      const allowed = count <= limit;
      return { allowed, retryAfterSec: allowed ? 0 : Math.max(1, ttl) };
    },
    async peek(key, limit) {
      const k = `${prefix}rl:${key}`;
      const results = await redis.multi().get(k).ttl(k).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttl = Number(results?.[1]?.[1] ?? 0);
      const allowed = count < limit || ttl <= 0;
      return { allowed, retryAfterSec: allowed ? 0 : ttl };
    },
    async reset(key) {
      await redis.del(`${prefix}rl:${key}`);
    },
  };
}
