import type { StreamAuctions } from '@streamshop/contract/auctions.ts';
import type { Db } from '../../db/client.ts';
import { auctionsOfStream, uniqueBiddersOfStream } from './repo.ts';
import { auctionProduct } from './view.ts';

/** A stream's auctions as its replay (chapters with results) and its seller's stats show them. */
export async function streamAuctions(db: Db, streamId: string): Promise<StreamAuctions> {
  const rows = await auctionsOfStream(db, streamId);
  const auctions = rows.map((row) => ({
    id: row.id,
    product: auctionProduct(row),
    status: row.status,
    startSec: Math.round(Number(row.start_sec)),
    endSec: row.end_sec === null ? null : Math.round(Number(row.end_sec)),
    startingBidCents: row.starting_bid_cents,
    priceCents: row.winner_handle ? row.price_cents : null,
    winner: row.winner_handle ? { handle: row.winner_handle } : null,
    bidCount: row.bid_count,
    bidders: Number(row.bidders),
  }));
  const sold = auctions.filter((auction) => auction.winner && auction.priceCents !== null);
  return {
    auctions,
    summary: {
      auctions: auctions.length,
      sold: sold.length,
      bids: auctions.reduce((sum, auction) => sum + auction.bidCount, 0),
      uniqueBidders: await uniqueBiddersOfStream(db, streamId),
      soldStartCents: sold.reduce((sum, auction) => sum + auction.startingBidCents, 0),
      soldForCents: sold.reduce((sum, auction) => sum + (auction.priceCents ?? 0), 0),
    },
  };
}
