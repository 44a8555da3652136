import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisBus } from './bus.ts';
import { redisRateLimiter } from './rate-limit.ts';
import type { OutageLog } from './redis-outage.ts';
import { redisTokenBuckets } from './token-bucket.ts';

/** A loopback port nobody listens on: every connection to it is refused, as when Redis is down. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

function recordingLog() {
  const lines: Array<{ level: 'warn' | 'info'; message: string }> = [];
  const log: OutageLog = {
    warn: (_details, message) => lines.push({ level: 'warn', message }),
    info: (_details, message) => lines.push({ level: 'info', message }),
  };
  return { log, lines };
}

const deadUrl = `redis://127.0.0.1:${await deadPort()}`;
const clients: Redis[] = [];
function unreachableClient() {
  // As app.ts builds its shared client.
  const client = new Redis(deadUrl, { maxRetriesPerRequest: 2 });
  clients.push(client);
  return client;
}
afterAll(() => {
  for (const client of clients) client.disconnect();
});

describe('while Redis is unreachable', () => {
  it('rate limits count in memory, still refuse over the limit, and log the outage once', async () => {
    const { log, lines } = recordingLog();
    const limiter = redisRateLimiter(unreachableClient(), 'test:', { log });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('signin:ada', 3, 60));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.retryAfterSec).toBeGreaterThan(0);
    expect((await limiter.reserve([{ key: 'signin:ada', limit: 3 }], 60)).allowed).toBe(false);
    await limiter.reset('signin:ada');
    expect((await limiter.reserve([{ key: 'signin:ada', limit: 3 }], 60)).allowed).toBe(true);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('reservations count in memory: at most the limit at once, and a release gives one back', async () => {
    const limiter = redisRateLimiter(unreachableClient(), 'test:', { log: recordingLog().log });
    const keys = [
      { key: 'signin:fail:ip:a', limit: 50 },
      { key: 'signin:fail:handle:ada:ip:a', limit: 3 },
    ];
    const results = await Promise.all(Array.from({ length: 8 }, () => limiter.reserve(keys, 60)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    const refused = results.find((r) => !r.allowed);
    expect(refused?.retryAfterSec).toBeGreaterThan(0);
    await results.find((r) => r.allowed)?.release();
    expect((await limiter.reserve(keys, 60)).allowed).toBe(true);
    expect((await limiter.reserve(keys, 60)).allowed).toBe(false);
  });

  it('token buckets take from memory: a burst, then refused', async () => {
    const { log, lines } = recordingLog();
    const buckets = redisTokenBuckets(unreachableClient(), 'test:', { burst: 2, perSecond: 1 }, { log });
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await buckets.take('room:ada'));
    expect(taken).toEqual([true, true, false]);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('the bus subscribes without throwing and delivers a publish to this instance once', async () => {
    const { log, lines } = recordingLog();
    const bus = redisBus(deadUrl, 'test:', { log });
    try {
      const text: string[] = [];
      const bytes: Buffer[] = [];
      await bus.subscribe('room:a', (payload) => text.push(payload));
      await bus.subscribeBytes('media:a', (payload) => bytes.push(payload));
      await bus.publish('room:a', 'hello');
      await bus.publishBytes('media:a', Buffer.from([1, 2, 3]));
      await bus.publish('room:nobody', 'lost');
      expect(text).toEqual(['hello']);
      expect(bytes).toEqual([Buffer.from([1, 2, 3])]);
      expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    } finally {
      await bus.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis up', () => {
  it('a channel subscribed while the first connection is being set up is heard, and no outage is logged', {
    timeout: 60_000,
  }, async () => {
    const other = new Redis(redisUrl ?? '');
    const outages: string[] = [];
    try {
      // A server subscribes as soon as rooms are joined, wherever its connection is in its
      // handshake: each try subscribes a little later after the bus is made.
      for (let delay = 0; delay < 40; delay++) {
        const prefix = `test-${Math.random().toString(36).slice(2)}:`;
        const { log, lines } = recordingLog();
        const bus = redisBus(redisUrl ?? '', prefix, { log });
        try {
          const started = Date.now();
          while (Date.now() - started < delay / 4) await new Promise((resolve) => setImmediate(resolve));
          const heard: string[] = [];
          await bus.subscribe('room:early', (payload) => heard.push(payload));
          const deadline = Date.now() + 10_000;
          while (heard.length === 0 && Date.now() < deadline) {
            await other.publish(`${prefix}room:early`, 'hello');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          expect(heard[0]).toBe('hello');
          // A SUBSCRIBE written during the handshake fails ioredis's ready check, which drops the connection.
          outages.push(...lines.map((line) => `after ${delay / 4} ms: ${line.message}`));
        } finally {
          await bus.close();
        }
      }
      expect(outages).toEqual([]);
    } finally {
      other.disconnect();
    }
  });

  it('a message reaches each instance once: Redis echoes it to the publisher, nothing is added locally', async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    const [a, b] = [redisBus(redisUrl ?? '', prefix), redisBus(redisUrl ?? '', prefix)];
    try {
      const onA: string[] = [];
      const onB: string[] = [];
      const probes = { a: 0, b: 0 };
      const record = (list: string[], self: 'a' | 'b') => (payload: string) => {
        if (payload.startsWith('probe:')) {
          if (payload !== `probe:${self}`) probes[self]++;
        } else list.push(payload);
      };
      await a.subscribe('room:x', record(onA, 'a'));
      await b.subscribe('room:x', record(onB, 'b'));
      // Both instances up first (on a loaded machine the first connection can take seconds): each
      // hears the other's probe. Only then is "once, in order" a claim about a working Redis.
      const connectedBy = Date.now() + 15_000;
      while ((probes.a === 0 || probes.b === 0) && Date.now() < connectedBy) {
        await Promise.all([a.publish('room:x', 'probe:a'), b.publish('room:x', 'probe:b')]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(probes.a * probes.b).toBeGreaterThan(0);
      await a.publish('room:x', 'one');
      await a.publish('room:x', 'two');
      await b.publish('room:x', 'last');
      const deadline = Date.now() + 8000;
      while ((onA.length < 3 || onB.length < 3) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(onA).toEqual(['one', 'two', 'last']);
      expect(onB).toEqual(['one', 'two', 'last']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
