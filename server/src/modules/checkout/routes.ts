import { productIdParamsSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  checkoutAnswerSchema,
  localAuthenticateBodySchema,
  localConfirmBodySchema,
  localHostedPaymentSchema,
  localPaymentResultSchema,
  paymentConfigSchema,
  paymentSessionSchema,
  subscriptionResponseSchema,
} from '@streamshop/contract/payments.ts';
import {
  addressesQuerySchema,
  addressesResponseSchema,
  addressIdParamsSchema,
  savedAddressSchema,
  shippingAddressSchema,
} from '@streamshop/contract/shipping.ts';
import { checkoutBodySchema } from '@streamshop/contract/shop.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import { AppError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { type PaymentProvider, WebhookSignatureError } from '../../platform/payments/provider.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { getOrder } from '../orders/service.ts';
import type { CheckoutMail } from './mail.ts';
import { applyPaymentEvent } from './payment-events.ts';
import { completeRefunds, releaseBuyerHolds } from './payment-jobs.ts';
import { addAddress, openCheckout, removeAddress, savedAddresses } from './service.ts';
import {
  cancelSubscription,
  openSubscription,
  recordEarlierMoneyBackClaims,
  refundSubscription,
  subscriptionOf,
} from './subscriptions.ts';

export const WEBHOOK_PATH = '/api/webhooks/payments';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};

/** Called after an order is created (purchase lines and stock in the rooms). */
export type OrderListener = (orderId: string) => Promise<void>;

/** Verifies, applies and acknowledges one provider event; refunds owed by it are attempted after commit. */
export async function receiveWebhook(
  db: Db,
  provider: PaymentProvider,
  mail: CheckoutMail,
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
  const result = await applyPaymentEvent(db, mail, provider.name, event);
  if (result.unapplied) {
    log.warn(
      { eventId: event.id, type: event.type, reason: result.unapplied },
      'payment event left unapplied',
    );
  }
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
  /** Pro receipts and notices (ADR 0015). */
  mailer: Mailer;
  publicUrl: string;
  /** PLATFORM_FEE_PERCENT, for the ledger entries written with each order (ADR 0016). */
  platformFeePercent?: number;
  /** SESSION_SECRET: keys the hash of the address a money-back refund was claimed with. */
  secret: string;
}> = async (app, { db, provider, onOrder, mailer, publicUrl, platformFeePercent, secret }) => {
  const mail: CheckoutMail = { mailer, publicUrl, platformFeePercent, moneyBackSecret: secret };
  // Refunds claimed before claims were kept by address count for the address too (once; a failure
  // is tried again at the next start, and the account's own check still holds meanwhile).
  await recordEarlierMoneyBackClaims(db, secret).catch((error) =>
    app.log.warn({ err: error }, 'recording earlier money-back claims failed'),
  );
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
        response: { 200: checkoutAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const buyerId = signedInUser(request).id;
      const opened = await openCheckout(db, provider, buyerId, request.params.productId, {
        ...request.body,
        clientAddress: addressBucket(request.ip),
        platformFeePercent,
      });
      // Paid already and no unit left to hold: the order, not 409.
      return 'orderId' in opened ? { order: await getOrder(db, buyerId, opened.orderId) } : opened;
    },
  );

  app.delete(
    '/api/checkout/:productId',
    {
      config: SIGNED_IN,
      schema: {
        params: z.object({ productId: productIdParamsSchema.shape.id }),
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request, reply) => {
      await releaseBuyerHolds(db, provider, signedInUser(request).id, request.params.productId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/addresses',
    {
      config: SIGNED_IN,
      schema: {
        querystring: addressesQuerySchema,
        response: { 200: addressesResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ({
      addresses: await savedAddresses(db, signedInUser(request).id, { all: request.query.all === 'true' }),
    }),
  );

  // An address saved before any checkout (the auctions' "you bid, you buy" needs one to ship a win to).
  app.post(
    '/api/addresses',
    {
      config: SIGNED_IN,
      schema: {
        body: shippingAddressSchema,
        response: { 201: savedAddressSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addAddress(db, signedInUser(request).id, request.body)),
  );

  app.delete(
    '/api/addresses/:id',
    {
      config: SIGNED_IN,
      schema: {
        params: addressIdParamsSchema,
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await removeAddress(db, signedInUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/create-subscription',
    { config: SIGNED_IN, schema: { response: { 200: paymentSessionSchema, ...errors } } },
    async (request) => openSubscription(db, provider, signedInUser(request)),
  );

  app.get(
    '/api/subscription',
    { config: SIGNED_IN, schema: { response: { 200: subscriptionResponseSchema, 401: errorBodySchema } } },
    async (request) => ({ subscription: await subscriptionOf(db, secret, signedInUser(request).id) }),
  );

  app.post(
    '/api/subscription/cancel',
    { config: SIGNED_IN, schema: { response: { 200: subscriptionResponseSchema, ...errors } } },
    async (request) => ({
      subscription: await cancelSubscription(db, provider, mail, signedInUser(request).id),
    }),
  );

  app.post(
    '/api/subscription/refund',
    { config: SIGNED_IN, schema: { response: { 200: subscriptionResponseSchema, ...errors } } },
    async (request) => ({
      subscription: await refundSubscription(db, provider, mail, signedInUser(request).id),
    }),
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
        return receiveWebhook(db, provider, mail, body, request.headers, request.log, onOrder);
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
