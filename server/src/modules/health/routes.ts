import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { unhandledRejections } from '../../platform/unhandled.ts';

const PROBE_TIMEOUT_MS = 2000;

const healthSchema = z.object({
  /** ok: everything answers; degraded: Redis is down, this instance still serves; not_ready: take it out. */
  status: z.enum(['ok', 'degraded', 'not_ready']),
  /** The instance is shutting down (SIGTERM): not_ready whatever answers, so no new work is sent here. */
  draining: z.boolean(),
  down: z.array(z.enum(['database', 'redis'])),
  database: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down', 'not_configured']),
  /** Rejections nobody handled since the process started (logged; a non-zero count is a bug to find). */
  unhandledRejections: z.number().int(),
});

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness for a load balancer: 200 keeps the instance in rotation, 503 takes it out. Without the
 * database nothing works (503 not_ready); without Redis the instance still serves its own sockets,
 * checkout and sign-in (200 degraded), so taking every instance out for a Redis outage would turn a
 * partial outage into a full one. A draining instance (platform/drain.ts) answers 503 first thing.
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  redis: Redis | undefined;
  draining: () => boolean;
}> = async (app, { database, redis, draining }) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const [db, cache] = await Promise.all([
        probe(() => database.pool.query('select 1')),
        // A connection that is not ready is down now: no PING queued behind a reconnect.
        !redis
          ? ('not_configured' as const)
          : redis.status === 'ready'
            ? probe(() => redis.ping())
            : ('down' as const),
      ]);
      const down = [
        ...(db === 'down' ? ['database' as const] : []),
        ...(cache === 'down' ? ['redis' as const] : []),
      ];
      const leaving = draining();
      const status = db === 'down' || leaving ? 'not_ready' : down.length > 0 ? 'degraded' : 'ok';
      return reply
        .status(status === 'not_ready' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send({
          status,
          draining: leaving,
          down,
          database: db,
          redis: cache,
          unhandledRejections: unhandledRejections(),
        });
    },
  );
};
