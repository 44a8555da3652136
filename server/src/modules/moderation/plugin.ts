import { modulePlugin } from '../../platform/module-plugin.ts';
import { moderationRoutes } from './routes.ts';

/** A seller's moderators, blocked words and chat settings. */
export const moderationPlugin = modulePlugin('moderation', async (app, p) => {
  await app.register(moderationRoutes, { db: p.db });
});
