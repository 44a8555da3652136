import { productIdParamsSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  localAuthenticateBodySchema,
  localConfirmBodySchema,
  localHostedPaymentSchema,
  localPaymentResultSchema,
  paymentConfigSchema,
  paymentSessionSchema,
  subscriptionResponseSchema,
} from '@streamshop/contract/payments.ts';
import { checkoutBodySchema } from '@streamshop/contract/shop.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { type PaymentProvider, WebhookSignatureError } from '../../platform/payments/provider.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { applyPaymentEvent } from './payment-events.ts';
import { completeRefunds } from './payment-jobs.ts';
import { openCheckout } from './service.ts';
import { cancelSubscription, openSubscription, subscriptionOf } from './subscriptions.ts';

export const WEBHOOK_PATH = '/api/webhooks/payments';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};

/** Verifies, applies and acknowledges one provider event; refunds owed by it are attempted after commit. */
/** Called after an order is created (purchase lines and stock in the rooms). */
export type OrderListener = (orderId: string) => Promise<void>;

export async function receiveWebhook(
  db: Db,
  provider: PaymentProvider,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  log: FastifyBaseLogger,
  onOrder?: OrderListener,
) {
  let event: Awaited<ReturnType<PaymentProvider['parseWebhook']>>;
  try {
    event = await provider.parseWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      throw new AppError(400, 'BAD_REQUEST', `Webhook rejected: ${error.message}`);
    }
    throw error;
  }
  const result = await applyPaymentEvent(db, provider.name, event);
  if (result.refunds.length) await completeRefunds(db, provider, log);
  if (result.orderId && onOrder) {
    await onOrder(result.orderId).catch((error) => log.warn({ err: error }, 'announcing an order failed'));
  }
  return { received: true as const, duplicate: result.outcome === 'duplicate' };
}

export const checkoutRoutes: FastifyPluginAsyncZod<{
  db: Db;
  provider: PaymentProvider;
  onOrder?: OrderListener;
}> = async (app, { db, provider, onOrder }) => {
  app.get('/api/payments/config', { schema: { response: { 200: paymentConfigSchema } } }, async () =>
    provider.clientConfig(),
  );

  app.post(
    '/api/checkout/:productId',
    {
      config: SIGNED_IN,
      schema: {
        params: z.object({ productId: productIdParamsSchema.shape.id }),
        body: checkoutBodySchema,
        response: { 200: paymentSessionSchema, ...errors },
      },
    },
    async (request) =>
      openCheckout(db, provider, signedInUser(request).id, request.params.productId, {
        ...request.body,
        clientAddress: request.ip,
      }),
  );

  app.post(
    '/api/create-subscription',
    { config: SIGNED_IN, schema: { response: { 200: paymentSessionSchema, ...errors } } },
    async (request) => openSubscription(db, provider, signedInUser(request)),
  );

  app.get(
    '/api/subscription',
    { config: SIGNED_IN, schema: { response: { 200: subscriptionResponseSchema, 401: errorBodySchema } } },
    async (request) => ({ subscription: await subscriptionOf(db, signedInUser(request).id) }),
  );

  app.post(
    '/api/subscription/cancel',
    { config: SIGNED_IN, schema: { response: { 200: subscriptionResponseSchema, ...errors } } },
    async (request) => ({ subscription: await cancelSubscription(db, provider, signedInUser(request).id) }),
  );

  // Provider-to-server: signed, so it is exempt from the Origin check, and read as raw bytes
  // because the signature covers the exact body.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post(
      WEBHOOK_PATH,
      {
        schema: {
          response: {
            200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
            400: errorBodySchema,
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return receiveWebhook(db, provider, body, request.headers, request.log, onOrder);
      },
    );
  });
};

/** The local provider's card form endpoints: what a card network would do, served by the product. */
export const localPaymentRoutes: FastifyPluginAsyncZod<{ provider: LocalProvider }> = async (
  app,
  { provider },
) => {
  const resultErrors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
  app.get(
    '/api/payments/local/hosted/:id',
    {
      schema: {
        params: z.object({ id: z.string().max(100) }),
        response: { 200: localHostedPaymentSchema, 404: errorBodySchema },
      },
    },
    async (request) => provider.hostedPayment(request.params.id),
  );
  app.post(
    '/api/payments/local/confirm',
    {
      schema: { body: localConfirmBodySchema, response: { 200: localPaymentResultSchema, ...resultErrors } },
    },
    async (request) => provider.confirm(request.body.clientSecret, request.body.card),
  );
  app.post(
    '/api/payments/local/authenticate',
    {
      schema: {
        body: localAuthenticateBodySchema,
        response: { 200: localPaymentResultSchema, ...resultErrors },
      },
    },
    async (request) => provider.authenticate(request.body.clientSecret, request.body.approve),
  );
};
