import type { Redis } from 'ioredis';
import { type OutageLog, outageReporter, readiness, redisUsable, withinMs } from './redis-outage.ts';

/**
 * Token buckets: a burst of `burst` actions, refilled at `perSecond`. For rates of something people
 * do continuously (chat messages); counted attempts per window (sign-ins, sign-ups, form posts)
 * use the fixed windows of rate-limit.ts. In memory for one instance; in Redis when REDIS_URL is
 * set, so an actor is limited once across every instance rather than once per instance (and once
 * per instance, in memory, while Redis is unreachable).
 */
export interface TokenBuckets {
  /** Takes a token from the key's bucket: false when it is empty. */
  take(key: string): Promise<boolean>;
}

export interface BucketSize {
  burst: number;
  perSecond: number;
}

export function memoryTokenBuckets(
  { burst, perSecond }: BucketSize,
  now: () => number = Date.now,
): TokenBuckets {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const idleMs = (burst / perSecond) * 1000;
  return {
    async take(key) {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: t };
      bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
      bucket.at = t;
      if (buckets.size > 50_000) {
        for (const [k, b] of buckets) if (t - b.at > idleMs) buckets.delete(k);
      }
      buckets.set(key, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}

/** The same bucket as one atomic script on Redis, timed by Redis's clock so instances agree. */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local data = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(data[1]) or burst
local at = tonumber(data[2]) or now
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return allowed`;

/**
 * `prefix` namespaces the keys (e.g. 'streamshop:chat:'). While Redis is unreachable (or slower
 * than `timeoutMs`, default 1 s) a key takes from a bucket in this instance's memory instead.
 */
export function redisTokenBuckets(
  redis: Redis,
  prefix: string,
  { burst, perSecond }: BucketSize,
  { log, timeoutMs = 1000 }: { log?: OutageLog; timeoutMs?: number } = {},
): TokenBuckets {
  const memory = memoryTokenBuckets({ burst, perSecond });
  const outage = outageReporter('token buckets', 'take from memory on each instance', log);
  const state = readiness(redis);
  // Listening also keeps ioredis from printing every failed reconnect of a shared client.
  redis.on('error', (error) => outage.failed(error));
  return {
    async take(key) {
      if (!redisUsable(redis, state.seenReady)) {
        outage.failed(new Error(`Redis connection is ${redis.status}`));
        return memory.take(key);
      }
      try {
        const allowed = await withinMs(
          redis.eval(TAKE_SCRIPT, 1, `${prefix}${key}`, burst, perSecond),
          timeoutMs,
        );
        outage.recovered();
        return allowed === 1;
      } catch (error) {
        outage.failed(error);
        return memory.take(key);
      }
    },
  };
}
