import { formatCents } from '@streamshop/contract/money.ts';
import {
  MAX_LINEUP,
  MAX_PINNED,
  OFFER_FLOOR_PERCENT,
  offerFloorCents,
  type RoomShop,
  type StartOfferBody,
} from '@streamshop/contract/shop.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import type { StreamRecord } from '../streams/service.ts';
import {
  deleteFromLineup,
  endOffers,
  endPin,
  hasRunningOffer,
  insertIntoLineup,
  insertOffer,
  insertPin,
  isInLineup,
  lineupSize,
  loadRoomShop,
  lockStream,
  pinnedNow,
  productPriceAndStock,
  sellerOwnsProduct,
} from './repo.ts';

/**
 * Changes to a room's shop. Each runs in a transaction that first locks the stream row, so two
 * moderators pinning at once cannot exceed the pin limit; then every viewer gets the new state.
 */
async function change(db: Db, hub: RoomHub, stream: StreamRecord, apply: (tx: Tx) => Promise<void>) {
  const shop = await db.transaction(async (tx) => {
    await lockStream(tx, stream.id);
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
    if (!(await sellerOwnsProduct(tx, stream.owner_id, productId))) {
      throw notFound('No such product in this seller’s catalogue');
    }
    const size = await lineupSize(tx, stream.id);
    if (size.count >= MAX_LINEUP)
      throw conflict('CONFLICT', `A lineup holds at most ${MAX_LINEUP} products.`);
    await insertIntoLineup(tx, stream.id, productId, (size.top ?? -1) + 1);
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
    await endPin(tx, stream.id, productId);
    await endOffers(tx, stream.id, productId);
    await deleteFromLineup(tx, stream.id, productId);
  });
}

export function pin(db: Db, hub: RoomHub, stream: StreamRecord, productId: string): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    if (!(await isInLineup(tx, stream.id, productId))) {
      throw badRequest('Add the product to the lineup before pinning it.');
    }
    const open = await pinnedNow(tx, stream.id);
    if (open.includes(productId)) return;
    if (open.length >= MAX_PINNED) {
      throw conflict('CONFLICT', `At most ${MAX_PINNED} products can be pinned at once. Unpin one first.`);
    }
    await insertPin(tx, stream.id, productId);
  });
}

/** Unpinning a product also ends its running offer: an offer lives on a pinned product. */
export function unpin(db: Db, hub: RoomHub, stream: StreamRecord, productId: string): Promise<RoomShop> {
  assertNotEnded(stream);
  return change(db, hub, stream, async (tx) => {
    await endPin(tx, stream.id, productId);
    await endOffers(tx, stream.id, productId);
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
    if (!(await pinnedNow(tx, stream.id)).includes(body.productId))
      throw badRequest('Pin the product before starting an offer on it.', { productId: 'is not pinned' });
    const { price, stock } = await productPriceAndStock(tx, body.productId);
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
    if (await hasRunningOffer(tx, stream.id)) {
      throw conflict('CONFLICT', 'An offer is already running. End it first.');
    }
    await insertOffer(tx, stream.id, body);
  });
}

export function endOffer(db: Db, hub: RoomHub, stream: StreamRecord): Promise<RoomShop> {
  return change(db, hub, stream, (tx) => endOffers(tx, stream.id));
}

/**
 * A new room's lineup from a list (a scheduled show going live), in order, in the transaction that
 * created the room: products not in the seller's catalogue are skipped, the lineup limit holds.
 */
export async function fillLineup(tx: Tx, stream: StreamRecord, productIds: string[]): Promise<void> {
  let position = 0;
  for (const productId of productIds.slice(0, MAX_LINEUP)) {
    if (!(await sellerOwnsProduct(tx, stream.owner_id, productId))) continue;
    await insertIntoLineup(tx, stream.id, productId, position++);
  }
}
