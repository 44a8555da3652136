import type { OrderRole } from '@streamshop/contract/orders.ts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { afterCursor, cursorAt, type PageCursor } from '../../platform/page-cursor.ts';

/** The orders' queries (ADR 0016). Every move of an order is one conditional update. */

export type OrderRow = {
  id: string;
  buyer_id: string;
  seller_id: string;
  product_id: string | null;
  payment_id: string | null;
  status: 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';
  amount_cents: number;
  shipping_cents: number;
  shipping_address: unknown;
  carrier: string | null;
  tracking_number: string | null;
  created_at: Date | string;
  shipped_at: Date | string | null;
  delivered_at: Date | string | null;
  cancelled_at: Date | string | null;
  refunded_at: Date | string | null;
  product_title: string | null;
  product_image_url: string | null;
  fulfillment: 'ship' | 'digital' | 'pickup' | null;
  buyer_handle: string;
  seller_handle: string;
};

const ORDER_COLUMNS = sql`
  o.id, o.buyer_id, o.seller_id, o.product_id, o.payment_id, o.status, o.amount_cents,
  o.shipping_cents, o.shipping_address, o.carrier, o.tracking_number, o.created_at, o.shipped_at,
  o.delivered_at, o.cancelled_at, o.refunded_at, p.title as product_title,
  p.image_url as product_image_url, p.fulfillment, b.handle as buyer_handle, s.handle as seller_handle`;

const ORDER_JOINS = sql`
  left join products p on p.id = o.product_id
  join users b on b.id = o.buyer_id
  join users s on s.id = o.seller_id`;

/** An order of a page, with its created_at to the microsecond for the next page's cursor. */
export type PagedOrderRow = OrderRow & { cursor_at: string };

/** A page of the user's sales or purchases, newest first, after the (created_at, id) of `after`. */
export async function ordersPage(
  db: Db,
  userId: string,
  role: OrderRole,
  options: {
    status?: string | undefined;
    after?: PageCursor | undefined;
    limit: number;
  },
): Promise<PagedOrderRow[]> {
  const party = role === 'seller' ? sql`o.seller_id = ${userId}` : sql`o.buyer_id = ${userId}`;
  const status = options.status ? sql`and o.status = ${options.status}` : sql``;
  const after = afterCursor(sql`o.created_at`, sql`o.id`, options.after);
  const result = await db.execute<PagedOrderRow>(sql`
    select ${ORDER_COLUMNS}, ${cursorAt(sql`o.created_at`)} as cursor_at
    from orders o ${ORDER_JOINS}
    where ${party} ${status} ${after}
    order by o.created_at desc, o.id desc limit ${options.limit}`);
  return result.rows;
}

/** The order when the user is its buyer or seller; undefined otherwise (not theirs to see). */
export async function orderOf(db: Db | Tx, orderId: string, userId: string): Promise<OrderRow | undefined> {
  const result = await db.execute<OrderRow>(sql`
    select ${ORDER_COLUMNS} from orders o ${ORDER_JOINS}
    where o.id = ${orderId} and (o.buyer_id = ${userId} or o.seller_id = ${userId})`);
  return result.rows[0];
}

/** The order, whoever's it is (for the messages of an order just placed). */
export async function orderById(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
  const result = await tx.execute<OrderRow>(sql`
    select ${ORDER_COLUMNS} from orders o ${ORDER_JOINS} where o.id = ${orderId}`);
  return result.rows[0];
}

export type MovedOrder = {
  id: string;
  buyer_id: string;
  seller_id: string;
  product_id: string | null;
  payment_id: string | null;
  amount_cents: number;
};

async function move(tx: Tx, update: SQL): Promise<MovedOrder | undefined> {
  const result = await tx.execute<MovedOrder>(
    sql`${update} returning o.id, o.buyer_id, o.seller_id, o.product_id, o.payment_id, o.amount_cents`,
  );
  return result.rows[0];
}

