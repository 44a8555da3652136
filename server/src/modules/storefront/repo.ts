import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** How many products a seller lists and how many views their streams had, in all. */
export async function sellerTotals(db: Db, sellerId: string): Promise<{ products: number; views: number }> {
  const result = await db.execute<{ products: number | string; views: number | string }>(sql`
    select (select count(*) from products where seller_id = ${sellerId}) as products,
           (select coalesce(sum(view_count), 0) from streams where owner_id = ${sellerId}) as views`);
  const row = result.rows[0];
  return { products: Number(row?.products ?? 0), views: Number(row?.views ?? 0) };
}
