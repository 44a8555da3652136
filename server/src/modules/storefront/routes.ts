import { normalizeHandle } from '@streamshop/contract/auth.ts';
import { handleParamsSchema, storefrontResponseSchema } from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { storefront } from './service.ts';

export const storefrontRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/storefront/:handle',
    {
      schema: {
        params: handleParamsSchema,
        response: { 200: storefrontResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => storefront(db, normalizeHandle(request.params.handle)),
  );
};
