import { PRODUCT_PAGE_SHOWS, type ProductPage } from '@streamshop/contract/catalog.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { showsOfProduct } from '../shop/service.ts';
import { liveRoomOfOwner } from '../streams/service.ts';
import { toProduct } from './product-row.ts';
import { findListedProduct } from './products-repo.ts';

/**
 * What the public product page shows: the product, its seller (and the room they are live in now)
 * and the shows it is in. Undefined for a product out of the catalogue (its seller's account is
 * gone) as for a missing one.
 */
export async function findProductPage(db: Db, id: string): Promise<ProductPage | undefined> {
  const row = await findListedProduct(db, id);
  if (!row) return undefined;
  const [liveRoomName, shows] = await Promise.all([
    liveRoomOfOwner(db, row.seller_id),
    showsOfProduct(db, id, PRODUCT_PAGE_SHOWS),
  ]);
  return {
    product: toProduct(row),
    seller: {
      handle: row.seller_handle,
      businessName: row.seller_business_name,
      avatarUrl: row.seller_profile_image_url,
      liveRoomName,
    },
    shows,
  };
}

/** As findProductPage, 404 when there is none. */
export async function productPage(db: Db, id: string): Promise<ProductPage> {
  const page = await findProductPage(db, id);
  if (!page) throw notFound('Product not found');
  return page;
}
