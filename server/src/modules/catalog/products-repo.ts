import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { PRODUCT_COLUMNS, type ProductRow } from './product-row.ts';

export interface ProductValues {
  title: string;
  description: string | null;
  priceCents: number;
  condition: 'new' | 'used' | 'refurbished';
  categoryId: number;
  imageUrl: string | null;
  stock: number;
}

async function selectOne(db: Db, id: string): Promise<ProductRow | undefined> {
  const result = await db.execute<ProductRow>(
    sql`select ${PRODUCT_COLUMNS} from products p join users u on u.id = p.seller_id where p.id = ${id}`,
  );
  return result.rows[0];
}

export const findProduct = selectOne;

export async function insertProduct(db: Db, sellerId: string, v: ProductValues): Promise<ProductRow> {
  const inserted = await db.execute<{ id: string }>(sql`
    insert into products (seller_id, title, description, price_cents, condition, category_id, image_url, stock)
    values (${sellerId}, ${v.title}, ${v.description}, ${v.priceCents}, ${v.condition}, ${v.categoryId},
            ${v.imageUrl}, ${v.stock})
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
      updated_at = now()
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
