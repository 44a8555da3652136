import { modulePlugin } from '../../platform/module-plugin.ts';
import { Auctions } from './auctions.ts';
import { auctionRoutes } from './routes.ts';

/** Live auctions: bids under the auction's row lock, the close at the database's clock, the winner charged. */
export const auctionsPlugin = modulePlugin('auctions', async (app, p) => {
  const auctions = new Auctions({
    db: p.db,
    hub: p.hub,
    provider: p.payments,
    limiter: p.limiter,
    mail: {
      mailer: p.mailer,
      publicUrl: p.config.publicUrl,
      platformFeePercent: p.config.platformFeePercent,
      moneyBackSecret: p.config.sessionSecret,
    },
    log: p.log,
  });
  await app.register(auctionRoutes, { db: p.db, auctions });
  await auctions.start({ sweepMs: p.options.auctionSweepMs });
  app.addHook('onClose', async () => {
    await auctions.stop();
  });
});
