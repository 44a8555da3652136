import {
  AUCTION_MESSAGES,
  type Auction,
  type AuctionEvent,
  minNextBidCents,
  type PlaceBidBody,
  type StartAuctionBody,
} from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound, tooManyRequests } from '../../platform/errors.ts';
import { startIntervalJob } from '../../platform/interval-job.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { type CheckoutMail, freeUnitsOf, lockProductForSale, savedAddresses } from '../checkout/service.ts';
import { defaultCardOf } from '../payment-methods/service.ts';
import { payoutDestination } from '../payouts/service.ts';
import { announceOrder } from '../shop/service.ts';
import { BidRefused, type BidTaken, paymentMethodRequired, placeBid } from './bidding.ts';
import { AuctionClosing, CLOSE_SWEEP_MS } from './closing.ts';
import { cancelAuction, startAuction } from './lifecycle.ts';
import { answeredBefore, auctionForView, type BidderChecks, bidderChecks, isBlocked } from './repo.ts';
import { settleDue } from './settlement.ts';
import { auctionToSettle, chargeAgain, passToRunnerUp, runnerUpOf } from './settlement-repo.ts';
import { toAuction } from './view.ts';

/**
 * A bid refused on the committed state, without queueing for the auction's row lock: under the
 * next bid (the price only rises, so it stays too low), or in an auction over already (a close
 * never reopens). Most bids of a burst are taps on the same amount; one wins, the rest end here.
 * A retry of a bid taken before (its clientBidId) goes on, to be answered as the first time.
 */
async function refuseEarly(
  db: Db,
  target: BidderChecks,
  auctionId: string,
  bidderId: string,
  body: PlaceBidBody,
) {
  const maxCents = body.maxBidCents ?? body.amountCents ?? 0;
  const minNext = minNextBidCents(target.starting_bid_cents, target.current_bid_cents);
  const ended = target.status !== 'running';
  if (!ended && maxCents >= minNext) return;
  if (await answeredBefore(db, auctionId, bidderId, body.clientBidId)) return;
  if (ended) throw new BidRefused('AUCTION_ENDED', AUCTION_MESSAGES.ended, minNext);
  throw new BidRefused('TOO_LOW', AUCTION_MESSAGES.tooLow(formatCents(minNext)), minNext);
}

/** Bids one account may place per window: far above a person tapping, far below a script. */
export const BIDS_PER_WINDOW = 20;
export const BID_WINDOW_SEC = 10;

export interface AuctionsDeps {
  db: Db;
  hub: RoomHub;
  provider: PaymentProvider;
  limiter: RateLimiter;
  mail: CheckoutMail;
  log: FastifyBaseLogger;
}

/**
 * The auctions of every room on this instance: starting, bidding, cancelling, closing at the
 * database's clock and settling the winner's charge, each change told to the room through the hub
 * (so viewers on every instance see it) with the auction's view and the server's clock.
 */
export class Auctions {
  private readonly closing: AuctionClosing;
  private settling: Promise<unknown> | undefined;
  private stopSettling: () => Promise<void> = async () => {};
  /** The newest version of each auction this instance told its room: an older view is not sent again. */
  private readonly told = new Map<string, number>();

  constructor(private readonly deps: AuctionsDeps) {
    this.closing = new AuctionClosing(deps.db, (closed) => this.afterClose(closed), deps.log);
  }

  async start(options: { sweepMs?: number } = {}): Promise<void> {
    await this.closing.start(options.sweepMs);
    // Winners not charged yet, whoever closed their auction: a claim skipped (its row was locked by
    // a late bid), a provider that did not answer, an instance that died part-way.
    this.stopSettling = startIntervalJob(
      'settling auctions',
      options.sweepMs ?? CLOSE_SWEEP_MS,
      this.deps.log,
      () => this.settle(),
    );
  }

  async stop(): Promise<void> {
    await this.stopSettling();
    await this.closing.stop();
    await this.settling;
  }

