import { z } from 'zod';
import { handleField } from './moderation.ts';
import { roomProductSchema } from './shop.ts';

/**
 * Live auctions in a room (issue 28, ADR 0022): one at a time per room, one-tap and maximum
 * (proxy) bids, a late bid extends the clock unless the auction is "sudden death", and the winner
 * is charged off-session at the close with their saved card ("you bid, you buy").
 */

export const AUCTION_MIN_SECONDS = 5;
export const AUCTION_MAX_SECONDS = 300;
export const AUCTION_DEFAULT_SECONDS = 20;
export const AUCTION_DEFAULT_EXTEND_SECONDS = 10;
export const AUCTION_MAX_EXTEND_SECONDS = 60;
/** The highest starting bid or maximum a bidder may name: $100,000. */
export const AUCTION_MAX_CENTS = 10_000_000;
/** How many of the latest bids an auction's view carries. */
export const AUCTION_HISTORY_LENGTH = 10;

/**
 * The increment table: the next bid is the current price plus the increment of the band the
 * current price is in (the common auction-house bands, docs/api.md).
 */
export const BID_INCREMENTS: ReadonlyArray<{ fromCents: number; incrementCents: number }> = [
  { fromCents: 0, incrementCents: 50 },
  { fromCents: 1_000, incrementCents: 100 },
  { fromCents: 5_000, incrementCents: 200 },
  { fromCents: 10_000, incrementCents: 500 },
  { fromCents: 50_000, incrementCents: 1_000 },
  { fromCents: 100_000, incrementCents: 2_500 },
];

export function bidIncrementCents(priceCents: number): number {
  let increment = BID_INCREMENTS[0]?.incrementCents ?? 50;
  for (const band of BID_INCREMENTS) if (priceCents >= band.fromCents) increment = band.incrementCents;
  return increment;
}

/** The lowest bid the auction takes now: the starting bid before the first bid, else one increment up. */
export function minNextBidCents(startingBidCents: number, currentBidCents: number | null): number {
  return currentBidCents === null ? startingBidCents : currentBidCents + bidIncrementCents(currentBidCents);
}

/** The bidding state the rules need. `leader.maxCents` is secret to the server. */
export interface BiddingState {
  startingBidCents: number;
  /** Null until the first bid. */
  currentBidCents: number | null;
  leader: { bidderId: string; maxCents: number } | null;
}

/** One bid as the room sees it: who, how much. Proxy steps made for a maximum are bids too. */
export interface PlacedBid {
  bidderId: string;
  amountCents: number;
  /** Made by the server for the bidder's maximum. */
  proxy: boolean;
}

export type BidOutcome =
  /** Refused: below the next bid (including a leader lowering their own maximum). Nothing changes. */
  | { kind: 'too_low'; minNextBidCents: number }
  /** The bidder leads now (or, already leading, raised their maximum; the price stays). */
  | { kind: 'leading'; state: BiddingState; placed: PlacedBid[] }
  /** The bid was taken and raised the price, but the leader's earlier maximum is as high or higher. */
  | { kind: 'outbid'; state: BiddingState; placed: PlacedBid[] };

/**
 * Applies one bid: a maximum the server bids up to, one increment at a time (a one-tap bid is a
 * maximum of its amount). The leader pays one increment over the second-highest maximum, never
 * more than their own; at equal maxima the earlier one leads. Pure: the server runs it under the
 * auction's row lock, the bench replays accepted bids through it to check the final price.
 */
export function applyBid(state: BiddingState, bidderId: string, maxCents: number): BidOutcome {
  const minNext = minNextBidCents(state.startingBidCents, state.currentBidCents);
  const leader = state.leader;
  if (!leader || state.currentBidCents === null) {
    if (maxCents < state.startingBidCents) return { kind: 'too_low', minNextBidCents: minNext };
    const price = state.startingBidCents;
    return {
      kind: 'leading',
      state: { ...state, currentBidCents: price, leader: { bidderId, maxCents } },
      placed: [{ bidderId, amountCents: price, proxy: false }],
    };
  }
  if (leader.bidderId === bidderId) {
    // The leader raises their own maximum: the price stays where the others put it.
    if (maxCents < minNext || maxCents <= leader.maxCents)
      return { kind: 'too_low', minNextBidCents: minNext };
    return { kind: 'leading', state: { ...state, leader: { bidderId, maxCents } }, placed: [] };
  }
  if (maxCents < minNext) return { kind: 'too_low', minNextBidCents: minNext };
  if (maxCents > leader.maxCents) {
    // The challenger's maximum beats the leader's: one increment over it, within the challenger's.
    const price = Math.max(minNext, Math.min(maxCents, leader.maxCents + bidIncrementCents(leader.maxCents)));
    const placed: PlacedBid[] = [];
    if (leader.maxCents > state.currentBidCents) {
      placed.push({ bidderId: leader.bidderId, amountCents: leader.maxCents, proxy: true });
    }
    placed.push({ bidderId, amountCents: price, proxy: false });
    return {
      kind: 'leading',
      state: { ...state, currentBidCents: price, leader: { bidderId, maxCents } },
      placed,
    };
  }
  // The leader's maximum holds (ties go to the earlier one): the price rises to meet the challenge.
  const price = Math.min(leader.maxCents, maxCents + bidIncrementCents(maxCents));
  return {
    kind: 'outbid',
    state: { ...state, currentBidCents: price },
    placed: [
      { bidderId, amountCents: maxCents, proxy: false },
      { bidderId: leader.bidderId, amountCents: price, proxy: true },
    ],
  };
}

