import type { Analytics, Order } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

/** The caller's own figures as a seller: views of their streams, their sales, their catalogue. */
export async function sellerAnalytics(db: Db, userId: string): Promise<Analytics> {
  const result = await db.execute<{
    views: number;
    orders: number;
    revenue: number;
    products: number;
    purchases: number;
  }>(sql`
    select
      (select coalesce(sum(view_count), 0) from streams where owner_id = ${userId}) as views,
      (select count(*) from orders where seller_id = ${userId} and status = 'completed') as orders,
      (select coalesce(sum(amount_cents), 0) from orders where seller_id = ${userId} and status = 'completed') as revenue,
      (select count(*) from products where seller_id = ${userId}) as products,
      (select count(*) from orders where buyer_id = ${userId} and status = 'completed') as purchases`);
  const row = result.rows[0];
  return {
    totalViews: Number(row?.views ?? 0),
    totalOrders: Number(row?.orders ?? 0),
    totalRevenue: Number(row?.revenue ?? 0),
    totalProducts: Number(row?.products ?? 0),
    totalPurchases: Number(row?.purchases ?? 0),
  };
}

/** Orders the caller sold or bought, newest first. */
export async function listOrders(db: Db, userId: string, limit = 50): Promise<Order[]> {
  const result = await db.execute<{
    id: string;
    amount_cents: number;
    created_at: Date | string;
    status: Order['status'];
    product_title: string | null;
    seller_id: string;
  }>(sql`
    select o.id, o.amount_cents, o.created_at, o.status, p.title as product_title, o.seller_id
    from orders o left join products p on p.id = o.product_id
    where o.seller_id = ${userId} or o.buyer_id = ${userId}
    order by o.created_at desc, o.id limit ${limit}`);
  return result.rows.map((row) => ({
    id: row.id,
    amountCents: row.amount_cents,
    createdAt: iso(row.created_at),
    status: row.status,
    productTitle: row.product_title,
    role: row.seller_id === userId ? 'seller' : 'buyer',
  }));
}
