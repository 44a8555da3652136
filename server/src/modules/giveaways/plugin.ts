import { startIntervalJob } from '../../platform/interval-job.ts';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { drawDue, type GiveawaysDeps } from './giveaways.ts';
import { giveawayRoutes } from './routes.ts';

/** How often every instance looks for giveaways to draw. */
const DRAW_SWEEP_MS = 1000;

/** Giveaways in live rooms: start, enter, the verifiable draw and the winner's $0 order (issue 29). */
export const giveawaysPlugin = modulePlugin('giveaways', async (app, p) => {
  const deps: GiveawaysDeps = {
    db: p.db,
    hub: p.hub,
    log: p.log,
    placing: {
      mailer: p.mailer,
      publicUrl: p.config.publicUrl,
      platformFeePercent: p.config.platformFeePercent,
    },
  };
  await app.register(giveawayRoutes, { deps });
  const stop = startIntervalJob('drawing giveaways', p.options.giveawaySweepMs ?? DRAW_SWEEP_MS, p.log, () =>
    drawDue(deps),
  );
  app.addHook('onClose', stop);
});