  /** The auction as clients see it; 404 when unknown. */
  async view(auctionId: string): Promise<Auction> {
    const found = await auctionForView(this.deps.db, { id: auctionId });
    if (!found) throw notFound('Auction not found');
    return toAuction(found.row, found.bids);
  }

  /** The room's running auction, or its last one for a minute after it closed. */
  async currentOf(streamId: string): Promise<Auction | null> {
    const found = await auctionForView(this.deps.db, { streamId });
    return found ? toAuction(found.row, found.bids) : null;
  }

  async startIn(stream: Parameters<typeof startAuction>[1], body: StartAuctionBody): Promise<Auction> {
    const id = await startAuction(this.deps.db, stream, body, (tx) =>
      payoutDestination(tx, this.deps.provider, stream.owner_id),
    );
    const auction = await this.view(id);
    this.closing.closeIn(id, Date.parse(auction.endsAt) - Date.parse(auction.serverNow));
    await this.publish(auction.roomName, {
      type: 'auction_started',
      auctionId: id,
      serverNow: auction.serverNow,
      auction,
    });
    return auction;
  }

  /**
   * A bid: 429 past the account's rate, 404, 403 for the seller or a blocked bidder, 402 without a
   * saved card (or an address for a shipped product), then the bid itself under the row lock.
   */
  async bid(
    auctionId: string,
    bidderId: string,
    body: PlaceBidBody,
  ): Promise<{ taken: BidTaken; auction: Auction }> {
    const { db, limiter, provider } = this.deps;
    const allowance = await limiter.hit(`auction-bids:${bidderId}`, BIDS_PER_WINDOW, BID_WINDOW_SEC);
    if (!allowance.allowed) throw tooManyRequests(allowance.retryAfterSec);
    const target = await bidderChecks(db, auctionId);
    if (!target) throw notFound('Auction not found');
    if (target.seller_id === bidderId) throw forbidden('You cannot bid in your own auction.');
    if (await isBlocked(db, target.seller_id, bidderId)) {
      throw forbidden('The seller has blocked you from bidding in their auctions.');
    }
    const card = await defaultCardOf(db, bidderId, provider.name);
    const address = target.fulfillment === 'ship' ? (await savedAddresses(db, bidderId))[0] : true;
    if (!card || !address) throw paymentMethodRequired();
    await refuseEarly(db, target, auctionId, bidderId, body);

    const taken = await placeBid(db, auctionId, bidderId, body);
    this.closing.closeIn(auctionId, taken.endsInMs);
    const auction = await this.view(auctionId);
    if (!taken.repeated) {
      await this.publish(auction.roomName, {
        type: 'auction_bid',
        auctionId,
        serverNow: auction.serverNow,
        currentBidCents: auction.currentBidCents ?? auction.startingBidCents,
        leader: auction.leader,
        endsAt: auction.endsAt,
        auction,
      });
      if (taken.extended) {
        await this.publish(auction.roomName, {
          type: 'auction_extended',
          auctionId,
          serverNow: auction.serverNow,
          endsAt: auction.endsAt,
          version: auction.version,
        });
      }
    }
    return { taken, auction };
  }

  async cancel(auctionId: string, userId: string): Promise<Auction> {
    await cancelAuction(this.deps.db, auctionId, userId);
    this.closing.forget(auctionId);
    return this.announceEnd(auctionId);
  }

  /** The declined winner pays with the card they saved since (before payBy). */
  async payAgain(auctionId: string, userId: string): Promise<Auction> {
    const { db, provider } = this.deps;
    const auction = await auctionToSettle(db, auctionId);
    if (!auction) throw notFound('Auction not found');
    if (auction.winner_id !== userId) throw forbidden('Only the winner can pay for this auction.');
    if (auction.payment_state !== 'declined') throw conflict('CONFLICT', 'This auction has nothing to pay.');
    if (!(await defaultCardOf(db, userId, provider.name))) throw paymentMethodRequired();
    if (!(await db.transaction((tx) => chargeAgain(tx, auctionId, userId)))) {
      throw conflict('CONFLICT', 'The time to pay for this auction is up.');
    }
    await this.settle(auctionId);
    return this.view(auctionId);
  }

