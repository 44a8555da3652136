import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { healthRoutes } from './routes.ts';

/**
 * The answers a load balancer acts on. The database and Redis here are stand-ins that answer or
 * fail on demand; the real outage is in platform/redis-outage.test.ts.
 */
async function healthWith(
  databaseUp: boolean,
  redis: 'ready' | 'reconnecting' | undefined,
  draining = false,
) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const database = {
    pool: {
      query: async () => (databaseUp ? { rows: [] } : Promise.reject(new Error('connection refused'))),
    },
  } as unknown as Database;
  const client = redis ? ({ status: redis, ping: async () => 'PONG' } as unknown as Redis) : undefined;
  await app.register(healthRoutes, { database, redis: client, draining: () => draining });
  const response = await app.inject({ url: '/api/health' });
  await app.close();
  return { statusCode: response.statusCode, body: response.json(), cache: response.headers['cache-control'] };
}

describe('/api/health', () => {
  it('answers 200 ok when the database and Redis answer', async () => {
    const health = await healthWith(true, 'ready');
    expect(health.statusCode).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      draining: false,
      down: [],
      database: 'ok',
      redis: 'ok',
    });
    expect(health.cache).toBe('no-store');
  });

  it('answers 200 degraded, naming Redis, when only Redis is down: the instance still serves', async () => {
    const health = await healthWith(true, 'reconnecting');
    expect(health.statusCode).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', down: ['redis'], database: 'ok', redis: 'down' });
  });

  it('answers 503 not_ready when the database does not answer', async () => {
    const health = await healthWith(false, 'reconnecting');
    expect(health.statusCode).toBe(503);
    expect(health.body).toMatchObject({ status: 'not_ready', down: ['database', 'redis'] });
    expect((await healthWith(false, undefined)).body).toMatchObject({
      status: 'not_ready',
      down: ['database'],
      redis: 'not_configured',
    });
  });

  it('answers 503 not_ready while the instance drains, though everything answers', async () => {
    const health = await healthWith(true, 'ready', true);
    expect(health.statusCode).toBe(503);
    expect(health.body).toMatchObject({ status: 'not_ready', draining: true, down: [], database: 'ok' });
    expect(health.cache).toBe('no-store');
  });

  it('shows how many rejections went unhandled', async () => {
    expect((await healthWith(true, undefined)).body.unhandledRejections).toBe(0);
  });
});
