import { modulePlugin } from '../../platform/module-plugin.ts';
import { discRoutes } from './routes.ts';

/** The Stream Disc's marketing forms: beta, pre-order, reservation and order. */
export const discPlugin = modulePlugin('disc', async (app, p) => {
  await app.register(discRoutes, {
    db: p.db,
    limiter: p.limiter,
    payments: p.payments,
    publicUrl: p.config.publicUrl,
    mailer: p.mailer,
  });
});
