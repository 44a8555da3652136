import type { Auction } from '@streamshop/contract/auctions.ts';

/** An auction view for the room's unit tests: running, $10 starting bid, no bids, 20 s left at `serverNow`. */
export function testAuction(overrides: Partial<Auction> = {}): Auction {
  const serverNow = overrides.serverNow ?? new Date().toISOString();
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    roomName: 'crate-digging',
    product: {
      id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
      title: 'Blue Note LP',
      imageUrl: null,
      priceCents: 2500,
      stock: 1,
      condition: 'used',
      fulfillment: 'digital',
      shippingCents: 0,
    },
    status: 'running',
    startingBidCents: 1000,
    currentBidCents: null,
    minNextBidCents: 1000,
    leader: null,
    endsAt: new Date(Date.parse(serverNow) + 20_000).toISOString(),
    serverNow,
    suddenDeath: false,
    extendSec: 10,
    bidCount: 0,
    bids: [],
    result: null,
    version: 1,
    ...overrides,
  };
}

/** The same auction after a bid of `cents` by `handle` (one version up). */
export function withBid(auction: Auction, handle: string, cents: number, minNext = cents + 100): Auction {
  return {
    ...auction,
    currentBidCents: cents,
    minNextBidCents: minNext,
    leader: { handle },
    bidCount: auction.bidCount + 1,
    bids: [{ handle, amountCents: cents, at: new Date().toISOString() }, ...auction.bids],
    version: auction.version + 1,
  };
}
