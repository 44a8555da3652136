import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  INGEST_AVAILABILITY_URL,
  INGEST_OFF_MESSAGE,
  ingestAvailabilitySchema,
  ingestSchema,
} from '@streamshop/contract/ingest.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../../db/client.ts';
import { conflict } from '../../../platform/errors.ts';
import { SIGNED_IN, signedInUser } from '../../../platform/sessions.ts';
import { rotateStreamKey, streamKeyFor } from './stream-keys.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * Where the owner's encoder publishes: GET answers the RTMP URL and the stream key (made on first
 * ask), POST …/rotate replaces the key and drops an encoder still using the old one. The owner
 * only: 401 signed out, 404 for anyone else, 409 when this server takes no encoder (RTMP off;
 * GET /api/ingest tells every page so, and the OBS panels are not shown). docs/api.md.
 */
export const keyRoutes: FastifyPluginAsyncZod<{
  db: Db;
  rtmpUrl: string;
  /** SESSION_SECRET: stream keys are derived from it (they are not stored). */
  secret: string;
  /** Whether the RTMP listener runs (RTMP_PORT is not 0 and it could listen). */
  rtmpOn: boolean;
  /** Drops the room's encoder on every instance (it published with the old key). */
  dropEncoder: (roomName: string) => Promise<void>;
}> = async (app, { db, rtmpUrl, secret, rtmpOn, dropEncoder }) => {
  // A stream key is a credential: never kept by a browser or proxy cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const assertOn = () => {
    if (!rtmpOn) throw conflict('CONFLICT', INGEST_OFF_MESSAGE);
  };

  app.get(INGEST_AVAILABILITY_URL, { schema: { response: { 200: ingestAvailabilitySchema } } }, async () => ({
    rtmp: rtmpOn,
  }));

  app.get(
    '/api/streams/:name/ingest',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: ingestSchema, ...errors } },
    },
    async (request) => {
      assertOn();
      return streamKeyFor(db, secret, signedInUser(request).id, request.params.name, rtmpUrl);
    },
  );

  app.post(
    '/api/streams/:name/ingest/rotate',
    {
      config: SIGNED_IN,
      schema: { params: roomNameParamsSchema, response: { 200: ingestSchema, ...errors } },
    },
    async (request) => {
      assertOn();
      const rotated = await rotateStreamKey(
        db,
        signedInUser(request).id,
        request.params.name,
        rtmpUrl,
        secret,
      );
      await dropEncoder(request.params.name);
      return { ...rotated, encoderConnected: false, encoderLeftAt: null };
    },
  );
};
