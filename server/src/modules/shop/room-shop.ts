import type { LiveOffer, RoomProduct, RoomShop } from '@streamshop/contract/shop.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

type Executor = Pick<Db, 'execute'>;

type ProductRow = {
  id: string;
  title: string;
  image_url: string | null;
  price_cents: number;
  stock: number;
  condition: string;
};

export const toRoomProduct = (row: ProductRow): RoomProduct => ({
  id: row.id,
  title: row.title,
  imageUrl: row.image_url,
  priceCents: row.price_cents,
  stock: row.stock,
  condition: row.condition,
});

/**
 * Units of an offer still to be had at its price: its quantity minus the units sold at it and
 * the checkouts holding one at it right now.
 */
export const OFFER_TAKEN = sql.raw(`(
  select count(*) from payments pay
  where pay.offer_id = o.id and (pay.status in ('succeeded', 'refunding')
    or (pay.status = 'pending' and pay.reserved_until > now())))`);

type OfferRow = {
  id: string;
  product_id: string;
  price_cents: number;
  quantity: number;
  taken: number;
  starts_at: Date | string;
  ends_at: Date | string;
};

const toOffer = (row: OfferRow): LiveOffer => ({
  id: row.id,
  productId: row.product_id,
  priceCents: row.price_cents,
  quantity: row.quantity,
  remaining: Math.max(0, row.quantity - Number(row.taken)),
  startsAt: iso(row.starts_at),
  endsAt: iso(row.ends_at),
});

/** The offer running now in the stream, if any (inside its window and not ended early). */
export async function activeOffer(
  db: Executor,
  streamId: string,
  productId?: string,
): Promise<LiveOffer | null> {
  const result = await db.execute<OfferRow>(sql`
    select o.id, o.product_id, o.price_cents, o.quantity, o.starts_at, o.ends_at, ${OFFER_TAKEN} as taken
    from stream_offers o
    where o.stream_id = ${streamId} and o.ended_at is null and o.starts_at <= now() and o.ends_at > now()
      ${productId ? sql`and o.product_id = ${productId}` : sql``}
    order by o.starts_at desc limit 1`);
  const row = result.rows[0];
  return row ? toOffer(row) : null;
}

/** What a room shows for shopping: the lineup, the pinned products and the running offer. */
export async function loadRoomShop(db: Executor, streamId: string): Promise<RoomShop> {
  const lineup = await db.execute<ProductRow>(sql`
    select p.id, p.title, p.image_url, p.price_cents, p.stock, p.condition
    from stream_products sp join products p on p.id = sp.product_id
    where sp.stream_id = ${streamId}
    order by sp.position, sp.added_at`);
  const pinned = await db.execute<{ product_id: string }>(sql`
    select product_id from stream_pins where stream_id = ${streamId} and unpinned_at is null
    order by pinned_at, id`);
  const now = await db.execute<{ now: Date | string }>(sql`select now() as now`);
  return {
    lineup: lineup.rows.map(toRoomProduct),
    pinned: pinned.rows.map((row) => row.product_id),
    offer: await activeOffer(db, streamId),
    serverNow: iso(now.rows[0]?.now ?? new Date()),
  };
}