  /**
   * After a declined winner's time to pay is up, the seller passes the unit to the runner-up at
   * their highest bid ("you bid, you buy"), if it is still free; the runner-up is charged.
   */
  async offerToRunnerUp(auctionId: string, userId: string): Promise<Auction> {
    const { db } = this.deps;
    const auction = await auctionToSettle(db, auctionId);
    if (!auction) throw notFound('Auction not found');
    if (auction.seller_id !== userId)
      throw forbidden('Only the seller can offer this auction to the runner-up.');
    if (auction.payment_state !== 'declined' || !auction.winner_id) {
      throw conflict('CONFLICT', 'Only an auction whose winner could not pay goes to the runner-up.');
    }
    if (auction.pay_open) throw conflict('CONFLICT', 'The winner still has time to pay with another card.');
    const winnerId = auction.winner_id;
    await db.transaction(async (tx) => {
      const product = await lockProductForSale(tx, auction.product_id);
      if (!product || (await freeUnitsOf(tx, auction.product_id, product.stock)) < 1) {
        throw conflict('CONFLICT', 'The unit is no longer free: it was sold or put up again.');
      }
      const runnerUp = await runnerUpOf(tx, auctionId, winnerId);
      if (!runnerUp) throw conflict('CONFLICT', 'Nobody else bid in this auction.');
      if (!(await passToRunnerUp(tx, auctionId, runnerUp))) {
        throw conflict('CONFLICT', 'The winner still has time to pay with another card.');
      }
    });
    await this.announceEnd(auctionId);
    await this.settle(auctionId);
    return this.view(auctionId);
  }

  /** Closes due auctions and charges their winners now (tests; production runs both by itself). */
  async sweep(): Promise<void> {
    await this.closing.sweep();
    await this.settle();
  }

  private async afterClose(closed: Array<{ id: string; room_name: string }>): Promise<void> {
    for (const auction of closed) await this.announceEnd(auction.id);
    await this.settle();
  }

  /** Charges the winners of closed auctions (one auction, or every one due); never twice at once here. */
  private settle(only?: string): Promise<unknown> {
    const run = async () => {
      await this.settling;
      await settleDue(
        {
          ...this.deps,
          settled: async (auctionId, orderId) => {
            if (orderId) await announceOrder(this.deps.db, this.deps.hub, orderId);
            await this.announceEnd(auctionId);
          },
        },
        only,
      );
    };
    const running = run().catch((error) => this.deps.log.warn({ err: error }, 'settling auctions failed'));
    this.settling = running;
    return running;
  }

  private async announceEnd(auctionId: string): Promise<Auction> {
    const auction = await this.view(auctionId);
    await this.publish(auction.roomName, {
      type: 'auction_ended',
      auctionId,
      serverNow: auction.serverNow,
      winner: auction.result?.winner ?? null,
      priceCents: auction.result?.priceCents ?? null,
      auction,
    });
    return auction;
  }

  private async publish(roomName: string, event: AuctionEvent): Promise<void> {
    // Bids committed together read the same view after their commits: the room hears it once.
    const version = 'auction' in event ? event.auction.version : event.version;
    const key = `${event.type}:${event.auctionId}`;
    if ((this.told.get(key) ?? 0) >= version) return;
    this.told.set(key, version);
    if (this.told.size > 1000) this.told.delete(this.told.keys().next().value ?? key);
    try {
      await this.deps.hub.publish(roomName, event);
    } catch (error) {
      // The bid is on disk: a room that misses the event catches up on its next GET.
      this.deps.log.warn({ err: error, roomName }, 'telling the room of an auction change failed');
    }
  }
}
