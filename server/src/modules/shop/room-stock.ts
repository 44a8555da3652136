import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { liveRoomsShowing, productStock } from './repo.ts';

/**
 * Every live room showing the product gets its stock (and what is left of a running offer on it)
 * through the hub, so viewers on every instance see it: after a sale, and after a cancel or a
 * refund put a unit back. `version` is the product's last change, so a viewer keeps the newest.
 */
export async function publishStock(
  db: Db,
  hub: RoomHub,
  productId: string,
  now: { stock: number; version: number },
): Promise<void> {
  const rooms = await liveRoomsShowing(db, productId);
  for (const room of rooms) {
    await hub.publish(room.room_name, {
      type: 'stock',
      productId,
      stock: now.stock,
      version: now.version,
      ...(room.offer_remaining === null ? {} : { offerRemaining: Math.max(0, Number(room.offer_remaining)) }),
    });
  }
}

/** The product's stock changed outside a sale (a cancelled or refunded order): tells its rooms. */
export async function announceStock(db: Db, hub: RoomHub, productId: string): Promise<void> {
  const now = await productStock(db, productId);
  if (now) await publishStock(db, hub, productId, now);
}
