import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { ingestSchema } from '@streamshop/contract/ingest.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { ingestFor, rotateIngestKey } from './ingest-keys.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/**
 * Where the owner's encoder publishes: GET answers the RTMP URL and the stream key (made on first
 * ask), POST …/rotate replaces the key and drops an encoder still using the old one. The owner
 * only: 401 signed out, 404 for anyone else (docs/api.md).
 */
export const ingestRoutes: FastifyPluginAsyncZod<{
  db: Db;
  rtmpUrl: string;
  /** Drops the room's encoder on every instance (it published with the old key). */
  dropEncoder: (roomName: string) => Promise<void>;
}> = async (app, { db, rtmpUrl, dropEncoder }) => {
  // A stream key is a credential: never kept by a browser or proxy cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/api/streams/:name/ingest',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: ingestSchema, ...errors } },
    },
    async (request) => ingestFor(db, signedInUser(request).id, request.params.name, rtmpUrl),
  );

  app.post(
    '/api/streams/:name/ingest/rotate',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: ingestSchema, ...errors } },
    },
    async (request) => {
      const ingest = await rotateIngestKey(db, signedInUser(request).id, request.params.name, rtmpUrl);
      await dropEncoder(request.params.name);
      return { ...ingest, encoderConnected: false };
    },
  );
};
