import type { ChatMessage } from '@streamshop/contract/live.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { OFFER_TAKEN } from './room-shop.ts';

/**
 * After an order: the room it was bought in gets a purchase line in its chat ('@buyer just bought
 * Title', or 'Someone' when the buyer opted out), and every live room showing the product gets its
 * new stock (and what is left of a running offer on it).
 */
export async function announceOrder(db: Db, hub: RoomHub, orderId: string): Promise<void> {
  const found = await db.execute<{
    product_id: string | null;
    stock: number | null;
    version: number | null;
    title: string | null;
    buyer_handle: string;
    show_buyer: boolean | null;
    stream_id: string | null;
    during_live: boolean;
  }>(sql`
    select o.product_id, p.stock, (extract(epoch from p.updated_at) * 1000000)::int8 as version, p.title, u.handle as buyer_handle, pay.show_buyer, o.stream_id, o.during_live
    from orders o
    join users u on u.id = o.buyer_id
    left join products p on p.id = o.product_id
    left join payments pay on pay.id = o.payment_id
    where o.id = ${orderId}`);
  const order = found.rows[0];
  if (!order?.product_id || order.stock === null) return;

  const rooms = await db.execute<{
    room_name: string;
    stream_id: string;
    offer_remaining: number | null;
  }>(sql`
    select s.room_name, s.id as stream_id,
      (select o.quantity - ${OFFER_TAKEN} from stream_offers o
        where o.stream_id = s.id and o.product_id = ${order.product_id}
          and o.ended_at is null and o.starts_at <= now() and o.ends_at > now()
        order by o.starts_at desc limit 1) as offer_remaining
    from streams s join stream_products sp on sp.stream_id = s.id
    where sp.product_id = ${order.product_id} and s.is_active`);
  for (const room of rooms.rows) {
    await hub.publish(room.room_name, {
      type: 'stock',
      productId: order.product_id,
      stock: order.stock,
      version: Number(order.version),
      ...(room.offer_remaining === null ? {} : { offerRemaining: Math.max(0, Number(room.offer_remaining)) }),
    });
  }

  if (!order.stream_id || !order.during_live) return;
  const buyer = order.show_buyer === false ? 'Someone' : `@${order.buyer_handle}`;
  const line = await db.execute<{ id: number; created_at: Date | string; room_name: string }>(sql`
    insert into chat_messages (stream_id, user_id, username, message, kind)
    select ${order.stream_id}, null, '', ${`${buyer} just bought ${order.title}`}, 'purchase'
    from streams where id = ${order.stream_id} and is_active
    returning id, created_at, (select room_name from streams where id = ${order.stream_id}) as room_name`);
  const row = line.rows[0];
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
