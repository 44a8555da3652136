import {
  betaSignupBodySchema,
  betaSignupResponseSchema,
  discOrderBodySchema,
  discOrderResponseSchema,
  discPreorderBodySchema,
  discPreorderResponseSchema,
  newsletterPreorderBodySchema,
  newsletterPreorderResponseSchema,
} from '@streamshop/contract/disc.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { reserveDisc } from './reservation.ts';
import {
  createDiscOrder,
  createNewsletterPreorder,
  registerBetaSignup,
  throttleDiscForm,
} from './service.ts';

/** The marketing forms send a few hundred bytes; anything near this is not a person typing. */
export const DISC_FORM_BODY_LIMIT = 16 * 1024;

const errors = {
  400: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};

/** Public marketing forms: beta sign-up, newsletter pre-order, the $1 reservation and the full disc order. */
export const discRoutes: FastifyPluginAsyncZod<{
  db: Db;
  limiter: RateLimiter;
  payments: PaymentProvider;
  publicUrl: string;
  /** Receipts and confirmations (ADR 0015). */
  mailer: Mailer;
}> = async (app, { db, limiter, payments, publicUrl, mailer }) => {
  const mail = { mailer, publicUrl };
  // Throttle before the body is validated, so malformed floods are counted too.
  app.post(
    '/api/beta-signup',
    {
      bodyLimit: DISC_FORM_BODY_LIMIT,
      preValidation: async (request) => throttleDiscForm(limiter, 'beta', addressBucket(request.ip)),
      schema: { body: betaSignupBodySchema, response: { 201: betaSignupResponseSchema, ...errors } },
    },
    async (request, reply) => {
      await registerBetaSignup(db, mail, request.body);
      return reply.status(201).send({ ok: true as const });
    },
  );

  app.post(
    '/api/pre-order',
    {
      bodyLimit: DISC_FORM_BODY_LIMIT,
      preValidation: async (request) => throttleDiscForm(limiter, 'preorder', addressBucket(request.ip)),
      schema: {
        body: newsletterPreorderBodySchema,
        response: { 201: newsletterPreorderResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createNewsletterPreorder(db, mail, request.body)),
  );

  app.post(
    '/api/stream-disc/pre-order',
    {
      bodyLimit: DISC_FORM_BODY_LIMIT,
      preValidation: async (request) => throttleDiscForm(limiter, 'reservation', addressBucket(request.ip)),
      schema: { body: discPreorderBodySchema, response: { 201: discPreorderResponseSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await reserveDisc(db, payments, publicUrl, request.body)),
  );

  app.post(
    '/api/stream-disc-orders',
    {
      bodyLimit: DISC_FORM_BODY_LIMIT,
      preValidation: async (request) => throttleDiscForm(limiter, 'order', addressBucket(request.ip)),
      schema: { body: discOrderBodySchema, response: { 201: discOrderResponseSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await createDiscOrder(db, mail, request.body)),
  );
};
