import { randomBytes } from 'node:crypto';
import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryTokenBuckets, redisTokenBuckets } from './token-bucket.ts';

const CHAT = { burst: CHAT_BURST, perSecond: CHAT_REFILL_PER_SEC };

describe('memoryTokenBuckets', () => {
  it('allows a burst, then one message per second', async () => {
    let now = 1_000_000;
    const limiter = memoryTokenBuckets(CHAT, () => now);
    const taken = [];
    for (let i = 0; i < CHAT_BURST + 2; i++) taken.push(await limiter.take('room:user'));
    expect(taken).toEqual([...new Array(CHAT_BURST).fill(true), false, false]);
    expect(await limiter.take('room:other-user')).toBe(true);
    now += 1000;
    expect(await limiter.take('room:user')).toBe(true);
    expect(await limiter.take('room:user')).toBe(false);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('redisTokenBuckets', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('limits a user once across instances, not once per instance', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const [a, b] = [0, 1].map(() => {
      const client = new Redis(redisUrl ?? '');
      clients.push(client);
      return redisTokenBuckets(client, prefix, CHAT);
    });
    if (!a || !b) throw new Error('no limiters');
    const taken = [];
    for (let i = 0; i < CHAT_BURST + 2; i++) taken.push(await (i % 2 ? a : b).take('room:user'));
    expect(taken.filter(Boolean)).toHaveLength(CHAT_BURST);
    expect(taken.slice(CHAT_BURST)).toEqual([false, false]);
    expect(await a.take('room:someone-else')).toBe(true);
  });
});