const cents = (field: string) =>
  z
    .number({ error: `${field} must be a whole number of cents` })
    .int({ error: `${field} must be a whole number of cents` })
    .positive({ error: `${field} must be more than zero` })
    .max(AUCTION_MAX_CENTS, { error: `${field} must be at most $100,000.00` });

/** POST /api/streams/:name/auctions */
export const startAuctionBodySchema = z.strictObject({
  productId: z.uuid({ error: 'productId must be a product id' }),
  startingBidCents: cents('startingBidCents'),
  durationSec: z
    .number({ error: 'durationSec must be a number of seconds' })
    .int({ error: 'durationSec must be a whole number of seconds' })
    .min(AUCTION_MIN_SECONDS, { error: `durationSec must be at least ${AUCTION_MIN_SECONDS}` })
    .max(AUCTION_MAX_SECONDS, { error: `durationSec must be at most ${AUCTION_MAX_SECONDS}` })
    .default(AUCTION_DEFAULT_SECONDS),
  suddenDeath: z.boolean({ error: 'suddenDeath must be true or false' }).default(false),
  extendSec: z
    .number({ error: 'extendSec must be a number of seconds' })
    .int({ error: 'extendSec must be a whole number of seconds' })
    .min(1, { error: 'extendSec must be at least 1' })
    .max(AUCTION_MAX_EXTEND_SECONDS, { error: `extendSec must be at most ${AUCTION_MAX_EXTEND_SECONDS}` })
    .default(AUCTION_DEFAULT_EXTEND_SECONDS),
});
export type StartAuctionBody = z.input<typeof startAuctionBodySchema>;

/** POST /api/auctions/:id/bids: a one-tap bid (`amountCents`) or a maximum (`maxBidCents`), not both. */
export const placeBidBodySchema = z
  .strictObject({
    amountCents: cents('amountCents').optional(),
    maxBidCents: cents('maxBidCents').optional(),
    /** Chosen by the client per tap: the same id twice is one bid (a retry after a lost answer). */
    clientBidId: z
      .string({ error: 'clientBidId is required' })
      .min(1, { error: 'clientBidId is required' })
      .max(64, { error: 'clientBidId must be at most 64 characters' })
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'clientBidId may hold letters, digits, - and _ only' }),
  })
  .refine((body) => (body.amountCents === undefined) !== (body.maxBidCents === undefined), {
    error: 'Give either amountCents or maxBidCents',
    path: ['amountCents'],
  });
export type PlaceBidBody = z.infer<typeof placeBidBodySchema>;

export const auctionStatusSchema = z.enum(['running', 'ended', 'cancelled']);
export type AuctionStatus = z.infer<typeof auctionStatusSchema>;

export const auctionBidSchema = z.object({
  handle: z.string(),
  amountCents: z.number().int(),
  at: z.string(),
});

export const auctionSchema = z.object({
  id: z.string(),
  roomName: z.string(),
  product: roomProductSchema,
  status: auctionStatusSchema,
  startingBidCents: z.number().int(),
  /** Null until the first bid. */
  currentBidCents: z.number().int().nullable(),
  minNextBidCents: z.number().int(),
  leader: z.object({ handle: z.string() }).nullable(),
  /** When bidding closes, by the server's clock (moves on an extension). */
  endsAt: z.string(),
  /** The server's clock when this was computed: count down from endsAt − serverNow. */
  serverNow: z.string(),
  suddenDeath: z.boolean(),
  extendSec: z.number().int(),
  bidCount: z.number().int(),
  /** The latest bids, newest first (at most AUCTION_HISTORY_LENGTH). */
  bids: z.array(auctionBidSchema),
  /**
   * Set once an auction with bids ended: the winner and the price; `orderId` once the winner's card
   * was charged. `payment` says where the charge is: 'pending' (being charged), 'paid', or
   * 'declined' (the winner has until `payBy` to pay with another card).
   */
  result: z
    .object({
      winner: z.object({ handle: z.string() }),
      priceCents: z.number().int(),
      orderId: z.string().nullable(),
      payment: z.enum(['pending', 'paid', 'declined']),
      payBy: z.string().nullable(),
    })
    .nullable(),
  /** Grows with every change: of two views of one auction keep the higher (events may cross instances). */
  version: z.number().int(),
});
export type Auction = z.infer<typeof auctionSchema>;

