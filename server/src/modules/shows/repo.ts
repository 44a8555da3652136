import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { SHOW_MISSED_AFTER_MINUTES } from '@streamshop/contract/shows.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The shows' queries (issue 29): shows, their lineups and reminders. */

type Executor = Pick<Db, 'execute'>;

export type ShowRow = {
  id: string;
  seller_id: string;
  seller_handle: string;
  seller_name: string;
  title: string;
  description: string | null;
  starts_at: Date | string;
  time_zone: string;
  cover_url: string | null;
  status: 'scheduled' | 'live' | 'missed';
  stream_id: string | null;
  room_name: string | null;
  stream_ended: boolean;
  reminders: number;
  reminded: boolean;
  created_at: Date | string;
};

/** Every show query selects these (show `sh`, seller `u`, its stream `s`), matching ShowRow. */
const showColumns = (viewerId: string | undefined) => sql`
  sh.id, sh.seller_id, u.handle as seller_handle,
  coalesce(nullif(u.business_name, ''), u.first_name || ' ' || u.last_name) as seller_name,
  sh.title, sh.description, sh.starts_at, sh.time_zone, sh.cover_url, sh.status, sh.stream_id,
  s.room_name, s.ended_at is not null as stream_ended,
  (select count(*)::int from show_reminders r where r.show_id = sh.id) as reminders,
  exists (select 1 from show_reminders r where r.show_id = sh.id and r.user_id = ${viewerId ?? null}::uuid) as reminded,
  sh.created_at`;
const SHOW_FROM = sql`from shows sh join users u on u.id = sh.seller_id left join streams s on s.id = sh.stream_id`;

export async function findShowRow(db: Executor, id: string, viewerId?: string): Promise<ShowRow | undefined> {
  const result = await db.execute<ShowRow>(sql`
    select ${showColumns(viewerId)} ${SHOW_FROM} where sh.id = ${id} and u.deleted_at is null`);
  return result.rows[0];
}

/** Locks the show's row for a change (edit, delete, going live) and answers it. */
export async function lockShow(
  tx: Tx,
  id: string,
): Promise<{ seller_id: string; status: string; stream_id: string | null } | undefined> {
  const result = await tx.execute<{ seller_id: string; status: string; stream_id: string | null }>(
    sql`select seller_id, status, stream_id from shows where id = ${id} for update`,
  );
  return result.rows[0];
}

