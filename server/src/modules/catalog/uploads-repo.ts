import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** Who uploaded which image (the uploads table): keys are storage keys, `uploads/<uuid>.webp`. */

export async function recordUpload(db: Db, key: string, ownerId: string): Promise<void> {
  await db.execute(sql`insert into uploads (key, owner_id) values (${key}, ${ownerId})`);
}

/** The file could not be stored after all: its row goes too. */
export async function forgetUpload(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from uploads where key = ${key}`);
}

export async function isUploadOf(db: Db, key: string, ownerId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from uploads where key = ${key} and owner_id = ${ownerId}`);
  return result.rows.length > 0;
}

/**
 * A deleted account's uploads leave the table, answered for removal from storage: all it owns,
 * whether anything names them or not, but the images of its products that stay (an order names
 * them; see retireProductsOfSeller, which must have run first). Those keep their row and owner,
 * so nobody else can take them up.
 */
export async function releaseUploadsOf(tx: Db | Tx, ownerId: string, siteOrigin: string): Promise<string[]> {
  const released = await tx.execute<{ key: string }>(sql`
    delete from uploads u where u.owner_id = ${ownerId}
      and not exists (select 1 from products p where p.seller_id = ${ownerId}
        and lower(p.image_url) in ('/media/' || u.key, lower(${siteOrigin}) || '/media/' || u.key))
    returning u.key`);
  return released.rows.map((row) => row.key);
}
