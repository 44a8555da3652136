/**
 * The auction bench's bidding (this process): bursts of bidders at once, each a maximum bid or a
 * one-tap bid at the next bid the room shows, then bids spread over the auction's last second,
 * scheduled off endsAt − serverNow. Every request's send time, answer and latency is kept.
 */
import { randomUUID } from 'node:crypto';
import { bidIncrementCents } from '../../contract/src/auctions.ts';
import { sleep, wallMs } from '../support.ts';
import type { Options } from './options.ts';
import type { Bidder } from './setup.ts';

export interface BidResult {
  bidder: number;
  instance: 0 | 1;
  phase: 'burst' | 'final';
  /** The burst it was sent in (all of a burst at once); -1 in the final second. */
  wave: number;
  kind: 'max' | 'tap';
  clientBidId: string;
  cents: number;
  /** Wall clock when the request was sent, and how late that was against its schedule (ms). */
  sentAt: number;
  slipMs: number;
  /** Sent → answered (ms). */
  ms: number;
  /** 0: no answer. */
  status: number;
  /** The 409's code (OUTBID, TOO_LOW, AUCTION_ENDED), or the error's. */
  code?: string;
  /** The auction's version a 201 answered with (the auction_bid the room got for it). */
  version?: number;
}

/** What the bidders know of the auction: the next bid the room shows. */
export interface Market {
  minNext: number;
  version: number;
}

/** Taken: the bid is on the auction's record (201 leading, 409 OUTBID). */
export const isTaken = (r: BidResult) => r.status === 201 || (r.status === 409 && r.code === 'OUTBID');
/** Refused by the auction's rules (nothing changed). */
export const isRefused = (r: BidResult) =>
  r.status === 409 && (r.code === 'TOO_LOW' || r.code === 'AUCTION_ENDED');

export function learn(market: Market, seen: { minNextBidCents?: number; version?: number }): void {
  if (typeof seen.minNextBidCents === 'number' && seen.minNextBidCents > market.minNext)
    market.minNext = seen.minNextBidCents;
  if (typeof seen.version === 'number' && seen.version > market.version) market.version = seen.version;
}

async function placeBid(
  bidders: Bidder[],
  index: number,
  auctionId: string,
  market: Market,
  phase: BidResult['phase'],
  wave: number,
  plannedAt: number,
): Promise<BidResult> {
  const bidder = bidders[index] as Bidder;
  const kind = Math.random() < 0.5 ? 'max' : 'tap';
  const min = market.minNext;
  // A maximum a few increments above the next bid; one tap is the next bid itself.
  const cents = kind === 'tap' ? min : min + bidIncrementCents(min) * (1 + Math.floor(Math.random() * 8));
  const clientBidId = randomUUID();
  const sentAt = wallMs();
  const slipMs = performance.now() - plannedAt;
  const reply = await bidder.api.request('POST', `/api/auctions/${auctionId}/bids`, {
    cookie: bidder.cookie,
    forwardedFor: bidder.address,
    body: kind === 'tap' ? { amountCents: cents, clientBidId } : { maxBidCents: cents, clientBidId },
  });
  learn(market, reply.body ?? {});
  const code = reply.status === 201 ? undefined : (reply.body?.code ?? reply.error);
  return {
    bidder: index,
    instance: bidder.instance,
    phase,
    wave,
    kind,
    clientBidId,
    cents,
    sentAt,
    slipMs,
    ms: reply.ms,
    status: reply.status,
    ...(code ? { code: String(code) } : {}),
    ...(reply.status === 201 && typeof reply.body?.version === 'number'
      ? { version: reply.body.version }
      : {}),
  };
}

/**
 * Bursts of `options.burst` bidders (in turn) every `options.burstEveryMs` from now until 1.3 s
 * before the end, then `options.finalBids` bids spread evenly over [end − 1000 ms, end − 50 ms]
 * (`endsAtLocal` on performance.now()'s clock). Answers once every request was answered.
 */
export async function runBidding(
  bidders: Bidder[],
  auctionId: string,
  endsAtLocal: number,
  options: Options,
  market: Market,
  signal: AbortSignal,
): Promise<BidResult[]> {
  const schedule: Array<{ at: number; phase: BidResult['phase']; wave: number }> = [];
  const first = performance.now() + 100;
  for (let at = first, wave = 0; at < endsAtLocal - 1300; at += options.burstEveryMs, wave++)
    for (let i = 0; i < options.burst; i++) schedule.push({ at, phase: 'burst', wave });
  const finalSpan = 950;
  for (let i = 0; i < options.finalBids; i++)
    schedule.push({ at: endsAtLocal - 1000 + (i * finalSpan) / options.finalBids, phase: 'final', wave: -1 });

  const pending: Array<Promise<BidResult>> = [];
  let turn = 0;
  for (const { at, phase, wave } of schedule) {
    signal.throwIfAborted();
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(placeBid(bidders, turn % bidders.length, auctionId, market, phase, wave, at));
    turn += 1;
  }
  return Promise.all(pending);
}
