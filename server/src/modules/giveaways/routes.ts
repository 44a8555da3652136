import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  currentGiveawaySchema,
  giveawayRefusedSchema,
  giveawaySchema,
  startGiveawayBodySchema,
} from '@streamshop/contract/giveaways.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, notFound, unauthorized } from '../../platform/errors.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { findStreamByRoom } from '../streams/service.ts';
import {
  cancelGiveaway,
  currentGiveaway,
  EntryRefused,
  enterGiveaway,
  type GiveawaysDeps,
  getGiveaway,
  startGiveaway,
} from './giveaways.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const giveawayParams = z.object({ id: z.uuid({ error: 'id must be a giveaway id' }) });

/** Giveaways (issue 29): the seller starts and cancels, signed-in viewers enter, anyone reads. */
export const giveawayRoutes: FastifyPluginAsyncZod<{ deps: GiveawaysDeps }> = async (app, { deps }) => {
  const db = deps.db;
  const roomOf = async (name: string) => {
    const stream = await findStreamByRoom(db, name);
    if (!stream) throw notFound('Stream not found');
    return stream;
  };

  app.post(
    '/api/streams/:name/giveaways',
    {
      config: SIGNED_IN,
      // Who may start one is settled before the body is read: 401, then 404/403, then 400.
      preValidation: async (request) => {
        const params = roomNameParamsSchema.safeParse(request.params);
        if (!params.success) return;
        if (!request.user) throw unauthorized();
        const stream = await roomOf(params.data.name);
        if (stream.owner_id !== request.user.id)
          throw forbidden('Only the seller can run giveaways in this room');
      },
      schema: {
        params: roomNameParamsSchema,
        body: startGiveawayBodySchema,
        response: { 201: giveawaySchema, ...errors },
      },
    },
    async (request, reply) => {
      const stream = await roomOf(request.params.name);
      return reply.status(201).send(await startGiveaway(deps, stream, request.body));
    },
  );

  app.get(
    '/api/streams/:name/giveaways/current',
    { schema: { params: roomNameParamsSchema, response: { 200: currentGiveawaySchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { giveaway: await currentGiveaway(db, await roomOf(request.params.name), request.user?.id) };
    },
  );

  app.get(
    '/api/giveaways/:id',
    { schema: { params: giveawayParams, response: { 200: giveawaySchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getGiveaway(db, request.params.id, request.user?.id);
    },
  );

  app.post(
    '/api/giveaways/:id/entries',
    {
      config: SIGNED_IN,
      schema: {
        params: giveawayParams,
        response: {
          201: giveawaySchema,
          ...errors,
          403: giveawayRefusedSchema.or(errorBodySchema),
          409: giveawayRefusedSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        return reply.status(201).send(await enterGiveaway(deps, request.params.id, signedInUser(request).id));
      } catch (error) {
        if (!(error instanceof EntryRefused)) throw error;
        return reply.status(error.status as 403 | 409).send({ code: error.reason, message: error.message });
      }
    },
  );

  app.post(
    '/api/giveaways/:id/cancel',
    { config: SIGNED_IN, schema: { params: giveawayParams, response: { 200: giveawaySchema, ...errors } } },
    async (request) => cancelGiveaway(deps, request.params.id, signedInUser(request).id),
  );
};
