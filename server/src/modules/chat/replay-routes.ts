import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { chatReplaySchema, roomNameParamsSchema } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { findStreamByRoom } from '../streams/service.ts';
import { type ChatWriter, chatReplay } from './service.ts';

/** The chat of a stream, timed to its replay, for anyone who may watch the replay. */
export const chatReplayRoutes: FastifyPluginAsyncZod<{ db: Db; writer: ChatWriter }> = async (
  app,
  { db, writer },
) => {
  app.get(
    '/api/streams/:name/chat-replay',
    {
      schema: {
        params: roomNameParamsSchema,
        response: { 200: chatReplaySchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const stream = await findStreamByRoom(db, request.params.name);
      if (!stream) throw notFound('Stream not found');
      return { messages: await chatReplay(db, writer, stream) };
    },
  );
};
