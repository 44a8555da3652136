import { modulePlugin } from '../../platform/module-plugin.ts';
import { siteRoutes } from './routes.ts';

/** The site's own settings and pages: the operator's external links and the contact form. */
export const sitePlugin = modulePlugin('site', async (app, p) => {
  await app.register(siteRoutes, {
    db: p.db,
    mailer: p.mailer,
    limiter: p.limiter,
    siteLinks: p.config.siteLinks,
    contactEmail: p.config.contactEmail,
    publicUrl: p.config.publicUrl,
  });
});
