import type { Redis } from 'ioredis';
import { type OutageLog, outageReporter, readiness, redisUsable, withinMs } from './redis-outage.ts';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets; set when not allowed. */
  retryAfterSec: number;
}

/** One counter of a reservation and the most it may count in its window. */
export interface LimitKey {
  key: string;
  limit: number;
}

export interface Reservation extends RateLimitResult {
  /**
   * Gives the attempt back on every key (a password that was right), in the window it was taken
   * from; once, and nothing for a refused reservation. Never throws.
   */
  release(): Promise<void>;
}

/**
 * Fixed-window counters, for attempts counted per window (sign-ins, sign-ups, form posts); rates
 * of continuous actions (chat messages) use token-bucket.ts. In memory for one instance; in Redis
 * when REDIS_URL is set, so limits hold across instances (and in memory again, per instance, while
 * Redis is unreachable).
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSec: number): Promise<RateLimitResult>;
  /**
   * For limits that count only failures: counts one attempt on every key at once, before the
   * attempt is checked, or on none when any key is at its limit (refused, with the longest wait).
   * The caller releases it when the attempt succeeds. Check and count are one step, so attempts
   * sent in parallel are never all checked: at most `limit` are allowed per key per window.
   */
  reserve(keys: readonly LimitKey[], windowSec: number): Promise<Reservation>;
  reset(key: string): Promise<void>;
}

const refused = (retryAfterSec: number): Reservation => ({
  allowed: false,
  retryAfterSec,
  release: async () => {},
});

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  /** The key's current window, opened when it has none (each call runs in one turn: atomic). */
  function windowOf(key: string, windowSec: number, t: number) {
    if (t - lastSweep > 60_000) {
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      lastSweep = t;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= t) {
      window = { count: 0, resetAt: t + windowSec * 1000 };
      windows.set(key, window);
    }
    return window;
  }
  return {
    async hit(key, limit, windowSec) {
      const t = now();
      const window = windowOf(key, windowSec, t);
      window.count += 1;
      const allowed = window.count <= limit;
      return { allowed, retryAfterSec: allowed ? 0 : Math.ceil((window.resetAt - t) / 1000) };
    },
    async reserve(keys, windowSec) {
      const t = now();
      const taken = keys.map(({ key }) => windowOf(key, windowSec, t));
      let wait = 0;
      taken.forEach((window, i) => {
        if (window.count >= (keys[i]?.limit ?? 0)) {
          wait = Math.max(wait, Math.ceil((window.resetAt - t) / 1000));
        }
      });
      if (wait > 0) return refused(wait);
      for (const window of taken) window.count += 1;
      let released = false;
      return {
        allowed: true,
        retryAfterSec: 0,
        async release() {
          if (released) return;
          released = true;
          // A window that has ended is no longer in the map: giving back to it changes nothing.
          for (const window of taken) window.count = Math.max(0, window.count - 1);
        },
      };
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
 * KEYS: the counters; ARGV[1]: the window in seconds, ARGV[1 + i]: the limit of KEYS[i]. Refused,
 * counting nothing, while any counter is at its limit: {0, the longest wait in seconds}. Else every
 * counter counts one (a new one expires after the window): {1, 0, then each counter's expiry in
 * ms, which tells its window apart from a later one when the reservation is released}.
 */
const RESERVE_SCRIPT = `
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('TTL', key)
    if ttl < 0 then
      redis.call('EXPIRE', key, ARGV[1])
      ttl = tonumber(ARGV[1])
    end
    wait = math.max(wait, ttl, 1)
  end
end
if wait > 0 then return {0, wait} end
local reply = {1, 0}
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  if redis.call('TTL', key) < 0 then redis.call('EXPIRE', key, ARGV[1]) end
  reply[i + 2] = redis.call('PEXPIRETIME', key)
end
return reply
`;

/** KEYS: a reservation's counters; ARGV[i]: the expiry KEYS[i] had then. Counts one less in that same window only. */
const RELEASE_SCRIPT = `
for i, key in ipairs(KEYS) do
  if redis.call('PEXPIRETIME', key) == tonumber(ARGV[i]) and tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 0
`;

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
    reserve: (keys, windowSec) =>
      onRedis(
        async (): Promise<Reservation> => {
          const counters = keys.map(({ key }) => `${prefix}rl:${key}`);
          const reply = (await redis.eval(
            RESERVE_SCRIPT,
            counters.length,
            ...counters,
            windowSec,
            ...keys.map(({ limit }) => limit),
          )) as number[];
          if (reply[0] !== 1) return refused(Math.max(1, Number(reply[1])));
          const expiries = reply.slice(2);
          let released = false;
          return {
            allowed: true,
            retryAfterSec: 0,
            async release() {
              if (released) return;
              released = true;
              // Redis away meanwhile: the attempt stays counted there until its window ends.
              await onRedis(
                () => redis.eval(RELEASE_SCRIPT, counters.length, ...counters, ...expiries),
                async () => 0,
              );
            },
          };
        },
        // Counted in memory, and given back there.
        () => memory.reserve(keys, windowSec),
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
