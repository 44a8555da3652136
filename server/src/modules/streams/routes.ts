import { streamSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { createRoomBodySchema, roomNameParamsSchema, roomResponseSchema } from '@streamshop/contract/live.ts';
import { streamAnalyticsSchema } from '@streamshop/contract/stream-analytics.ts';
import { myStreamStatsSchema, streamStatsSchema } from '@streamshop/contract/stream-stats.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { createRoom, endStream, getRoom, startStream } from './rooms.ts';
import { listLiveStreams, listStreamsOfOwner } from './service.ts';
import { getStreamAnalytics } from './stream-analytics.ts';
import { getStreamStats, listStreamStatsOfOwner } from './stream-stats.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export const streamRoutes: FastifyPluginAsyncZod<{
  db: Db;
  hub: RoomHub;
  restreamAllowedHosts: string[];
}> = async (app, { db, hub, restreamAllowedHosts }) => {
  app.get('/api/streams/live', { schema: { response: { 200: z.array(streamSchema) } } }, async () =>
    listLiveStreams(db),
  );

  app.get(
    '/api/streams/mine',
    { config: SIGNED_IN, schema: { response: { 200: z.array(streamSchema), ...errors } } },
    async (request) => listStreamsOfOwner(db, signedInUser(request).id),
  );

  // The seller's figures stay off streamSchema, which anyone may read.
  app.get(
    '/api/streams/mine/stats',
    { config: SIGNED_IN, schema: { response: { 200: myStreamStatsSchema, ...errors } } },
    async (request) => listStreamStatsOfOwner(db, signedInUser(request).id),
  );

  app.post(
    '/api/rooms',
    {
      config: SIGNED_IN,
      schema: { body: createRoomBodySchema, response: { 201: roomResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const stream = await createRoom(db, signedInUser(request), request.body, restreamAllowedHosts);
      return reply.status(201).send({ roomName: stream.roomName, stream });
    },
  );

  app.get(
    '/api/streams/:name',
    { schema: { params: roomNameParamsSchema, response: { 200: streamSchema, ...errors } } },
    async (request) => getRoom(db, request.params.name),
  );

  app.get(
    '/api/streams/:name/stats',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: streamStatsSchema, ...errors } },
    },
    async (request) => getStreamStats(db, signedInUser(request).id, request.params.name),
  );

  app.get(
    '/api/streams/:name/analytics',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: streamAnalyticsSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getStreamAnalytics(db, signedInUser(request), request.params.name);
    },
  );

  app.post(
    '/api/streams/:name/start',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: streamSchema, ...errors } },
    },
    async (request) => {
      const stream = await startStream(db, signedInUser(request).id, request.params.name);
      if (stream.endsAt)
        await hub.publish(stream.roomName, { type: 'stream_started', endsAt: stream.endsAt });
      return stream;
    },
  );

  app.post(
    '/api/streams/:name/end',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: streamSchema, ...errors } },
    },
    async (request) => {
      const stream = await endStream(db, signedInUser(request).id, request.params.name);
      await hub.publish(stream.roomName, { type: 'stream_ended' });
      return stream;
    },
  );
};
