import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { PRODUCT_COLUMNS, type ProductRow } from './product-row.ts';

export interface ProductValues {
  title: string;
  description: string | null;
  priceCents: number;
  condition: 'new' | 'used' | 'refurbished';
  categoryId: number;
  imageUrl: string | null;
  stock: number;
  fulfillment: 'ship' | 'digital' | 'pickup';
  shippingCents: number;
}

async function selectOne(db: Db, id: string): Promise<ProductRow | undefined> {
  const result = await db.execute<ProductRow>(
    sql`select ${PRODUCT_COLUMNS} from products p join users u on u.id = p.seller_id where p.id = ${id}`,
  );
  return result.rows[0];
}

export const findProduct = selectOne;

/** The product while it is in the catalogue (a retired seller's product is unlisted). */
export async function findListedProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  const result = await db.execute<ProductRow>(sql`
    select ${PRODUCT_COLUMNS} from products p join users u on u.id = p.seller_id
    where p.id = ${id} and p.unlisted_at is null`);
  return result.rows[0];
}

export async function insertProduct(db: Db, sellerId: string, v: ProductValues): Promise<ProductRow> {
  const inserted = await db.execute<{ id: string }>(sql`
    insert into products (seller_id, title, description, price_cents, condition, category_id, image_url, stock,
      fulfillment, shipping_cents)
    values (${sellerId}, ${v.title}, ${v.description}, ${v.priceCents}, ${v.condition}, ${v.categoryId},
            ${v.imageUrl}, ${v.stock}, ${v.fulfillment}, ${v.shippingCents})
    returning id`);
  const row = await selectOne(db, inserted.rows[0]?.id ?? '');
  if (!row) throw new Error('inserted product not found');
  return row;
}

/** Updates only the seller's own product; undefined when there is no such product of theirs. */
export async function updateOwnProduct(
  db: Db,
  sellerId: string,
  id: string,
  v: ProductValues,
): Promise<ProductRow | undefined> {
  const updated = await db.execute<{ id: string }>(sql`
    update products set title = ${v.title}, description = ${v.description}, price_cents = ${v.priceCents},
      condition = ${v.condition}, category_id = ${v.categoryId}, image_url = ${v.imageUrl}, stock = ${v.stock},
      fulfillment = ${v.fulfillment}, shipping_cents = ${v.shippingCents}, updated_at = now()
    where id = ${id} and seller_id = ${sellerId}
    returning id`);
  return updated.rows[0] ? selectOne(db, id) : undefined;
}

export async function deleteOwnProduct(db: Db, sellerId: string, id: string): Promise<boolean> {
  const deleted = await db.execute(
    sql`delete from products where id = ${id} and seller_id = ${sellerId} returning id`,
  );
  return deleted.rows.length > 0;
}

export async function findProductsOfSeller(db: Db, sellerId: string, limit = 500): Promise<ProductRow[]> {
  const result = await db.execute<ProductRow>(sql`
    select ${PRODUCT_COLUMNS} from products p join users u on u.id = p.seller_id
    where p.seller_id = ${sellerId} order by p.created_at desc, p.id limit ${limit}`);
  return result.rows;
}

export async function categoryExists(db: Db, id: number): Promise<boolean> {
  const result = await db.execute(sql`select 1 from categories where id = ${id}`);
  return result.rows.length > 0;
}

/**
 * Takes every product of a seller out of the catalogue: those no order or payment names are
 * deleted, the others stay (an order shows its product's title) unlisted and with no stock.
 */
export async function retireProductsOfSeller(
  tx: Db | Tx,
  sellerId: string,
): Promise<{ deleted: number; unlisted: number; deletedImageUrls: string[] }> {
  const deleted = await tx.execute<{ image_url: string | null }>(sql`
    delete from products p where p.seller_id = ${sellerId}
      and not exists (select 1 from orders o where o.product_id = p.id)
      and not exists (select 1 from payments pay where pay.product_id = p.id)
    returning p.image_url`);
  const unlisted = await tx.execute(sql`
    update products set stock = 0, unlisted_at = coalesce(unlisted_at, now()), updated_at = now()
    where seller_id = ${sellerId} returning id`);
  return {
    deleted: deleted.rows.length,
    unlisted: unlisted.rows.length,
    deletedImageUrls: deleted.rows.flatMap((row) => (row.image_url ? [row.image_url] : [])),
  };
}
