import { modulePlugin } from '../../platform/module-plugin.ts';
import { followRoutes } from './routes.ts';

/** Following sellers: follow and unfollow, counts, the Following view (issue 29). */
export const followsPlugin = modulePlugin('follows', async (app, p) => {
  await app.register(followRoutes, { db: p.db });
});
