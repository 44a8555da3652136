import { modulePlugin } from '../../platform/module-plugin.ts';
import { accountRoutes } from './routes.ts';

/** Account settings: profile, password, email, sessions, export and deletion. */
export const accountPlugin = modulePlugin('account', async (app, p) => {
  await app.register(accountRoutes, {
    db: p.db,
    limiter: p.limiter,
    mailer: p.mailer,
    hub: p.hub,
    storageRemovals: p.storageRemovals,
    secret: p.config.sessionSecret,
    publicUrl: p.config.publicUrl,
    sessionIdleTimeoutMs: p.config.sessionIdleTimeoutMs,
  });
});
