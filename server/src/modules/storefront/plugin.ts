import { modulePlugin } from '../../platform/module-plugin.ts';
import { storefrontRoutes } from './routes.ts';

/** A seller's public storefront. */
export const storefrontPlugin = modulePlugin('storefront', async (app, p) => {
  await app.register(storefrontRoutes, { db: p.db });
});
