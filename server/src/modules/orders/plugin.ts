import { modulePlugin } from '../../platform/module-plugin.ts';
import { completeRefunds, giveOrderBack } from '../checkout/service.ts';
import { announceStock } from '../shop/service.ts';
import { orderRoutes } from './routes.ts';

/** Orders: the buyer's and the seller's, shipping, delivery, refunds and cancellations. */
export const ordersPlugin = modulePlugin('orders', async (app, p) => {
  await app.register(orderRoutes, {
    db: p.db,
    mailer: p.mailer,
    publicUrl: p.config.publicUrl,
    provider: p.payments,
    // A cancelled or refunded order's unit is back on sale: the rooms showing it are told.
    onStockReturned: (productId) => announceStock(p.db, p.hub, productId),
    // Checkout gives the payment back (checkout writes orders through this module, not the reverse).
    refunds: { giveOrderBack, completeRefunds },
    autoDelivery: p.options.autoDelivery?.enabled,
    autoDeliverAfterMs: p.options.autoDelivery?.afterMs,
    autoDeliveryIntervalMs: p.options.autoDelivery?.intervalMs,
  });
});
