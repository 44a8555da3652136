import type { ChatMessage } from '@streamshop/contract/live.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { insertPurchaseLine, orderToAnnounce } from './repo.ts';
import { publishStock } from './room-stock.ts';

/**
 * After an order: the room it was bought in gets a purchase line in its chat ('@buyer just bought
 * Title', or 'Someone' when the buyer opted out), and every live room showing the product gets its
 * new stock (and what is left of a running offer on it).
 */
export async function announceOrder(db: Db, hub: RoomHub, orderId: string): Promise<void> {
  const order = await orderToAnnounce(db, orderId);
  if (!order?.product_id || order.stock === null) return;

  await publishStock(db, hub, order.product_id, { stock: order.stock, version: Number(order.version) });

  if (!order.stream_id || !order.during_live) return;
  const buyer = order.show_buyer === false ? 'Someone' : `@${order.buyer_handle}`;
  const row = await insertPurchaseLine(db, order.stream_id, `${buyer} just bought ${order.title}`);
  if (!row) return;
  const message: ChatMessage = {
    type: 'chat_message',
    id: Number(row.id),
    username: '',
    message: `${buyer} just bought ${order.title}`,
    timestamp: iso(row.created_at),
    kind: 'purchase',
  };
  await hub.publish(row.room_name, message);
}
