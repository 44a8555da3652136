import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  followingSchema,
  followStateSchema,
  sellerHandleParamsSchema,
} from '@streamshop/contract/follows.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { follow, following, getFollowState, unfollow } from './service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** Following sellers (issue 29). */
export const followRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/sellers/:handle/follow',
    { schema: { params: sellerHandleParamsSchema, response: { 200: followStateSchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getFollowState(db, request.user?.id, request.params.handle);
    },
  );

  app.post(
    '/api/sellers/:handle/follow',
    {
      config: SIGNED_IN,
      schema: { params: sellerHandleParamsSchema, response: { 200: followStateSchema, ...errors } },
    },
    async (request) => follow(db, signedInUser(request).id, request.params.handle),
  );

  app.delete(
    '/api/sellers/:handle/follow',
    {
      config: SIGNED_IN,
      schema: { params: sellerHandleParamsSchema, response: { 200: followStateSchema, ...errors } },
    },
    async (request) => unfollow(db, signedInUser(request).id, request.params.handle),
  );

  app.get(
    '/api/following',
    { config: SIGNED_IN, schema: { response: { 200: followingSchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return following(db, signedInUser(request).id);
    },
  );
};
