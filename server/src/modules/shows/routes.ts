import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { roomResponseSchema } from '@streamshop/contract/live.ts';
import {
  createShowBodySchema,
  reminderResponseSchema,
  showIdParamsSchema,
  showListSchema,
  showSchema,
  showsQuerySchema,
  updateShowBodySchema,
} from '@streamshop/contract/shows.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { findUserByHandle } from '../auth/service.ts';
import { showCalendar } from './calendar.ts';
import { goLiveFromShow } from './go-live.ts';
import {
  createShow,
  deleteShow,
  forget,
  getShow,
  listShowsOfSeller,
  listUpcomingShows,
  remind,
  updateShow,
} from './shows.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Scheduled shows (issue 29): the seller schedules, edits and goes live; anyone reads; buyers ask for reminders. */
export const showRoutes: FastifyPluginAsyncZod<{
  db: Db;
  publicUrl: string;
  restreamAllowedHosts: string[];
}> = async (app, { db, publicUrl, restreamAllowedHosts }) => {
  app.post(
    '/api/shows',
    { config: SIGNED_IN, schema: { body: createShowBodySchema, response: { 201: showSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createShow(db, signedInUser(request), request.body, publicUrl)),
  );

  app.get(
    '/api/shows',
    { schema: { querystring: showsQuerySchema, response: { 200: showListSchema, ...errors } } },
    async (request, reply) => {
      const { scope, seller, limit } = request.query;
      const viewerId = request.user?.id;
      if (scope === 'mine') {
        if (!viewerId) throw unauthorized();
        reply.header('cache-control', 'private, no-store');
        return { shows: await listShowsOfSeller(db, viewerId, limit) };
      }
      let sellerId: string | undefined;
      if (seller) {
        sellerId = (await findUserByHandle(db, seller.replace(/^@/, '').toLowerCase()))?.id;
        if (!sellerId) throw notFound('No user has this handle');
      }
      return { shows: await listUpcomingShows(db, { sellerId, viewerId, limit }) };
    },
  );

  app.get(
    '/api/shows/:id',
    { schema: { params: showIdParamsSchema, response: { 200: showSchema, ...errors } } },
    async (request) => getShow(db, request.params.id, request.user?.id),
  );

  app.patch(
    '/api/shows/:id',
    {
      config: SIGNED_IN,
      schema: {
        params: showIdParamsSchema,
        body: updateShowBodySchema,
        response: { 200: showSchema, ...errors },
      },
    },
    async (request) => updateShow(db, signedInUser(request), request.params.id, request.body, publicUrl),
  );

  app.delete(
    '/api/shows/:id',
    { config: SIGNED_IN, schema: { params: showIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteShow(db, signedInUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/shows/:id/reminder',
    {
      config: SIGNED_IN,
      schema: { params: showIdParamsSchema, response: { 200: reminderResponseSchema, ...errors } },
    },
    async (request) => remind(db, signedInUser(request).id, request.params.id),
  );

  app.delete(
    '/api/shows/:id/reminder',
    {
      config: SIGNED_IN,
      schema: { params: showIdParamsSchema, response: { 200: reminderResponseSchema, ...errors } },
    },
    async (request) => forget(db, signedInUser(request).id, request.params.id),
  );

  app.get(
    '/api/shows/:id/calendar.ics',
    { schema: { params: showIdParamsSchema } },
    async (request, reply) => {
      const show = await getShow(db, request.params.id);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="show-${show.id}.ics"`)
        .header('cache-control', 'public, max-age=60')
        .send(showCalendar(show, publicUrl));
    },
  );

  app.post(
    '/api/shows/:id/live',
    {
      config: SIGNED_IN,
      schema: { params: showIdParamsSchema, response: { 200: roomResponseSchema, ...errors } },
    },
    async (request) => goLiveFromShow(db, signedInUser(request), request.params.id, restreamAllowedHosts),
  );
};
