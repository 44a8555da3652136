import { startIntervalJob } from '../../platform/interval-job.ts';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { Bell } from './bell.ts';
import { recordDueEvents } from './events.ts';
import { fanOutDue, fanoutBatchFor } from './fan-out.ts';
import { notificationRoutes } from './routes.ts';

/** How often every instance looks for new events and unfinished fan-outs. */
const SWEEP_MS = 2000;

/** Notifications: the bell, preferences, unsubscribe, and the fan-out of go-live and reminders (ADR 0023). */
export const notificationsPlugin = modulePlugin('notifications', async (app, p) => {
  const bell = new Bell(p.db, p.bus, p.log);
  await bell.start();
  bell.register(app, p.sessionSockets, p.config.publicUrl);
  await app.register(notificationRoutes, { db: p.db, bell, secret: p.config.sessionSecret });
  let stopping = false;
  const deps = {
    db: p.db,
    mailer: p.mailer,
    log: p.log,
    publicUrl: p.config.publicUrl,
    secret: p.config.sessionSecret,
    notified: (ids: string[]) => bell.notified(ids),
    // A shutdown waits for one batch, not for the rest of a fan-out to 10,000 people.
    stopping: () => stopping,
    batchSize: p.options.fanoutBatch ?? fanoutBatchFor(p.database.kind),
  };
  const stop = startIntervalJob('notifying', p.options.notifySweepMs ?? SWEEP_MS, p.log, async () => {
    await recordDueEvents(p.db);
    await fanOutDue(deps);
  });
  app.addHook('onClose', async () => {
    stopping = true;
    await stop();
    await bell.close();
  });
});
