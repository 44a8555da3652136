import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down', 'not_configured']),
});

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
    ]);
    return 'ok';
  } catch {
    return 'down';
  }
}

/** Readiness: 200 only when the database (and Redis, when configured) answer. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; redis: Redis | undefined }> = async (
  app,
  { database, redis },
) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const [db, cache] = await Promise.all([
        probe(() => database.pool.query('select 1')),
        redis ? probe(() => redis.ping()) : Promise.resolve('not_configured' as const),
      ]);
      const ok = db === 'ok' && cache !== 'down';
      return reply
        .status(ok ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ok ? 'ok' : 'unavailable', database: db, redis: cache });
    },
  );
};
