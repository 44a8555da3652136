import type { Redis } from 'ioredis';
import { type OutageLog, outageReporter, readiness, redisUsable, withinMs } from './redis-outage.ts';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets; set when not allowed. */
  retryAfterSec: number;
}

/**
 * Fixed-window counters, for attempts counted per window (sign-ins, sign-ups, form posts); rates
 * of continuous actions (chat messages) use token-bucket.ts. In memory for one instance; in Redis
 * when REDIS_URL is set, so limits hold across instances (and in memory again, per instance, while
 * Redis is unreachable).
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

export interface RedisLimitOptions {
  log?: OutageLog;
  /** How long a request may wait for Redis before it is counted in memory instead (default 1 s). */
  timeoutMs?: number;
}

/**
 * While Redis is unreachable (or slower than `timeoutMs`) a key is counted in this instance's
 * memory instead: limits stay on, per instance, and sign-in never answers 500 for a Redis outage.
 * Counts made in memory are not carried over to Redis when it is back.
 */
export function redisRateLimiter(
  redis: Redis,
  prefix: string,
  { log, timeoutMs = 1000 }: RedisLimitOptions = {},
): RateLimiter {
  const memory = memoryRateLimiter();
  const outage = outageReporter('rate limits', 'count in memory on each instance', log);
  const state = readiness(redis);
  // Listening also keeps ioredis from printing every failed reconnect of a shared client.
  redis.on('error', (error) => outage.failed(error));
  async function onRedis<T>(command: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (!redisUsable(redis, state.seenReady)) {
      outage.failed(new Error(`Redis connection is ${redis.status}`));
      return inMemory();
    }
    try {
      const result = await withinMs(command(), timeoutMs);
      outage.recovered();
      return result;
    } catch (error) {
      outage.failed(error);
      return inMemory();
    }
  }
  return {
    hit: (key, limit, windowSec) =>
      onRedis(
        async () => {
          const k = `${prefix}rl:${key}`;
          const results = await redis.multi().incr(k).expire(k, windowSec, 'NX').ttl(k).exec();
          const count = Number(results?.[0]?.[1] ?? 0);
          const ttl = Number(results?.[2]?.[1] ?? windowSec);
          const allowed = count <= limit;
          return { allowed, retryAfterSec: allowed ? 0 : Math.max(1, ttl) };
        },
        () => memory.hit(key, limit, windowSec),
      ),
    peek: (key, limit) =>
      onRedis(
        async () => {
          const k = `${prefix}rl:${key}`;
          const results = await redis.multi().get(k).ttl(k).exec();
          const count = Number(results?.[0]?.[1] ?? 0);
          const ttl = Number(results?.[1]?.[1] ?? 0);
          const allowed = count < limit || ttl <= 0;
          return { allowed, retryAfterSec: allowed ? 0 : ttl };
        },
        () => memory.peek(key, limit),
      ),
    async reset(key) {
      await memory.reset(key);
      await onRedis(
        () => redis.del(`${prefix}rl:${key}`),
        async () => 0,
      );
    },
  };
}
