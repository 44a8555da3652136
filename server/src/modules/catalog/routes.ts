import {
  exploreQuerySchema,
  exploreResponseSchema,
  facetsResponseSchema,
  productBodySchema,
  productIdParamsSchema,
  productPageSchema,
  productSchema,
} from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { assertImageUrlOnSite, assertOwnUpload } from './image-url.ts';
import {
  assertOwnProduct,
  createProduct,
  deleteProduct,
  explore,
  facets,
  getProduct,
  listSellerProducts,
  productPage,
  updateProduct,
} from './service.ts';

const facetsQuerySchema = exploreQuerySchema.omit({ sort: true, page: true, limit: true });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

export const catalogRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string }> = async (
  app,
  { db, publicUrl },
) => {
  app.get(
    '/api/explore',
    {
      schema: {
        querystring: exploreQuerySchema,
        response: { 200: exploreResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => explore(db, request.query),
  );

  app.get(
    '/api/facets',
    {
      schema: {
        querystring: facetsQuerySchema,
        response: { 200: facetsResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => facets(db, request.query),
  );

  app.get(
    '/api/products/mine',
    { config: SIGNED_IN, schema: { response: { 200: z.array(productSchema), ...errors } } },
    async (request) => listSellerProducts(db, signedInUser(request).id),
  );

  app.get(
    '/api/products/:id',
    { schema: { params: productIdParamsSchema, response: { 200: productSchema, ...errors } } },
    async (request) => getProduct(db, request.params.id),
  );

  // The public product page (/products/:id): the product, its seller, and the shows it is in.
  app.get(
    '/api/products/:id/page',
    { schema: { params: productIdParamsSchema, response: { 200: productPageSchema, ...errors } } },
    async (request) => productPage(db, request.params.id),
  );

  app.post(
    '/api/products',
    { config: SIGNED_IN, schema: { body: productBodySchema, response: { 201: productSchema, ...errors } } },
    async (request, reply) => {
      const seller = signedInUser(request);
      assertImageUrlOnSite(request.body.imageUrl, publicUrl);
      await assertOwnUpload(db, seller.id, request.body.imageUrl, { publicUrl, field: 'imageUrl' });
      const product = await createProduct(db, seller.id, request.body);
      return reply.status(201).send(product);
    },
  );

  app.put(
    '/api/products/:id',
    {
      config: SIGNED_IN,
      // Someone else's product is a 404 before its body is validated.
      preValidation: async (request) => {
        const params = productIdParamsSchema.safeParse(request.params);
        if (params.success) await assertOwnProduct(db, signedInUser(request).id, params.data.id);
      },
      schema: {
        params: productIdParamsSchema,
        body: productBodySchema,
        response: { 200: productSchema, ...errors },
      },
    },
    async (request) => {
      const seller = signedInUser(request);
      assertImageUrlOnSite(request.body.imageUrl, publicUrl);
      await assertOwnUpload(db, seller.id, request.body.imageUrl, {
        publicUrl,
        field: 'imageUrl',
        current: (await getProduct(db, request.params.id)).imageUrl,
      });
      return updateProduct(db, seller.id, request.params.id, request.body);
    },
  );

  app.delete(
    '/api/products/:id',
    { config: SIGNED_IN, schema: { params: productIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteProduct(db, signedInUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
