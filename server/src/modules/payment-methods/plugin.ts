import { modulePlugin } from '../../platform/module-plugin.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { localSetupRoutes, paymentMethodRoutes } from './routes.ts';

/** Saved cards (issue 28): what a live auction charges off-session when the buyer wins. */
export const paymentMethodsPlugin = modulePlugin('payment-methods', async (app, p) => {
  await app.register(paymentMethodRoutes, { db: p.db, provider: p.payments, limiter: p.limiter });
  if (p.payments.name === 'local') {
    await app.register(localSetupRoutes, { provider: p.payments as LocalProvider });
  }
});
