/**
 * The auction bench's invariants, read from the database once the auction is settled: one winner,
 * one order and one charge; the price and winner are what the rules give from the taken requests
 * in version order; every bid answered as taken is on the record; no bid taken at or after the end.
 */
import { applyBid, type BiddingState } from '../../contract/src/auctions.ts';
import type { Pair } from '../../server/src/test/support.ts';
import { type BidResult, isTaken } from './bidders.ts';

export interface Invariants {
  status: string;
  paymentState: string | null;
  winnerHandle: string | null;
  priceCents: number | null;
  /** What the rules give from the taken requests in version order. */
  replayedPriceCents: number | null;
  replayedLeaderHandle: string | null;
  /** Taken requests whose replay was refused, or gave another outcome than the one recorded. */
  replayMismatches: number;
  takenRequests: number;
  /** Answered as taken (201, 409 OUTBID) but not in auction_bid_requests. */
  takenAnswersMissing: number;
  /** In auction_bid_requests but not answered as taken (their answer was lost, or an error). */
  recordedNotAnsweredTaken: number;
  ordersForPayment: number;
  chargesForPayment: number;
  ordersForProduct: number;
  /** auction_bids rows created at or after the auction's final ends_at, and the last bid's margin. */
  bidsAtOrAfterEnd: number;
  /** Those rows: their place in the auction (seq of bidCount), amount, and how long after the end. */
  lateBids: Array<{ seq: number; of: number; amountCents: number; proxy: boolean; afterEndMs: number }>;
  lastBidBeforeEndMs: number;
  /** auction_bids rows created in the auction's last second. */
  bidRowsInFinalSecond: number;
  /** Each check, true when it held. */
  checks: Record<string, boolean>;
}

export async function readInvariants(
  pair: Pair,
  auctionId: string,
  productId: string,
  results: BidResult[],
): Promise<Invariants> {
  const q = async <R>(text: string, values: unknown[]) => (await pair.pool.query(text, values)).rows as R[];
  const [auction] = await q<{
    status: string;
    payment_state: string | null;
    winner_handle: string | null;
    price_cents: number | null;
    payment_id: string | null;
    starting_bid_cents: number;
  }>(
    `select a.status, a.payment_state, w.handle as winner_handle, a.price_cents, a.payment_id,
       a.starting_bid_cents
     from auctions a left join users w on w.id = a.winner_id where a.id = $1`,
    [auctionId],
  );
  if (!auction) throw new Error('the auction is not in the database');

  const taken = await q<{
    bidder_id: string;
    handle: string;
    client_bid_id: string;
    max_cents: number;
    outcome: string;
  }>(
    `select r.bidder_id, u.handle, r.client_bid_id, r.max_cents, r.outcome from auction_bid_requests r
     join users u on u.id = r.bidder_id where r.auction_id = $1 order by r.version`,
    [auctionId],
  );
  let state: BiddingState = {
    startingBidCents: auction.starting_bid_cents,
    currentBidCents: null,
    leader: null,
  };
  let replayMismatches = 0;
  const handleOf = new Map<string, string>();
  for (const row of taken) {
    handleOf.set(row.bidder_id, row.handle);
    const outcome = applyBid(state, row.bidder_id, row.max_cents);
    if (outcome.kind === 'too_low' || outcome.kind !== row.outcome) replayMismatches += 1;
    if (outcome.kind !== 'too_low') state = outcome.state;
  }
  const recorded = new Set(taken.map((r) => r.client_bid_id));
  const answeredTaken = new Set(results.filter(isTaken).map((r) => r.clientBidId));
  const takenAnswersMissing = [...answeredTaken].filter((id) => !recorded.has(id)).length;
  const recordedNotAnsweredTaken = [...recorded].filter((id) => !answeredTaken.has(id)).length;

  const count = async (text: string, values: unknown[]) =>
    Number((await q<{ n: string | number }>(text, values))[0]?.n ?? 0);
  const paymentId = auction.payment_id ?? '00000000-0000-0000-0000-000000000000';
  const ordersForPayment = await count('select count(*) as n from orders where payment_id = $1', [paymentId]);
  const chargesForPayment = await count(
    `select count(*) as n from local_payment_intents where payment_id = $1 and status = 'succeeded'`,
    [auction.payment_id ?? ''],
  );
  const ordersForProduct = await count('select count(*) as n from orders where product_id = $1', [productId]);
  const [ends] = await q<{
    after: string | number;
    margin_ms: string | number | null;
    final_second: string | number;
  }>(
    `select count(*) filter (where b.created_at >= a.ends_at) as after,
       extract(epoch from a.ends_at - max(b.created_at)) * 1000 as margin_ms,
       count(*) filter (where b.created_at >= a.ends_at - interval '1 second' and b.created_at < a.ends_at)
         as final_second
     from auctions a join auction_bids b on b.auction_id = a.id where a.id = $1 group by a.ends_at`,
    [auctionId],
  );
  const bidsAtOrAfterEnd = Number(ends?.after ?? 0);
  const lateBids = (
    await q<{ seq: number; of: number; amount_cents: number; proxy: boolean; after_ms: string | number }>(
      `select b.seq, a.bid_count as of, b.amount_cents, b.proxy,
         extract(epoch from b.created_at - a.ends_at) * 1000 as after_ms
       from auctions a join auction_bids b on b.auction_id = a.id
       where a.id = $1 and b.created_at >= a.ends_at order by b.seq`,
      [auctionId],
    )
  ).map((r) => ({
    seq: r.seq,
    of: r.of,
    amountCents: r.amount_cents,
    proxy: r.proxy,
    afterEndMs: Number(r.after_ms),
  }));
  const replayedLeaderHandle = state.leader ? (handleOf.get(state.leader.bidderId) ?? null) : null;
  const checks = {
    'one winner, the replay leader':
      auction.winner_handle !== null && auction.winner_handle === replayedLeaderHandle,
    'price = the replay of the taken requests': auction.price_cents === state.currentBidCents,
    'every taken request replays as recorded': replayMismatches === 0,
    'every taken answer is on the record': takenAnswersMissing === 0,
    'the winner charged: paid': auction.status === 'ended' && auction.payment_state === 'paid',
    'one order for the payment (and the product)': ordersForPayment === 1 && ordersForProduct === 1,
    'one succeeded charge for the payment': chargesForPayment === 1,
    'no bid taken at or after endsAt': bidsAtOrAfterEnd === 0,
  };
  return {
    status: auction.status,
    paymentState: auction.payment_state,
    winnerHandle: auction.winner_handle,
    priceCents: auction.price_cents,
    replayedPriceCents: state.currentBidCents,
    replayedLeaderHandle,
    replayMismatches,
    takenRequests: taken.length,
    takenAnswersMissing,
    recordedNotAnsweredTaken,
    ordersForPayment,
    chargesForPayment,
    ordersForProduct,
    bidsAtOrAfterEnd,
    lateBids,
    lastBidBeforeEndMs: Number(ends?.margin_ms ?? Number.NaN),
    bidRowsInFinalSecond: Number(ends?.final_second ?? 0),
    checks,
  };
}
