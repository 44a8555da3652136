import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** Where a gift ships, as an order keeps it (null for digital and pickup products). */
export interface GiftAddress {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string;
  country: string;
}

/**
 * A $0 order (a giveaway's prize): no payment; the seller ships it as any order. The caller took
 * the unit from stock in the same transaction and then calls `orderPlaced` (its ledger line and
 * both emails). Answers the order's id.
 */
export async function insertGiftOrder(
  tx: Tx,
  gift: {
    buyerId: string;
    sellerId: string;
    productId: string;
    streamId: string;
    shippingAddress: GiftAddress | null;
  },
): Promise<string> {
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into orders (buyer_id, seller_id, product_id, amount_cents, stream_id, during_live, shipping_address)
    values (${gift.buyerId}, ${gift.sellerId}, ${gift.productId}, 0, ${gift.streamId}, true,
      ${gift.shippingAddress ? sql`${JSON.stringify(gift.shippingAddress)}::jsonb` : null})
    returning id`);
  const id = inserted.rows[0]?.id;
  if (!id) throw new Error('the gift order was not written');
  return id;
}

/** Whether the buyer has an order (not cancelled or refunded) bought from the stream. */
export async function boughtFromStream(
  tx: Pick<Tx, 'execute'>,
  buyerId: string,
  streamId: string,
): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from orders where buyer_id = ${buyerId} and stream_id = ${streamId}
      and status in ('paid', 'shipped', 'delivered') and amount_cents > 0 limit 1`);
  return found.rows.length > 0;
}
