import { modulePlugin } from '../../platform/module-plugin.ts';
import { healthRoutes } from './routes.ts';

/** GET /api/health, for load balancers: the database, Redis, and whether this instance drains. */
export const healthPlugin = modulePlugin('health', async (app, p) => {
  await app.register(healthRoutes, {
    database: p.database,
    redis: p.redis,
    draining: () => app.drain.draining,
  });
});
