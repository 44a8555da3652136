import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import {
  productRefBodySchema,
  replayChaptersSchema,
  roomShopSchema,
  startOfferBodySchema,
} from '@streamshop/contract/shop.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { SIGNED_IN } from '../../platform/sessions.ts';
import { findStreamByRoom } from '../streams/service.ts';
import { roomOwnedBy, roomRunBy } from './access.ts';
import { addToLineup, endOffer, pin, removeFromLineup, startOffer, unpin } from './lineup.ts';
import { loadRoomShop, replayChapters } from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const productParams = roomNameParamsSchema.extend({
  productId: z.uuid({ error: 'productId must be a product id' }),
});
const shopResponse = { response: { 200: roomShopSchema, ...errors } };

/** The room's shop: anyone can look; the seller and their moderators line up and pin; only the seller runs offers. */
export const shopRoutes: FastifyPluginAsyncZod<{ db: Db; hub: RoomHub }> = async (app, { db, hub }) => {
  app.get(
    '/api/streams/:name/shop',
    { schema: { params: roomNameParamsSchema, ...shopResponse } },
    async (request) => {
      const stream = await findStreamByRoom(db, request.params.name);
      if (!stream) throw notFound('Stream not found');
      return loadRoomShop(db, stream.id);
    },
  );

  app.get(
    '/api/streams/:name/chapters',
    { schema: { params: roomNameParamsSchema, response: { 200: replayChaptersSchema, ...errors } } },
    async (request) => {
      const stream = await findStreamByRoom(db, request.params.name);
      if (!stream) throw notFound('Stream not found');
      return { chapters: await replayChapters(db, stream.id) };
    },
  );

  const runner = (name: string, userId: string | undefined) => roomRunBy(db, name, userId);
  const owner = (name: string, userId: string | undefined) => roomOwnedBy(db, name, userId);
  /** Who may act on the room is settled before the body is validated (401, then 404/403, then 400). */
  const checkedFirst = (access: typeof runner) => ({
    config: SIGNED_IN,
    preValidation: async (request: FastifyRequest) => {
      const params = roomNameParamsSchema.safeParse(request.params);
      if (params.success) await access(params.data.name, request.user?.id);
    },
  });
  const roomFirst = checkedFirst(runner);
  // Offers (start and end) belong to the seller: a moderator could otherwise price the stock at a
  // cent and buy it. Moderators still line up and pin (unpinning a product ends its offer).
  const ownerFirst = checkedFirst(owner);

  app.post(
    '/api/streams/:name/lineup',
    { ...roomFirst, schema: { params: roomNameParamsSchema, body: productRefBodySchema, ...shopResponse } },
    async (request) =>
      addToLineup(db, hub, await runner(request.params.name, request.user?.id), request.body.productId),
  );
  app.delete(
    '/api/streams/:name/lineup/:productId',
    { ...roomFirst, schema: { params: productParams, ...shopResponse } },
    async (request) =>
      removeFromLineup(
        db,
        hub,
        await runner(request.params.name, request.user?.id),
        request.params.productId,
      ),
  );
  app.post(
    '/api/streams/:name/pins',
    { ...roomFirst, schema: { params: roomNameParamsSchema, body: productRefBodySchema, ...shopResponse } },
    async (request) =>
      pin(db, hub, await runner(request.params.name, request.user?.id), request.body.productId),
  );
  app.delete(
    '/api/streams/:name/pins/:productId',
    { ...roomFirst, schema: { params: productParams, ...shopResponse } },
    async (request) =>
      unpin(db, hub, await runner(request.params.name, request.user?.id), request.params.productId),
  );
  app.post(
    '/api/streams/:name/offers',
    { ...ownerFirst, schema: { params: roomNameParamsSchema, body: startOfferBodySchema, ...shopResponse } },
    async (request) => startOffer(db, hub, await owner(request.params.name, request.user?.id), request.body),
  );
  app.post(
    '/api/streams/:name/offers/end',
    { ...ownerFirst, schema: { params: roomNameParamsSchema, ...shopResponse } },
    async (request) => endOffer(db, hub, await owner(request.params.name, request.user?.id)),
  );
};
