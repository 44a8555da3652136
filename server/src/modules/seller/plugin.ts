import { modulePlugin } from '../../platform/module-plugin.ts';
import { sellerRoutes } from './routes.ts';

/** The seller's own figures (dashboard). */
export const sellerPlugin = modulePlugin('seller', async (app, p) => {
  await app.register(sellerRoutes, { db: p.db });
});
