import type { Analytics } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

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
      (select count(*) from orders where seller_id = ${userId} and status in ('paid', 'shipped', 'delivered')) as orders,
      (select coalesce(sum(amount_cents), 0) from orders where seller_id = ${userId} and status in ('paid', 'shipped', 'delivered')) as revenue,
      (select count(*) from products where seller_id = ${userId}) as products,
      (select count(*) from orders where buyer_id = ${userId} and status in ('paid', 'shipped', 'delivered')) as purchases`);
  const row = result.rows[0];
  return {
    totalViews: Number(row?.views ?? 0),
    totalOrders: Number(row?.orders ?? 0),
    totalRevenue: Number(row?.revenue ?? 0),
    totalProducts: Number(row?.products ?? 0),
    totalPurchases: Number(row?.purchases ?? 0),
  };
}
