import {
  AUCTION_MESSAGES,
  type StartAuctionBody,
  startAuctionBodySchema,
} from '@streamshop/contract/auctions.ts';
import type { Db, Tx } from '../../db/client.ts';
import { sqlState } from '../../db/query-errors.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../platform/errors.ts';
import { freeUnitsOf, lockProductForSale } from '../checkout/service.ts';
import { findStreamByRoom, type StreamRecord } from '../streams/service.ts';
import { insertAuction, isInLineup, lockAuction, markCancelled, runningAuctionOf } from './repo.ts';

/** SQLSTATE unique_violation: the one-running-auction-per-room index refused a second. */
const UNIQUE_VIOLATION = '23505';

/** The room's stream for its seller: 401 signed out, 404 unknown, 403 anyone else (moderators too). */
export async function roomOfSeller(
  db: Db,
  roomName: string,
  userId: string | undefined,
): Promise<StreamRecord> {
  if (!userId) throw unauthorized();
  const stream = await findStreamByRoom(db, roomName);
  if (!stream) throw notFound('Stream not found');
  if (stream.owner_id !== userId) throw forbidden('Only the seller can run auctions in this room');
  return stream;
}

/**
 * Starts an auction of one unit of a lineup product while the stream is live. The product's row
 * is locked as checkout locks it, so the unit counted free here is not held by a buyer meanwhile;
 * the database's one-running-auction index refuses a second auction started at the same moment.
 */
export async function startAuction(
  db: Db,
  stream: StreamRecord,
  input: StartAuctionBody,
  /** Refuses a seller who cannot take paid orders yet (Stripe Connect onboarding), as checkout does. */
  assertSellerPaid: (tx: Tx) => Promise<unknown>,
): Promise<string> {
  const body = startAuctionBodySchema.parse(input);
  try {
    return await db.transaction(async (tx) => {
      if (!stream.is_active || stream.ended_at) throw conflict('CONFLICT', AUCTION_MESSAGES.notLive);
      const product = await lockProductForSale(tx, body.productId);
      if (!product || product.seller_id !== stream.owner_id) throw notFound('Product not found');
      if (!(await isInLineup(tx, stream.id, body.productId))) {
        throw conflict('CONFLICT', AUCTION_MESSAGES.notInLineup);
      }
      if (await runningAuctionOf(tx, stream.id)) throw conflict('CONFLICT', AUCTION_MESSAGES.running);
      if ((await freeUnitsOf(tx, body.productId, product.stock)) <= 0) {
        throw conflict('CONFLICT', AUCTION_MESSAGES.outOfStock);
      }
      await assertSellerPaid(tx);
      return insertAuction(tx, {
        streamId: stream.id,
        productId: body.productId,
        sellerId: stream.owner_id,
        startingBidCents: body.startingBidCents,
        durationSec: body.durationSec,
        suddenDeath: body.suddenDeath,
        extendSec: body.extendSec,
      });
    });
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw conflict('CONFLICT', AUCTION_MESSAGES.running);
    throw error;
  }
}

/** The seller cancels an auction nobody has bid in yet. */
export function cancelAuction(db: Db, auctionId: string, userId: string): Promise<void> {
  return db.transaction(async (tx) => {
    const auction = await lockAuction(tx, auctionId);
    if (!auction) throw notFound('Auction not found');
    if (auction.seller_id !== userId) throw forbidden('Only the seller can cancel this auction');
    if (auction.status !== 'running') throw conflict('CONFLICT', AUCTION_MESSAGES.ended);
    if (auction.bid_count > 0) throw conflict('CONFLICT', AUCTION_MESSAGES.cancelHasBids);
    await markCancelled(tx, auction.id);
  });
}
