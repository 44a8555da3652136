import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  cardSetupSchema,
  paymentMethodsResponseSchema,
  saveCardBodySchema,
  savedCardResponseSchema,
} from '@streamshop/contract/payment-methods.ts';
import { localConfirmBodySchema, localPaymentResultSchema } from '@streamshop/contract/payments.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { LocalProvider } from '../../platform/payments/local.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { listPaymentMethods, openCardSetup, removeCard, saveCard } from './service.ts';

const paymentMethodIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be a card id' }) });

export const paymentMethodRoutes: FastifyPluginAsyncZod<{
  db: Db;
  provider: PaymentProvider;
  limiter: RateLimiter;
}> = async (app, { db, provider, limiter }) => {
  app.get(
    '/api/payment-methods',
    {
      config: SIGNED_IN,
      schema: { response: { 200: paymentMethodsResponseSchema, 401: errorBodySchema } },
    },
    async (request) => listPaymentMethods(db, provider, signedInUser(request).id),
  );

  app.post(
    '/api/payment-methods/setup',
    {
      config: SIGNED_IN,
      schema: {
        response: {
          200: cardSetupSchema,
          401: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => openCardSetup(db, provider, limiter, signedInUser(request)),
  );

  app.post(
    '/api/payment-methods',
    {
      config: SIGNED_IN,
      schema: {
        body: saveCardBodySchema,
        response: {
          201: savedCardResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const paymentMethod = await saveCard(db, provider, signedInUser(request).id, request.body.setupRef);
      return reply.status(201).send({ paymentMethod });
    },
  );

  app.delete(
    '/api/payment-methods/:id',
    {
      config: SIGNED_IN,
      schema: {
        params: paymentMethodIdParamsSchema,
        response: {
          204: z.null(),
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await removeCard(db, provider, signedInUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};

/** The local provider's card form for a setup: what a card network does when a card is saved. */
export const localSetupRoutes: FastifyPluginAsyncZod<{ provider: LocalProvider }> = async (
  app,
  { provider },
) => {
  app.post(
    '/api/payments/local/setups/confirm',
    {
      schema: {
        body: localConfirmBodySchema,
        response: {
          200: localPaymentResultSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => provider.confirmSetup(request.body.clientSecret, request.body.card),
  );
};
