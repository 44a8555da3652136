import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { memoryTokenBuckets, redisTokenBuckets } from '../../platform/token-bucket.ts';
import { chatReplayRoutes } from './replay-routes.ts';
import { chatRoutes } from './routes.ts';
import { ChatWriter } from './service.ts';

/** Chat messages per user and room: a burst, then a steady rate (spec constants). */
const CHAT_BUCKET = { burst: CHAT_BURST, perSecond: CHAT_REFILL_PER_SEC };

/** A room's chat socket, its journal and writer, and the chat of replays. */
export const chatPlugin = modulePlugin('chat', async (app, p) => {
  // Before any socket: it takes over the chat messages a crashed server accepted and did not save.
  const writer = await ChatWriter.start(p.db, p.config.dataDir, p.log);
  await app.register(chatRoutes, {
    db: p.db,
    sessionSockets: p.sessionSockets,
    secret: p.config.sessionSecret,
    hub: p.hub,
    publicUrl: p.config.publicUrl,
    writer,
    limiter:
      p.options.chatBuckets ??
      (p.redis
        ? redisTokenBuckets(p.redis, 'streamshop:chat:', CHAT_BUCKET, { log: p.log })
        : memoryTokenBuckets(CHAT_BUCKET)),
  });
  await app.register(chatReplayRoutes, { db: p.db, writer });
  app.addHook('onClose', async () => {
    // The sockets are closed (the drain): what chat accepted gets its rows now, or at the next start.
    await writer.close(Math.min(5000, p.config.shutdownGraceMs / 5));
  });
});