/** Upcoming shows (scheduled, not yet missed), soonest first; of some sellers only when given. */
export async function upcomingShowRows(
  db: Executor,
  options: { sellerIds?: string[]; viewerId?: string; limit: number },
): Promise<ShowRow[]> {
  const sellers = options.sellerIds;
  if (sellers && sellers.length === 0) return [];
  const result = await db.execute<ShowRow>(sql`
    select ${showColumns(options.viewerId)} ${SHOW_FROM}
    where sh.status = 'scheduled' and u.deleted_at is null
      and sh.starts_at > now() - make_interval(mins => ${SHOW_MISSED_AFTER_MINUTES})
      ${
        sellers
          ? sql`and sh.seller_id in (${sql.join(
              sellers.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`
          : sql``
      }
    order by sh.starts_at, sh.id limit ${options.limit}`);
  return result.rows;
}

/** A seller's own shows, every status, the latest first. */
export async function showRowsOfSeller(db: Executor, sellerId: string, limit: number): Promise<ShowRow[]> {
  const result = await db.execute<ShowRow>(sql`
    select ${showColumns(sellerId)} ${SHOW_FROM}
    where sh.seller_id = ${sellerId} order by sh.starts_at desc, sh.id limit ${limit}`);
  return result.rows;
}

/** The lineups of these shows, each in order (products that left the catalogue are left out). */
export async function showProductRows(db: Executor, showIds: string[]): Promise<Map<string, RoomProduct[]>> {
  const lineups = new Map<string, RoomProduct[]>();
  if (showIds.length === 0) return lineups;
  const result = await db.execute<{
    show_id: string;
    id: string;
    title: string;
    image_url: string | null;
    price_cents: number;
    stock: number;
    condition: string;
    fulfillment: RoomProduct['fulfillment'];
    shipping_cents: number;
  }>(sql`
    select sp.show_id, p.id, p.title, p.image_url, p.price_cents, p.stock, p.condition, p.fulfillment,
      p.shipping_cents
    from show_products sp join products p on p.id = sp.product_id
    where sp.show_id in (${sql.join(
      showIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and p.unlisted_at is null
    order by sp.show_id, sp.position`);
  for (const row of result.rows) {
    const list = lineups.get(row.show_id) ?? [];
    list.push({
      id: row.id,
      title: row.title,
      imageUrl: row.image_url,
      priceCents: row.price_cents,
      stock: row.stock,
      condition: row.condition,
      fulfillment: row.fulfillment,
      shippingCents: row.shipping_cents,
    });
    lineups.set(row.show_id, list);
  }
  return lineups;
}

/** How many shows the seller has scheduled (not started, not missed). */
export async function countScheduledShows(tx: Executor, sellerId: string): Promise<number> {
  const result = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from shows where seller_id = ${sellerId} and status = 'scheduled'`,
  );
  return result.rows[0]?.n ?? 0;
}

/** How many of `productIds` the seller has in their catalogue (listed). */
export async function countOwnProducts(
  tx: Executor,
  sellerId: string,
  productIds: string[],
): Promise<number> {
  if (productIds.length === 0) return 0;
  const result = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from products
    where seller_id = ${sellerId} and unlisted_at is null and id in (${sql.join(
      productIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return result.rows[0]?.n ?? 0;
}

export interface ShowFields {
  title: string;
  description: string | null;
  startsAt: Date;
  timeZone: string;
  coverUrl: string | null;
}

export async function insertShow(tx: Tx, sellerId: string, fields: ShowFields): Promise<string> {
  const result = await tx.execute<{ id: string }>(sql`
    insert into shows (seller_id, title, description, starts_at, time_zone, cover_url)
    values (${sellerId}, ${fields.title}, ${fields.description}, ${fields.startsAt}, ${fields.timeZone},
      ${fields.coverUrl})
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) throw new Error('inserting a show returned no id');
  return id;
}

export async function updateShowFields(tx: Tx, id: string, fields: Partial<ShowFields>): Promise<void> {
  const sets = [];
  if (fields.title !== undefined) sets.push(sql`title = ${fields.title}`);
  if (fields.description !== undefined) sets.push(sql`description = ${fields.description}`);
  if (fields.startsAt !== undefined) sets.push(sql`starts_at = ${fields.startsAt}`);
  if (fields.timeZone !== undefined) sets.push(sql`time_zone = ${fields.timeZone}`);
  if (fields.coverUrl !== undefined) sets.push(sql`cover_url = ${fields.coverUrl}`);
  sets.push(sql`updated_at = now()`);
  await tx.execute(sql`update shows set ${sql.join(sets, sql`, `)} where id = ${id}`);
}

/** Replaces the show's lineup with `productIds`, in that order. */
export async function replaceShowProducts(tx: Tx, showId: string, productIds: string[]): Promise<void> {
  await tx.execute(sql`delete from show_products where show_id = ${showId}`);
  if (productIds.length === 0) return;
  await tx.execute(sql`
    insert into show_products (show_id, product_id, position)
    values ${sql.join(
      productIds.map((productId, position) => sql`(${showId}, ${productId}, ${position})`),
      sql`, `,
    )}`);
}

export async function deleteShowRow(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`delete from shows where id = ${id}`);
}

export async function linkShowToStream(tx: Tx, id: string, streamId: string): Promise<void> {
  await tx.execute(
    sql`update shows set status = 'live', stream_id = ${streamId}, updated_at = now() where id = ${id}`,
  );
}

/** The product ids of a show's lineup, in order. */
export async function showProductIds(tx: Executor, showId: string): Promise<string[]> {
  const result = await tx.execute<{ product_id: string }>(sql`
    select sp.product_id from show_products sp join products p on p.id = sp.product_id
    where sp.show_id = ${showId} and p.unlisted_at is null order by sp.position`);
  return result.rows.map((row) => row.product_id);
}

export async function insertReminder(db: Db, showId: string, userId: string): Promise<void> {
  await db.execute(sql`
    insert into show_reminders (show_id, user_id) values (${showId}, ${userId}) on conflict do nothing`);
}

export async function deleteReminder(db: Db, showId: string, userId: string): Promise<void> {
  await db.execute(sql`delete from show_reminders where show_id = ${showId} and user_id = ${userId}`);
}

/** Up to `limit` people who asked for a reminder of the show, with an id after `after`, in id order. */
export async function remindedAfter(
  db: Executor,
  showId: string,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const result = await db.execute<{ user_id: string }>(sql`
    select user_id from show_reminders
    where show_id = ${showId} ${after ? sql`and user_id > ${after}::uuid` : sql``}
    order by user_id limit ${limit}`);
  return result.rows.map((row) => row.user_id);
}

/** Scheduled shows past their time by SHOW_MISSED_AFTER_MINUTES become missed; answers how many. */
export async function markMissedShows(db: Db): Promise<number> {
  const result = await db.execute(sql`
    update shows set status = 'missed', updated_at = now()
    where status = 'scheduled' and starts_at < now() - make_interval(mins => ${SHOW_MISSED_AFTER_MINUTES})`);
  return result.rowCount ?? 0;
}

/** Scheduled shows starting within `minutes` (and not yet begun): their reminders are due. */
export async function showRowsStartingWithin(db: Executor, minutes: number): Promise<ShowRow[]> {
  const result = await db.execute<ShowRow>(sql`
    select ${showColumns(undefined)} ${SHOW_FROM}
    where sh.status = 'scheduled' and sh.starts_at > now()
      and sh.starts_at <= now() + make_interval(mins => ${minutes}) and u.deleted_at is null
    order by sh.starts_at limit 500`);
  return result.rows;
}

/** The show a stream was started from, if any. */
export async function showIdOfStream(db: Executor, streamId: string): Promise<string | undefined> {
  const result = await db.execute<{ id: string }>(sql`select id from shows where stream_id = ${streamId}`);
  return result.rows[0]?.id;
}
