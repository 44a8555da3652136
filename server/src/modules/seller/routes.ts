import { analyticsSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { sellerAnalytics } from './service.ts';

export const sellerRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/analytics',
    { config: SIGNED_IN, schema: { response: { 200: analyticsSchema, 401: errorBodySchema } } },
    async (request) => sellerAnalytics(db, signedInUser(request).id),
  );
};
