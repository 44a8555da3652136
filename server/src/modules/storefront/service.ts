import type { StorefrontResponse } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { notFound } from '../../platform/errors.ts';
import { findUserByHandle } from '../auth/repo.ts';
import { toProduct } from '../catalog/product-row.ts';
import { findProductsOfSeller } from '../catalog/products-repo.ts';
import { featuredProductCounts } from '../shop/chapters.ts';
import { listStreamsOfOwner } from '../streams/service.ts';

/**
 * A seller's public page: profile, products, replays (streams with a recording, each with how
 * many products it features) and totals.
 */
export async function storefront(db: Db, handle: string): Promise<StorefrontResponse> {
  const user = await findUserByHandle(db, handle);
  if (!user) throw notFound(`The user @${handle} does not exist or has no storefront.`);
  const [products, streams, totals] = await Promise.all([
    findProductsOfSeller(db, user.id, 200),
    listStreamsOfOwner(db, user.id, true),
    db.execute<{ products: number; views: number }>(sql`
      select (select count(*) from products where seller_id = ${user.id}) as products,
             (select coalesce(sum(view_count), 0) from streams where owner_id = ${user.id}) as views`),
  ]);
  const featured = await featuredProductCounts(
    db,
    streams.map((stream) => stream.id),
  );
  return {
    user: {
      handle: user.handle,
      businessName: user.businessName,
      profileImageUrl: user.profileImageUrl,
      createdAt: iso(user.createdAt),
    },
    products: products.map(toProduct),
    streams: streams.map((stream) => ({ ...stream, featuredProducts: featured.get(stream.id) ?? 0 })),
    stats: {
      productCount: Number(totals.rows[0]?.products ?? 0),
      vodCount: streams.length,
      totalViews: Number(totals.rows[0]?.views ?? 0),
    },
  };
}
