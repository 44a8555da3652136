import { modulePlugin } from '../../platform/module-plugin.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { announceOrder } from '../shop/service.ts';
import { startPaymentJobs } from './payment-jobs.ts';
import { checkoutRoutes, localPaymentRoutes, WEBHOOK_PATH } from './routes.ts';

/** Card payments: checkout holds, webhooks, Pro subscriptions, and the payment jobs. */
export const checkoutPlugin = modulePlugin('checkout', async (app, p) => {
  await app.register(checkoutRoutes, {
    db: p.db,
    provider: p.payments,
    // A paid order is announced in the rooms showing the product.
    onOrder: (orderId) => announceOrder(p.db, p.hub, orderId),
    mailer: p.mailer,
    publicUrl: p.config.publicUrl,
    platformFeePercent: p.config.platformFeePercent,
    secret: p.config.sessionSecret,
  });
  if (p.payments.name === 'local') {
    const local = p.payments as LocalProvider;
    await app.register(localPaymentRoutes, { provider: local });
    if (p.options.localWebhooks !== false) {
      // The same endpoint and signature check a real provider's webhook goes through.
      local.attachWebhook(async (payload, headers) => {
        const response = await app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
        return response.statusCode;
      });
    }
  }
  const stopPaymentJobs =
    p.options.paymentJobs === false ? async () => {} : startPaymentJobs(p.db, p.payments, p.log);
  app.addHook('onClose', async () => {
    await stopPaymentJobs();
  });
});