/** A shipped product's order, paid and not yet shipped, by its seller. */
export function markShipped(
  tx: Tx,
  orderId: string,
  sellerId: string,
  shipment: { carrier: string; trackingNumber: string },
): Promise<MovedOrder | undefined> {
  return move(
    tx,
    sql`update orders o set status = 'shipped', shipped_at = now(), carrier = ${shipment.carrier},
      tracking_number = ${shipment.trackingNumber}
    where o.id = ${orderId} and o.seller_id = ${sellerId} and o.status = 'paid'
      and coalesce((select fulfillment from products where id = o.product_id), 'ship') = 'ship'`,
  );
}

/** Delivered: by its buyer once shipped, or by its seller from paid for a digital or pickup product. */
export function markDelivered(tx: Tx, orderId: string, userId: string): Promise<MovedOrder | undefined> {
  return move(
    tx,
    sql`update orders o set status = 'delivered', delivered_at = now()
    where o.id = ${orderId} and (
      (o.buyer_id = ${userId} and o.status = 'shipped')
      or (o.seller_id = ${userId} and o.status = 'paid'
        and (select fulfillment from products where id = o.product_id) in ('digital', 'pickup')))`,
  );
}

/** Refunded by its seller, at any point before a refund or a cancel. */
export function markRefunded(tx: Tx, orderId: string, sellerId: string): Promise<MovedOrder | undefined> {
  return move(
    tx,
    sql`update orders o set status = 'refunded', refunded_at = now()
    where o.id = ${orderId} and o.seller_id = ${sellerId} and o.status in ('paid', 'shipped', 'delivered')`,
  );
}

/** Cancelled by its buyer before it ships. */
export function markCancelled(tx: Tx, orderId: string, buyerId: string): Promise<MovedOrder | undefined> {
  return move(
    tx,
    sql`update orders o set status = 'cancelled', cancelled_at = now()
    where o.id = ${orderId} and o.buyer_id = ${buyerId} and o.status = 'paid'`,
  );
}

/** Every order shipped at least `afterMs` ago is delivered, in one statement; how many. */
export async function deliverShippedBefore(db: Db, afterMs: number): Promise<number> {
  const result = await db.execute<{ id: string }>(sql`
    update orders set status = 'delivered', delivered_at = now()
    where status = 'shipped' and shipped_at <= now() - make_interval(secs => ${afterMs / 1000})
    returning id`);
  return result.rows.length;
}

/** Where an order's messages go: the buyer's and the seller's names and addresses. */
export async function partiesOf(
  tx: Tx,
  order: { buyer_id: string; seller_id: string },
): Promise<{ buyer: Party | undefined; seller: Party | undefined }> {
  const result = await tx.execute<Party & { id: string }>(sql`
    select id, email, first_name as "firstName", handle from users
    where id in (${order.buyer_id}, ${order.seller_id}) and deleted_at is null`);
  const find = (id: string) => result.rows.find((row) => row.id === id);
  return { buyer: find(order.buyer_id), seller: find(order.seller_id) };
}

export type Party = { email: string; firstName: string; handle: string };

/** GET /api/orders without a role (before ADR 0016): both roles, the newest first. */
export async function ordersOfEitherRole(
  db: Db,
  userId: string,
  limit: number,
): Promise<
  Array<{
    id: string;
    amount_cents: number;
    created_at: Date | string;
    status: OrderRow['status'];
    product_title: string | null;
    seller_id: string;
  }>
> {
  const result = await db.execute<{
    id: string;
    amount_cents: number;
    created_at: Date | string;
    status: OrderRow['status'];
    product_title: string | null;
    seller_id: string;
  }>(sql`
    select o.id, o.amount_cents, o.created_at, o.status, p.title as product_title, o.seller_id
    from orders o left join products p on p.id = o.product_id
    where o.seller_id = ${userId} or o.buyer_id = ${userId}
    order by o.created_at desc, o.id limit ${limit}`);
  return result.rows;
}
