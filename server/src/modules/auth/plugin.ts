import { modulePlugin } from '../../platform/module-plugin.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { authRoutes } from './routes.ts';

/** Sign-up, sign-in, mailed links, and sign-in with OpenID Connect providers. */
export const authPlugin = modulePlugin('auth', async (app, p) => {
  await app.register(authRoutes, {
    db: p.db,
    limiter: p.limiter,
    mailer: p.mailer,
    secret: p.config.sessionSecret,
    publicUrl: p.config.publicUrl,
  });
  await app.register(oidcRoutes, { db: p.db, config: p.config, limiter: p.limiter });
});