/** GET /api/streams/:name/auctions/current: the running auction, or the last one if it ended in the last minute. */
export const currentAuctionSchema = z.object({ auction: auctionSchema.nullable() });

/** 409 of a bid: refused (TOO_LOW, AUCTION_ENDED) or taken but not leading (OUTBID). */
export const bidRefusedSchema = z.object({
  code: z.enum(['OUTBID', 'TOO_LOW', 'AUCTION_ENDED']),
  message: z.string(),
  minNextBidCents: z.number().int(),
});

/** Room events of auctions, sent on /ws?room= beside the chat (see ServerMessage). */
export type AuctionEvent =
  | { type: 'auction_started'; auctionId: string; serverNow: string; auction: Auction }
  | {
      type: 'auction_bid';
      auctionId: string;
      serverNow: string;
      currentBidCents: number;
      leader: { handle: string } | null;
      endsAt: string;
      auction: Auction;
    }
  | { type: 'auction_extended'; auctionId: string; serverNow: string; endsAt: string; version: number }
  | {
      type: 'auction_ended';
      auctionId: string;
      serverNow: string;
      winner: { handle: string } | null;
      priceCents: number | null;
      auction: Auction;
    };

export const AUCTION_MESSAGES = {
  notLive: 'Auctions run while the stream is live.',
  running: 'Another auction is running in this room: wait for it to end.',
  notInLineup: 'Add the product to the lineup before auctioning it.',
  outOfStock: 'This product has no unit free to auction.',
  ownAuction: 'You cannot bid in your own auction.',
  blocked: 'The seller has blocked you from bidding in their auctions.',
  ended: 'This auction has ended.',
  tooLow: (min: string) => `Bids start at ${min} now.`,
  outbid: (min: string) => `Another bidder's maximum is higher. The next bid is ${min}.`,
  cancelHasBids: 'An auction with bids cannot be cancelled.',
  paymentMethodRequired:
    'Add a card and a shipping address before you bid: the winner is charged at the close.',
  soldTo: (handle: string, price: string) => `Sold to @${handle} for ${price}`,
} as const;

/** POST /api/auction-blocks: a seller blocks an account from bidding in their auctions. */
export const auctionBlockBodySchema = z.strictObject({ handle: handleField });
export const auctionBlockParamsSchema = z.object({ handle: handleField });
export const auctionBlockSchema = z.object({ handle: z.string(), blockedAt: z.string() });
export const auctionBlocksSchema = z.object({ blocks: z.array(auctionBlockSchema) });

/** One auction of a stream as its replay and its stats show it: a chapter with its result. */
export const streamAuctionSchema = z.object({
  id: z.string(),
  product: roomProductSchema,
  status: auctionStatusSchema,
  /** Seconds from the start of the stream (and of its recording). */
  startSec: z.number(),
  endSec: z.number().nullable(),
  startingBidCents: z.number().int(),
  /** The final price; null when nobody bid (or cancelled). */
  priceCents: z.number().int().nullable(),
  winner: z.object({ handle: z.string() }).nullable(),
  bidCount: z.number().int(),
  bidders: z.number().int(),
});
export type StreamAuction = z.infer<typeof streamAuctionSchema>;

/**
 * GET /api/streams/:name/auctions: every auction of the stream, oldest first (the replay's auction
 * chapters), and their totals for the seller's stats.
 */
export const streamAuctionsSchema = z.object({
  auctions: z.array(streamAuctionSchema),
  summary: z.object({
    auctions: z.number().int(),
    sold: z.number().int(),
    bids: z.number().int(),
    uniqueBidders: z.number().int(),
    /** Of the sold ones: what they started at, and what they sold for. */
    soldStartCents: z.number().int(),
    soldForCents: z.number().int(),
  }),
});
export type StreamAuctions = z.infer<typeof streamAuctionsSchema>;
