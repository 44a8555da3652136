import {
  AUCTION_MESSAGES,
  applyBid,
  minNextBidCents,
  type PlaceBidBody,
} from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { answeredBefore, isBlocked, lockAuction, recordBid } from './repo.ts';

/** A bid the auction did not take, or took without leading: 409 with the code and the next bid it takes. */
export class BidRefused extends Error {
  constructor(
    readonly code: 'OUTBID' | 'TOO_LOW' | 'AUCTION_ENDED',
    message: string,
    readonly minNextBidCents: number,
  ) {
    super(message);
  }
}

export const paymentMethodRequired = () =>
  new AppError(402, 'PAYMENT_METHOD_REQUIRED', AUCTION_MESSAGES.paymentMethodRequired);

export interface BidTaken {
  auctionId: string;
  /** The clock moved (a late bid, not sudden death). */
  extended: boolean;
  outcome: 'leading' | 'outbid';
  /** A retry of a request already answered: nothing changed now. */
  repeated: boolean;
  minNextBidCents: number;
  /** Milliseconds from now until the auction ends, by the database's clock. */
  endsInMs: number;
}

/**
 * Places one bid under the auction's row lock (ADR 0022): bids are taken one at a time per
 * auction, across instances; the database's clock decides whether it is in time; the commit is the
 * acceptance. The same clientBidId again answers as the first time and changes nothing.
 */
export function placeBid(db: Db, auctionId: string, bidderId: string, body: PlaceBidBody): Promise<BidTaken> {
  const maxCents = body.maxBidCents ?? body.amountCents ?? 0;
  return db.transaction(async (tx) => {
    const auction = await lockAuction(tx, auctionId);
    if (!auction) throw notFound('Auction not found');
    if (auction.seller_id === bidderId) throw forbidden(AUCTION_MESSAGES.ownAuction);
    if (await isBlocked(tx, auction.seller_id, bidderId)) throw forbidden(AUCTION_MESSAGES.blocked);
    const now = new Date(auction.now);
    const endsAt = new Date(auction.ends_at);
    const minNext = minNextBidCents(auction.starting_bid_cents, auction.current_bid_cents);
    const before = await answeredBefore(tx, auction.id, bidderId, body.clientBidId);
    if (before) {
      return {
        auctionId,
        extended: false,
        outcome: before,
        repeated: true,
        minNextBidCents: minNext,
        endsInMs: endsAt.getTime() - now.getTime(),
      };
    }
    if (auction.status !== 'running' || now >= endsAt || auction.stream_ended) {
      throw new BidRefused('AUCTION_ENDED', AUCTION_MESSAGES.ended, minNext);
    }
    const leader =
      auction.leader_id && auction.leader_max_cents !== null
        ? { bidderId: auction.leader_id, maxCents: auction.leader_max_cents }
        : null;
    const outcome = applyBid(
      {
        startingBidCents: auction.starting_bid_cents,
        currentBidCents: auction.current_bid_cents,
        leader,
      },
      bidderId,
      maxCents,
    );
    if (outcome.kind === 'too_low') {
      throw new BidRefused('TOO_LOW', AUCTION_MESSAGES.tooLow(formatCents(minNext)), minNext);
    }
    const leftMs = endsAt.getTime() - now.getTime();
    const extended = !auction.sudden_death && leftMs < auction.extend_sec * 1000;
    const newEnd = extended ? new Date(now.getTime() + auction.extend_sec * 1000) : endsAt;
    await recordBid(tx, auction, {
      bidderId,
      clientBidId: body.clientBidId,
      maxCents,
      outcome: outcome.kind,
      placed: outcome.placed.map((placed) => ({
        ...placed,
        maxCents: placed.bidderId === bidderId ? maxCents : (leader?.maxCents ?? placed.amountCents),
      })),
      currentBidCents: outcome.state.currentBidCents,
      leader: outcome.state.leader,
      endsAt: newEnd,
      decidedAt: now,
    });
    // An outbid bid is taken too (it raised the price, and is committed): the route answers 409.
    const next = minNextBidCents(auction.starting_bid_cents, outcome.state.currentBidCents);
    return {
      auctionId,
      extended,
      outcome: outcome.kind,
      repeated: false,
      minNextBidCents: next,
      endsInMs: newEnd.getTime() - now.getTime(),
    };
  });
}
