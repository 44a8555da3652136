import { type Auction, minNextBidCents } from '@streamshop/contract/auctions.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { iso } from '../../db/time.ts';
import type { BidRow, ViewRow } from './repo.ts';

/** The auctioned product as the room shows it, from the `p_` columns of an auction's row. */
export function auctionProduct(
  row: Pick<ViewRow, 'product_id' | (`p_${string}` & keyof ViewRow)>,
): RoomProduct {
  return {
    id: row.product_id,
    title: row.p_title,
    imageUrl: row.p_image_url,
    priceCents: row.p_price_cents,
    stock: row.p_stock,
    condition: row.p_condition,
    fulfillment: row.p_fulfillment,
    shippingCents: row.p_shipping_cents,
  };
}

/** The auction as every client sees it: never the leader's maximum, never an account id. */
export function toAuction(row: ViewRow, bids: BidRow[]): Auction {
  const sold = row.status === 'ended' && row.winner_handle !== null && row.price_cents !== null;
  return {
    id: row.id,
    roomName: row.room_name,
    product: auctionProduct(row),
    status: row.status,
    startingBidCents: row.starting_bid_cents,
    currentBidCents: row.current_bid_cents,
    minNextBidCents: minNextBidCents(row.starting_bid_cents, row.current_bid_cents),
    leader: row.leader_handle ? { handle: row.leader_handle } : null,
    endsAt: iso(row.ends_at),
    serverNow: iso(row.now),
    suddenDeath: row.sudden_death,
    extendSec: row.extend_sec,
    bidCount: row.bid_count,
    bids: bids.map((bid) => ({ handle: bid.handle, amountCents: bid.amount_cents, at: iso(bid.created_at) })),
    result:
      sold && row.winner_handle && row.price_cents !== null
        ? {
            winner: { handle: row.winner_handle },
            priceCents: row.price_cents,
            orderId: row.order_id,
            payment: row.payment_state ?? 'pending',
            payBy: row.payment_state === 'declined' && row.pay_by ? iso(row.pay_by) : null,
          }
        : null,
    version: row.version,
  };
}
