import {
  AUCTION_MESSAGES,
  auctionBlockBodySchema,
  auctionBlockParamsSchema,
  auctionBlocksSchema,
  auctionSchema,
  bidRefusedSchema,
  currentAuctionSchema,
  placeBidBodySchema,
  startAuctionBodySchema,
  streamAuctionsSchema,
} from '@streamshop/contract/auctions.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import { SIGNED_IN } from '../../platform/sessions.ts';
import { findStreamByRoom } from '../streams/service.ts';
import type { Auctions } from './auctions.ts';
import { BidRefused } from './bidding.ts';
import { blockBidder, listBlocks, unblockBidder } from './blocks.ts';
import { roomOfSeller } from './lifecycle.ts';
import { streamAuctions } from './stream-auctions.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const auctionParams = z.object({ id: z.uuid({ error: 'id must be an auction id' }) });

const userOf = (request: FastifyRequest): string => {
  const id = request.user?.id;
  if (!id) throw unauthorized();
  return id;
};

/** Live auctions (issue 28): the seller starts and cancels, signed-in buyers bid, anyone watches. */
export const auctionRoutes: FastifyPluginAsyncZod<{ db: Db; auctions: Auctions }> = async (
  app,
  { db, auctions },
) => {
  app.post(
    '/api/streams/:name/auctions',
    {
      config: SIGNED_IN,
      // Who may start one is settled before the body is read: 401, then 404/403, then 400.
      preValidation: async (request) => {
        const params = roomNameParamsSchema.safeParse(request.params);
        if (params.success) await roomOfSeller(db, params.data.name, request.user?.id);
      },
      schema: {
        params: roomNameParamsSchema,
        body: startAuctionBodySchema,
        response: { 201: auctionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const stream = await roomOfSeller(db, request.params.name, request.user?.id);
      return reply.code(201).send(await auctions.startIn(stream, request.body));
    },
  );

  app.get(
    '/api/streams/:name/auctions/current',
    { schema: { params: roomNameParamsSchema, response: { 200: currentAuctionSchema, ...errors } } },
    async (request) => {
      const stream = await findStreamByRoom(db, request.params.name);
      if (!stream) throw notFound('Stream not found');
      return { auction: await auctions.currentOf(stream.id) };
    },
  );

  app.get(
    '/api/streams/:name/auctions',
    { schema: { params: roomNameParamsSchema, response: { 200: streamAuctionsSchema, ...errors } } },
    async (request) => {
      const stream = await findStreamByRoom(db, request.params.name);
      if (!stream) throw notFound('Stream not found');
      return streamAuctions(db, stream.id);
    },
  );

  app.get(
    '/api/auctions/:id',
    { schema: { params: auctionParams, response: { 200: auctionSchema, ...errors } } },
    async (request) => auctions.view(request.params.id),
  );

  app.post(
    '/api/auctions/:id/bids',
    {
      config: SIGNED_IN,
      schema: {
        params: auctionParams,
        body: placeBidBodySchema,
        response: {
          201: auctionSchema,
          402: errorBodySchema,
          409: bidRefusedSchema.or(errorBodySchema),
          429: errorBodySchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      try {
        const { taken, auction } = await auctions.bid(request.params.id, userOf(request), request.body);
        if (taken.outcome === 'outbid') {
          const min = formatCents(taken.minNextBidCents);
          return reply.code(409).send({
            code: 'OUTBID',
            message: AUCTION_MESSAGES.outbid(min),
            minNextBidCents: taken.minNextBidCents,
          });
        }
        return reply.code(201).send(auction);
      } catch (error) {
        if (!(error instanceof BidRefused)) throw error;
        return reply
          .code(409)
          .send({ code: error.code, message: error.message, minNextBidCents: error.minNextBidCents });
      }
    },
  );

  app.post(
    '/api/auctions/:id/cancel',
    { config: SIGNED_IN, schema: { params: auctionParams, response: { 200: auctionSchema, ...errors } } },
    async (request) => auctions.cancel(request.params.id, userOf(request)),
  );

  app.post(
    '/api/auctions/:id/pay',
    {
      config: SIGNED_IN,
      schema: { params: auctionParams, response: { 200: auctionSchema, 402: errorBodySchema, ...errors } },
    },
    async (request) => auctions.payAgain(request.params.id, userOf(request)),
  );

  app.post(
    '/api/auctions/:id/runner-up',
    { config: SIGNED_IN, schema: { params: auctionParams, response: { 200: auctionSchema, ...errors } } },
    async (request) => auctions.offerToRunnerUp(request.params.id, userOf(request)),
  );

  // A seller's blocks hold across all their rooms' auctions.
  app.get(
    '/api/auction-blocks',
    { config: SIGNED_IN, schema: { response: { 200: auctionBlocksSchema, ...errors } } },
    async (request) => listBlocks(db, userOf(request)),
  );
  app.post(
    '/api/auction-blocks',
    {
      config: SIGNED_IN,
      schema: { body: auctionBlockBodySchema, response: { 201: auctionBlocksSchema, ...errors } },
    },
    async (request, reply) =>
      reply.code(201).send(await blockBidder(db, userOf(request), request.body.handle)),
  );
  app.delete(
    '/api/auction-blocks/:handle',
    {
      config: SIGNED_IN,
      schema: { params: auctionBlockParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await unblockBidder(db, userOf(request), request.params.handle);
      return reply.code(204).send(null);
    },
  );
};
