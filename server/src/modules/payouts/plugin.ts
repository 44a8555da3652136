import { modulePlugin } from '../../platform/module-plugin.ts';
import { payoutRoutes } from './routes.ts';

/** Sellers' balances, payout accounts and payouts. */
export const payoutsPlugin = modulePlugin('payouts', async (app, p) => {
  await app.register(payoutRoutes, {
    db: p.db,
    provider: p.payments,
    publicUrl: p.config.publicUrl,
    localPayouts: p.options.localPayouts,
  });
});
