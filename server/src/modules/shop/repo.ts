import type { LiveOffer, ReplayChapters, RoomProduct, RoomShop } from '@streamshop/contract/shop.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

/** The shop's queries: a room's lineup, pins and offers, purchase lines, replay chapters. */

type Executor = Pick<Db, 'execute'>;

type ProductRow = {
  id: string;
  title: string;
  image_url: string | null;
  price_cents: number;
  stock: number;
  condition: string;
  fulfillment: RoomProduct['fulfillment'];
  shipping_cents: number;
};

export const toRoomProduct = (row: ProductRow): RoomProduct => ({
  id: row.id,
  title: row.title,
  imageUrl: row.image_url,
  priceCents: row.price_cents,
  stock: row.stock,
  condition: row.condition,
  fulfillment: row.fulfillment,
  shippingCents: row.shipping_cents,
});

/**
 * Units of an offer still to be had at its price: its quantity minus the units sold at it and
 * the checkouts holding one at it right now. A payment being given back ('refunding': an order
 * cancelled or refunded, or a charge that came too late for a unit) holds none: its unit is back
 * in stock (or never left it), so it is free at the offer's price again at once.
 */
export const OFFER_TAKEN = sql.raw(`(
  select count(*) from payments pay
  where pay.offer_id = o.id and (pay.status = 'succeeded'
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
    select p.id, p.title, p.image_url, p.price_cents, p.stock, p.condition, p.fulfillment, p.shipping_cents
    from stream_products sp join products p on p.id = sp.product_id
    where sp.stream_id = ${streamId}
    order by sp.position, sp.added_at`);
  const pinned = await db.execute<{ product_id: string }>(sql`
    select product_id from stream_pins where stream_id = ${streamId} and unpinned_at is null
    order by pinned_at, id`);
  const now = await db.execute<{ now: Date | string; seller_onboarded: boolean | null }>(sql`
    select now() as now, (
      select u.payouts_enabled_at is not null from streams s join users u on u.id = s.owner_id
      where s.id = ${streamId}) as seller_onboarded`);
  return {
    lineup: lineup.rows.map(toRoomProduct),
    pinned: pinned.rows.map((row) => row.product_id),
    offer: await activeOffer(db, streamId),
    sellerOnboarded: now.rows[0]?.seller_onboarded === true,
    serverNow: iso(now.rows[0]?.now ?? new Date()),
  };
}

// ---------------------------------------------------------------------------------------------
// Changes to a room's shop (each inside the transaction that locked the stream's row)

/** Locks the stream's row until the transaction ends: changes to one room's shop go one at a time. */
export async function lockStream(tx: Tx, streamId: string): Promise<void> {
  await tx.execute(sql`select id from streams where id = ${streamId} for update`);
}

export async function sellerOwnsProduct(tx: Tx, sellerId: string, productId: string): Promise<boolean> {
  const owned = await tx.execute(
    sql`select 1 from products where id = ${productId} and seller_id = ${sellerId}`,
  );
  return owned.rows.length > 0;
}

/** How many products the lineup holds, and the highest position. */
export async function lineupSize(tx: Tx, streamId: string): Promise<{ count: number; top: number | null }> {
  const size = await tx.execute<{ n: number; top: number | null }>(
    sql`select count(*) as n, max(position) as top from stream_products where stream_id = ${streamId}`,
  );
  const { n = 0, top = null } = size.rows[0] ?? {};
  return { count: Number(n), top: top === null ? null : Number(top) };
}

export async function insertIntoLineup(tx: Tx, streamId: string, productId: string, position: number) {
  await tx.execute(sql`
    insert into stream_products (stream_id, product_id, position)
    values (${streamId}, ${productId}, ${position})
    on conflict (stream_id, product_id) do nothing`);
}

export async function deleteFromLineup(tx: Tx, streamId: string, productId: string) {
  await tx.execute(
    sql`delete from stream_products where stream_id = ${streamId} and product_id = ${productId}`,
  );
}

export async function isInLineup(tx: Tx, streamId: string, productId: string): Promise<boolean> {
  const found = await tx.execute(
    sql`select 1 from stream_products where stream_id = ${streamId} and product_id = ${productId}`,
  );
  return found.rows.length > 0;
}

/** The products pinned now. */
export async function pinnedNow(tx: Tx, streamId: string): Promise<string[]> {
  const open = await tx.execute<{ product_id: string }>(
    sql`select product_id from stream_pins where stream_id = ${streamId} and unpinned_at is null`,
  );
  return open.rows.map((row) => row.product_id);
}

export async function insertPin(tx: Tx, streamId: string, productId: string) {
  await tx.execute(sql`insert into stream_pins (stream_id, product_id) values (${streamId}, ${productId})`);
}

export async function endPin(tx: Tx, streamId: string, productId: string) {
  await tx.execute(sql`
    update stream_pins set unpinned_at = now()
    where stream_id = ${streamId} and product_id = ${productId} and unpinned_at is null`);
}

/** Ends the running offers of the stream (of one product, when given). */
export async function endOffers(tx: Tx, streamId: string, productId?: string) {
  await tx.execute(sql`
    update stream_offers set ended_at = now()
    where stream_id = ${streamId} and ended_at is null and ends_at > now()
      ${productId ? sql`and product_id = ${productId}` : sql``}`);
}

export async function productPriceAndStock(
  tx: Tx,
  productId: string,
): Promise<{ price: number; stock: number }> {
  const product = await tx.execute<{ price_cents: number; stock: number }>(
    sql`select price_cents, stock from products where id = ${productId}`,
  );
  const { price_cents: price = 0, stock = 0 } = product.rows[0] ?? {};
  return { price, stock };
}

