import { modulePlugin } from '../../platform/module-plugin.ts';
import { shopRoutes } from './routes.ts';

/** A room's lineup, pinned products and offers. */
export const shopPlugin = modulePlugin('shop', async (app, p) => {
  await app.register(shopRoutes, { db: p.db, hub: p.hub });
});
