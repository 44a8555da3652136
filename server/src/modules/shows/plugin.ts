import { startIntervalJob } from '../../platform/interval-job.ts';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { markMissedShows } from './repo.ts';
import { showRoutes } from './routes.ts';

/** How often every instance marks the shows not started in time as missed. */
const MISSED_SWEEP_MS = 30_000;

/** Scheduled shows: schedule, edit, remind, go live from one; missed ones are marked (issue 29). */
export const showsPlugin = modulePlugin('shows', async (app, p) => {
  await app.register(showRoutes, {
    db: p.db,
    publicUrl: p.config.publicUrl,
    restreamAllowedHosts: p.config.restreamAllowedHosts,
  });
  const stop = startIntervalJob('marking missed shows', p.options.showSweepMs ?? MISSED_SWEEP_MS, p.log, () =>
    markMissedShows(p.db),
  );
  app.addHook('onClose', stop);
});
