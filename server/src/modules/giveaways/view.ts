import { drawOrder, type Giveaway } from '@streamshop/contract/giveaways.ts';
import { iso } from '../../db/time.ts';
import type { GiveawayRow } from './repo.ts';

/**
 * A giveaway as the API answers it: the seed and the entrants only once drawn; the winner's
 * order only to the winner and the seller.
 */
export function toGiveaway(
  row: GiveawayRow,
  viewer: { id: string | undefined; entered: boolean },
  entrants: string[] | null,
): Giveaway {
  const drawn = row.status === 'drawn';
  const mayKnowOrder =
    viewer.id !== undefined && (viewer.id === row.winner_id || viewer.id === row.seller_id);
  return {
    id: row.id,
    roomName: row.room_name,
    product: {
      id: row.product_id,
      title: row.p_title,
      imageUrl: row.p_image_url,
      priceCents: row.p_price_cents,
      stock: row.p_stock,
      condition: row.p_condition,
      fulfillment: row.p_fulfillment,
      shippingCents: row.p_shipping_cents,
    },
    audience: row.audience,
    status: row.status,
    startedAt: iso(row.started_at),
    endsAt: iso(row.ends_at),
    serverNow: iso(row.server_now),
    seedHash: row.seed_hash,
    seed: drawn ? row.seed : null,
    entryCount: Number(row.entry_count),
    entrants: drawn && entrants ? drawOrder(entrants) : null,
    winner: drawn && row.winner_handle ? { handle: row.winner_handle } : null,
    orderId: drawn && mayKnowOrder ? row.order_id : null,
    entered: viewer.entered,
  };
}