export async function hasRunningOffer(tx: Tx, streamId: string): Promise<boolean> {
  const running = await tx.execute(sql`
    select 1 from stream_offers where stream_id = ${streamId} and ended_at is null and ends_at > now()`);
  return running.rows.length > 0;
}

export async function insertOffer(
  tx: Tx,
  streamId: string,
  offer: { productId: string; priceCents: number; quantity: number; durationSec: number },
) {
  await tx.execute(sql`
    insert into stream_offers (stream_id, product_id, price_cents, quantity, ends_at)
    values (${streamId}, ${offer.productId}, ${offer.priceCents}, ${offer.quantity},
      now() + make_interval(secs => ${offer.durationSec}))`);
}

/** Whether the user is one of the seller's moderators. */
export async function isModeratorOf(db: Db, ownerId: string, userId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from seller_moderators where owner_id = ${ownerId} and user_id = ${userId}`,
  );
  return result.rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Replays

/** Every pin of the stream as a chapter of its replay: which product, from when to when. */
export async function replayChapters(db: Db, streamId: string): Promise<ReplayChapters['chapters']> {
  const result = await db.execute<
    ProductRow & {
      start_sec: number;
      end_sec: number | null;
    }
  >(sql`
    select p.id, p.title, p.image_url, p.price_cents, p.stock, p.condition, p.fulfillment, p.shipping_cents,
      greatest(0, extract(epoch from pin.pinned_at - coalesce(s.started_at, s.created_at)))::float8 as start_sec,
      case when coalesce(pin.unpinned_at, s.ended_at) is null then null
        else greatest(0, extract(epoch from coalesce(pin.unpinned_at, s.ended_at) - coalesce(s.started_at, s.created_at)))::float8
      end as end_sec
    from stream_pins pin
    join streams s on s.id = pin.stream_id
    join products p on p.id = pin.product_id
    where pin.stream_id = ${streamId}
    order by pin.pinned_at, pin.id`);
  const round = (n: number) => Math.round(n * 10) / 10;
  return result.rows.map((row) => ({
    product: toRoomProduct(row),
    startSec: round(Number(row.start_sec)),
    endSec: row.end_sec === null ? null : round(Number(row.end_sec)),
  }));
}

/** How many distinct products each replay features, for the storefront's VOD cards. */
export async function featuredProductCounts(db: Db, streamIds: string[]): Promise<Map<string, number>> {
  if (streamIds.length === 0) return new Map();
  const result = await db.execute<{ stream_id: string; n: number }>(sql`
    select stream_id, count(distinct product_id) as n from stream_pins
    where stream_id in ${streamIds} group by stream_id`);
  return new Map(result.rows.map((row) => [row.stream_id, Number(row.n)]));
}

// ---------------------------------------------------------------------------------------------
// Orders announced in rooms

export type OrderToAnnounce = {
  product_id: string | null;
  stock: number | null;
  version: number | null;
  title: string | null;
  buyer_handle: string;
  show_buyer: boolean | null;
  stream_id: string | null;
  during_live: boolean;
};

/** The order with its product's stock now, the buyer and the room it was bought in. */
export async function orderToAnnounce(db: Db, orderId: string): Promise<OrderToAnnounce | undefined> {
  const found = await db.execute<OrderToAnnounce>(sql`
    select o.product_id, p.stock, (extract(epoch from p.updated_at) * 1000000)::int8 as version, p.title, u.handle as buyer_handle, pay.show_buyer, o.stream_id, o.during_live
    from orders o
    join users u on u.id = o.buyer_id
    left join products p on p.id = o.product_id
    left join payments pay on pay.id = o.payment_id
    where o.id = ${orderId}`);
  return found.rows[0];
}

/** The product's stock now and its version (the time of its last change, in microseconds). */
export async function productStock(
  db: Db,
  productId: string,
): Promise<{ stock: number; version: number } | undefined> {
  const found = await db.execute<{ stock: number; version: number | string }>(sql`
    select stock, (extract(epoch from updated_at) * 1000000)::int8 as version
    from products where id = ${productId}`);
  const row = found.rows[0];
  return row ? { stock: row.stock, version: Number(row.version) } : undefined;
}

/** Every live room whose lineup has the product, with what is left of a running offer on it. */
export async function liveRoomsShowing(
  db: Db,
  productId: string,
): Promise<Array<{ room_name: string; stream_id: string; offer_remaining: number | null }>> {
  const rooms = await db.execute<{
    room_name: string;
    stream_id: string;
    offer_remaining: number | null;
  }>(sql`
    select s.room_name, s.id as stream_id,
      (select o.quantity - ${OFFER_TAKEN} from stream_offers o
        where o.stream_id = s.id and o.product_id = ${productId}
          and o.ended_at is null and o.starts_at <= now() and o.ends_at > now()
        order by o.starts_at desc limit 1) as offer_remaining
    from streams s join stream_products sp on sp.stream_id = s.id
    where sp.product_id = ${productId} and s.is_active`);
  return rooms.rows;
}

/** A purchase line in the stream's chat, while the stream is live. */
export async function insertPurchaseLine(
  db: Db,
  streamId: string,
  text: string,
): Promise<{ id: number; created_at: Date | string; room_name: string } | undefined> {
  const line = await db.execute<{ id: number; created_at: Date | string; room_name: string }>(sql`
    insert into chat_messages (stream_id, user_id, username, message, kind)
    select ${streamId}, null, '', ${text}, 'purchase'
    from streams where id = ${streamId} and is_active
    returning id, created_at, (select room_name from streams where id = ${streamId}) as room_name`);
  return line.rows[0];
}
