import { startIntervalJob } from '../../platform/interval-job.ts';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { Bell } from './bell.ts';
import { recordDueEvents } from './events.ts';
import { fanOutDue } from './fan-out.ts';
import { notificationRoutes } from './routes.ts';

/** How often every instance looks for new events and unfinished fan-outs. */
const SWEEP_MS = 2000;

/** Notifications: the bell, preferences, unsubscribe, and the fan-out of go-live and reminders (ADR 0023). */
export const notificationsPlugin = modulePlugin('notifications', async (app, p) => {
  const bell = new Bell(p.db, p.bus, p.log);
  await bell.start();
  bell.register(app, p.sessionSockets, p.config.publicUrl);
  await app.register(notificationRoutes, { db: p.db, bell, secret: p.config.sessionSecret });
  const deps = {
    db: p.db,
    mailer: p.mailer,
    log: p.log,
    publicUrl: p.config.publicUrl,
    secret: p.config.sessionSecret,
    notified: (ids: string[]) => bell.notified(ids),
    ...(p.options.fanoutBatch ? { batchSize: p.options.fanoutBatch } : {}),
  };
  const stop = startIntervalJob('notifying', p.options.notifySweepMs ?? SWEEP_MS, p.log, async () => {
    await recordDueEvents(p.db);
    await fanOutDue(deps);
  });
  app.addHook('onClose', async () => {
    await stop();
    await bell.close();
  });
});
