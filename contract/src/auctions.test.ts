import { describe, expect, it } from 'vitest';
import {
  applyBid,
  type BiddingState,
  bidIncrementCents,
  minNextBidCents,
  placeBidBodySchema,
  startAuctionBodySchema,
} from './auctions.ts';

const fresh: BiddingState = { startingBidCents: 1000, currentBidCents: null, leader: null };

/** Applies bids in order as the server does (under the row lock), keeping only what was taken. */
function run(bids: Array<[string, number]>, from: BiddingState = fresh) {
  let state = from;
  const outcomes: string[] = [];
  for (const [bidder, max] of bids) {
    const outcome = applyBid(state, bidder, max);
    outcomes.push(outcome.kind);
    if (outcome.kind !== 'too_low') state = outcome.state;
  }
  return { state, outcomes };
}

describe('the increment table', () => {
  it.each([
    [0, 50],
    [999, 50],
    [1000, 100],
    [4999, 100],
    [5000, 200],
    [9999, 200],
    [10_000, 500],
    [49_999, 500],
    [50_000, 1000],
    [99_999, 1000],
    [100_000, 2500],
    [5_000_000, 2500],
  ])('at %i cents bids go up by %i', (price, increment) => {
    expect(bidIncrementCents(price)).toBe(increment);
  });

  it('starts at the starting bid, then one increment over the price', () => {
    expect(minNextBidCents(1000, null)).toBe(1000);
    expect(minNextBidCents(1000, 1000)).toBe(1100);
    expect(minNextBidCents(1000, 950)).toBe(1000);
  });
});

describe('applyBid', () => {
  it('takes the first bid at the starting price, whatever the maximum', () => {
    const { state, outcomes } = run([['ann', 5000]]);
    expect(outcomes).toEqual(['leading']);
    expect(state.currentBidCents).toBe(1000);
    expect(state.leader).toEqual({ bidderId: 'ann', maxCents: 5000 });
  });

  it('refuses a bid under the next bid and changes nothing', () => {
    expect(applyBid(fresh, 'ann', 999)).toEqual({ kind: 'too_low', minNextBidCents: 1000 });
    const { state } = run([['ann', 1000]]);
    expect(applyBid(state, 'bob', 1099)).toEqual({ kind: 'too_low', minNextBidCents: 1100 });
  });

  it('raises the price one increment over the loser’s maximum, within the winner’s', () => {
    const { state, outcomes } = run([
      ['ann', 1000],
      ['bob', 3000],
    ]);
    expect(outcomes).toEqual(['leading', 'leading']);
    // ann's maximum was 1000: bob leads at 1000 + 100.
    expect(state.currentBidCents).toBe(1100);
    expect(state.leader?.bidderId).toBe('bob');
  });

  it('bids for the leader up to their maximum: a lower challenge is outbid at once', () => {
    const first = run([['ann', 3000]]).state;
    const outcome = applyBid(first, 'bob', 2000);
    expect(outcome.kind).toBe('outbid');
    if (outcome.kind === 'too_low') throw new Error('refused');
    expect(outcome.state.leader?.bidderId).toBe('ann');
    expect(outcome.state.currentBidCents).toBe(2100);
    expect(outcome.placed).toEqual([
      { bidderId: 'bob', amountCents: 2000, proxy: false },
      { bidderId: 'ann', amountCents: 2100, proxy: true },
    ]);
  });

  it('gives a tie to the earlier maximum, at that maximum', () => {
    const { state, outcomes } = run([
      ['ann', 2500],
      ['bob', 2500],
    ]);
    expect(outcomes).toEqual(['leading', 'outbid']);
    expect(state.leader?.bidderId).toBe('ann');
    expect(state.currentBidCents).toBe(2500);
  });

  it('never charges the leader more than their own maximum', () => {
    const { state } = run([
      ['ann', 2000],
      ['bob', 2050],
    ]);
    // One increment over 2000 would be 2100; bob's maximum is 2050.
    expect(state.leader?.bidderId).toBe('bob');
    expect(state.currentBidCents).toBe(2050);
  });

  it('records the beaten maximum as a proxy bid before the new leader’s', () => {
    const first = run([['ann', 4000]]).state;
    const outcome = applyBid(first, 'bob', 9000);
    if (outcome.kind === 'too_low') throw new Error('refused');
    expect(outcome.placed).toEqual([
      { bidderId: 'ann', amountCents: 4000, proxy: true },
      { bidderId: 'bob', amountCents: 4100, proxy: false },
    ]);
  });

  it('lets the leader raise their maximum without raising the price, and not lower it', () => {
    const { state } = run([
      ['ann', 1500],
      ['bob', 1100],
    ]);
    expect(state.currentBidCents).toBe(1200);
    const raised = applyBid(state, 'ann', 6000);
    expect(raised.kind).toBe('leading');
    if (raised.kind === 'too_low') throw new Error('refused');
    expect(raised.state.currentBidCents).toBe(1200);
    expect(raised.state.leader).toEqual({ bidderId: 'ann', maxCents: 6000 });
    expect(raised.placed).toEqual([]);
    expect(applyBid(raised.state, 'ann', 5000).kind).toBe('too_low');
  });

  it('climbs the bands: one-tap bids at the next amount each time', () => {
    let state = { ...fresh, startingBidCents: 900 };
    const prices: number[] = [];
    for (let i = 0; i < 6; i++) {
      const bidder = i % 2 === 0 ? 'ann' : 'bob';
      const outcome = applyBid(state, bidder, minNextBidCents(state.startingBidCents, state.currentBidCents));
      if (outcome.kind !== 'leading') throw new Error(`bid ${i} was ${outcome.kind}`);
      state = outcome.state;
      prices.push(state.currentBidCents ?? 0);
    }
    expect(prices).toEqual([900, 950, 1000, 1100, 1200, 1300]);
  });
});

describe('the bodies', () => {
  it('fills the defaults of a start and refuses durations outside 5–300 s', () => {
    const body = startAuctionBodySchema.parse({
      productId: '00000000-0000-4000-8000-000000000000',
      startingBidCents: 100,
    });
    expect(body).toMatchObject({ durationSec: 20, suddenDeath: false, extendSec: 10 });
    for (const durationSec of [4, 301, 2.5]) {
      const parsed = startAuctionBodySchema.safeParse({ ...body, durationSec });
      expect(parsed.success).toBe(false);
    }
  });

  it('takes a one-tap amount or a maximum, never both or neither', () => {
    expect(placeBidBodySchema.safeParse({ amountCents: 100, clientBidId: 'a1' }).success).toBe(true);
    expect(placeBidBodySchema.safeParse({ maxBidCents: 100, clientBidId: 'a1' }).success).toBe(true);
    expect(
      placeBidBodySchema.safeParse({ amountCents: 100, maxBidCents: 200, clientBidId: 'a' }).success,
    ).toBe(false);
    expect(placeBidBodySchema.safeParse({ clientBidId: 'a1' }).success).toBe(false);
    expect(placeBidBodySchema.safeParse({ amountCents: 100, clientBidId: 'no spaces' }).success).toBe(false);
  });
});
