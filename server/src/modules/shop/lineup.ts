import { formatCents } from '@streamshop/contract/money.ts';
import {
  MAX_LINEUP,
  MAX_PINNED,
  OFFER_FLOOR_PERCENT,
  offerFloorCents,
  type RoomShop,
  type StartOfferBody,
} from '@streamshop/contract/shop.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import type { StreamRecord } from '../streams/service.ts';
import { loadRoomShop } from './room-shop.ts';

/**
 * Changes to a room's shop. Each runs in a transaction that first locks the stream row, so two
 * moderators pinning at once cannot exceed the pin limit; then every viewer gets the new state.
 */
async function change(db: Db, hub: RoomHub, stream: StreamRecord, apply: (tx: Tx) => Promise<void>) {
  const shop = await db.transaction(async (tx) => {
    await tx.execute(sql`select id from streams where id = ${stream.id} for update`);
    await apply(tx);
    return loadRoomShop(tx, stream.id);
  });
  await hub.publish(stream.room_name, { type: 'shop', shop });
  return shop;
}

function assertNotEnded(stream: StreamRecord) {
  if (stream.ended_at) throw conflict('CONFLICT', 'This stream has ended.');
}

export function addToLineup(
  db: Db,
  hub: RoomHub,
  stream: StreamRecord,
  productId: string,
): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    const owned = await tx.execute(
      sql`select 1 from products where id = ${productId} and seller_id = ${stream.owner_id}`,
    );
    if (owned.rows.length === 0) throw notFound('No such product in this seller’s catalogue');
    const size = await tx.execute<{ n: number; top: number | null }>(
      sql`select count(*) as n, max(position) as top from stream_products where stream_id = ${stream.id}`,
    );
    const { n = 0, top = null } = size.rows[0] ?? {};
    if (Number(n) >= MAX_LINEUP) throw conflict('CONFLICT', `A lineup holds at most ${MAX_LINEUP} products.`);
    await tx.execute(sql`
      insert into stream_products (stream_id, product_id, position)
      values (${stream.id}, ${productId}, ${(top ?? -1) + 1})
      on conflict (stream_id, product_id) do nothing`);
  });
}

export function removeFromLineup(
  db: Db,
  hub: RoomHub,
  stream: StreamRecord,
  productId: string,
): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    await unpinIn(tx, stream.id, productId);
    await endOffersOf(tx, stream.id, productId);
    await tx.execute(
      sql`delete from stream_products where stream_id = ${stream.id} and product_id = ${productId}`,
    );
  });
}

export function pin(db: Db, hub: RoomHub, stream: StreamRecord, productId: string): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    const inLineup = await tx.execute(
      sql`select 1 from stream_products where stream_id = ${stream.id} and product_id = ${productId}`,
    );
    if (inLineup.rows.length === 0) throw badRequest('Add the product to the lineup before pinning it.');
    const open = await tx.execute<{ product_id: string }>(
      sql`select product_id from stream_pins where stream_id = ${stream.id} and unpinned_at is null`,
    );
    if (open.rows.some((row) => row.product_id === productId)) return;
    if (open.rows.length >= MAX_PINNED) {
      throw conflict('CONFLICT', `At most ${MAX_PINNED} products can be pinned at once. Unpin one first.`);
    }
    await tx.execute(
      sql`insert into stream_pins (stream_id, product_id) values (${stream.id}, ${productId})`,
    );
  });
}

async function unpinIn(tx: Tx, streamId: string, productId: string) {
  await tx.execute(sql`
    update stream_pins set unpinned_at = now()
    where stream_id = ${streamId} and product_id = ${productId} and unpinned_at is null`);
}

async function endOffersOf(tx: Tx, streamId: string, productId?: string) {
  await tx.execute(sql`
    update stream_offers set ended_at = now()
    where stream_id = ${streamId} and ended_at is null and ends_at > now()
      ${productId ? sql`and product_id = ${productId}` : sql``}`);
}

/** Unpinning a product also ends its running offer: an offer lives on a pinned product. */
export function unpin(db: Db, hub: RoomHub, stream: StreamRecord, productId: string): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    await unpinIn(tx, stream.id, productId);
    await endOffersOf(tx, stream.id, productId);
  });
}

/**
 * A time-limited price on a pinned product, while the stream is live. The window and the number of
 * units are the server's: a checkout gets the price only if it opens inside the window with a unit left.
 */
export function startOffer(
  db: Db,
  hub: RoomHub,
  stream: StreamRecord,
  body: StartOfferBody,
): Promise<RoomShop> {
  if (!stream.is_active || stream.ended_at)
    throw conflict('CONFLICT', 'Offers run only while the stream is live.');
  return change(db, hub, stream, async (tx) => {
    const pinned = await tx.execute(sql`
      select 1 from stream_pins
      where stream_id = ${stream.id} and product_id = ${body.productId} and unpinned_at is null`);
    if (pinned.rows.length === 0)
      throw badRequest('Pin the product before starting an offer on it.', { productId: 'is not pinned' });
    const product = await tx.execute<{ price_cents: number; stock: number }>(
      sql`select price_cents, stock from products where id = ${body.productId}`,
    );
    const { price_cents: price = 0, stock = 0 } = product.rows[0] ?? {};
    if (body.priceCents >= price) {
      throw badRequest('An offer must be cheaper than the regular price.', {
        priceCents: `must be below the regular price (${price} cents)`,
      });
    }
    const floor = offerFloorCents(price);
    if (body.priceCents < floor && !body.confirmBelowFloor) {
      throw badRequest(
        `An offer below ${OFFER_FLOOR_PERCENT} % of the regular price (${formatCents(floor)}) needs your confirmation.`,
        {
          priceCents: `is below ${formatCents(floor)} (${OFFER_FLOOR_PERCENT} % of the regular price): confirm to go lower`,
        },
      );
    }
    if (body.quantity > stock) {
      throw badRequest('An offer cannot have more units than are in stock.', {
        quantity: `must be at most ${stock}`,
      });
    }
    const running = await tx.execute(sql`
      select 1 from stream_offers where stream_id = ${stream.id} and ended_at is null and ends_at > now()`);
    if (running.rows.length > 0) throw conflict('CONFLICT', 'An offer is already running. End it first.');
    await tx.execute(sql`
      insert into stream_offers (stream_id, product_id, price_cents, quantity, ends_at)
      values (${stream.id}, ${body.productId}, ${body.priceCents}, ${body.quantity},
        now() + make_interval(secs => ${body.durationSec}))`);
  });
}

export function endOffer(db: Db, hub: RoomHub, stream: StreamRecord): Promise<RoomShop> {
  return change(db, hub, stream, (tx) => endOffersOf(tx, stream.id));
}
