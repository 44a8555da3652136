import { orderSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  orderDetailSchema,
  orderIdParamsSchema,
  orderListQuerySchema,
  ordersPageSchema,
  shipOrderBodySchema,
} from '@streamshop/contract/orders.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import {
  cancelOrder,
  deliverOrder,
  getOrder,
  listOrders,
  listRecentOrders,
  type OrderRefunds,
  type OrdersContext,
  refundOrder,
  type StockListener,
  shipOrder,
  startAutoDelivery,
} from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Sales and purchases after the payment (ADR 0016). */
export const orderRoutes: FastifyPluginAsyncZod<{
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  provider: PaymentProvider;
  /** Called after a cancel or refund returned a unit to the product's stock (the rooms hear). */
  onStockReturned?: StockListener;
  refunds: OrderRefunds;
  /** Run the auto-delivery job (default true). */
  autoDelivery?: boolean | undefined;
  /** Shipped orders count as delivered after this long (default AUTO_DELIVERY_DAYS). */
  autoDeliverAfterMs?: number | undefined;
  autoDeliveryIntervalMs?: number | undefined;
}> = async (app, options) => {
  const { db } = options;
  const context: OrdersContext = {
    mailer: options.mailer,
    publicUrl: options.publicUrl,
    provider: options.provider,
    log: app.log,
    onStockReturned: options.onStockReturned,
    refunds: options.refunds,
  };

  app.get(
    '/api/orders',
    {
      config: SIGNED_IN,
      schema: {
        querystring: orderListQuerySchema,
        response: { 200: z.union([ordersPageSchema, z.array(orderSchema)]), ...errors },
      },
    },
    async (request) => {
      const userId = signedInUser(request).id;
      const { role } = request.query;
      return role ? listOrders(db, userId, { ...request.query, role }) : listRecentOrders(db, userId);
    },
  );

  app.get(
    '/api/orders/:id',
    {
      config: SIGNED_IN,
      schema: { params: orderIdParamsSchema, response: { 200: orderDetailSchema, ...errors } },
    },
    async (request) => getOrder(db, signedInUser(request).id, request.params.id),
  );

  app.post(
    '/api/orders/:id/ship',
    {
      config: SIGNED_IN,
      schema: {
        params: orderIdParamsSchema,
        body: shipOrderBodySchema,
        response: { 200: orderDetailSchema, ...errors },
      },
    },
    async (request) => shipOrder(db, context, signedInUser(request).id, request.params.id, request.body),
  );

  app.post(
    '/api/orders/:id/deliver',
    {
      config: SIGNED_IN,
      schema: { params: orderIdParamsSchema, response: { 200: orderDetailSchema, ...errors } },
    },
    async (request) => deliverOrder(db, signedInUser(request).id, request.params.id),
  );

  app.post(
    '/api/orders/:id/refund',
    {
      config: SIGNED_IN,
      schema: { params: orderIdParamsSchema, response: { 200: orderDetailSchema, ...errors } },
    },
    async (request) => refundOrder(db, context, signedInUser(request).id, request.params.id),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      config: SIGNED_IN,
      schema: { params: orderIdParamsSchema, response: { 200: orderDetailSchema, ...errors } },
    },
    async (request) => cancelOrder(db, context, signedInUser(request).id, request.params.id),
  );

  if (options.autoDelivery !== false) {
    const stop = startAutoDelivery(db, app.log, {
      afterMs: options.autoDeliverAfterMs,
      intervalMs: options.autoDeliveryIntervalMs,
    });
    app.addHook('onClose', stop);
  }
};
