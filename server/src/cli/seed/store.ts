import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The seed's queries: many rows per statement (arrays unnested), existing rows kept. */

type Executor = Db | Tx;

/**
 * Waits for the seed's lock until this transaction ends: two instances starting at once on one
 * PostgreSQL seed one after the other, and the second then sees the first one's data.
 */
export async function lockSeed(tx: Tx, lockId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockId}::bigint)`);
}

export async function insertCategories(tx: Tx, rows: Array<{ name: string; slug: string }>): Promise<void> {
  await tx.execute(sql`
    insert into categories (name, slug)
    select * from unnest(${sql.param(rows.map((c) => c.name))}::text[], ${sql.param(rows.map((c) => c.slug))}::text[])
    on conflict do nothing`);
}

/** Category ids by slug (of these slugs, or of every category). */
export async function categoryIdsBySlug(db: Executor, slugs?: string[]): Promise<Map<string, number>> {
  const result = await db.execute<{ id: number; slug: string }>(
    slugs
      ? sql`select id, slug from categories where slug = any(${sql.param(slugs)}::text[])`
      : sql`select id, slug from categories`,
  );
  return new Map(result.rows.map((row) => [row.slug, Number(row.id)]));
}

export interface SellerToInsert {
  handle: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  businessName: string | null;
  profileImageUrl: string;
  plan: 'free' | 'pro';
  createdAt: Date;
}

/** The demo sellers, their example.com addresses taken as verified. */
export async function insertSellers(tx: Tx, sellers: SellerToInsert[]): Promise<void> {
  const column = <K extends keyof SellerToInsert>(key: K) =>
    sql.param(sellers.map((s) => (s[key] instanceof Date ? (s[key] as Date).toISOString() : s[key])));
  await tx.execute(sql`
    insert into users (handle, email, password_hash, first_name, last_name, business_name, profile_image_url,
      plan, created_at, email_verified_at)
    select *, c from unnest(${column('handle')}::text[], ${column('email')}::text[], ${column('passwordHash')}::text[],
      ${column('firstName')}::text[], ${column('lastName')}::text[], ${column('businessName')}::text[],
      ${column('profileImageUrl')}::text[], ${column('plan')}::text[], ${column('createdAt')}::timestamptz[])
      as s(h, e, p, f, l, b, i, pl, c)
    on conflict do nothing`);
}

export async function userIdsByHandle(db: Executor, handles: string[]): Promise<Map<string, string>> {
  const result = await db.execute<{ id: string; handle: string }>(
    sql`select id, handle from users where handle = any(${sql.param(handles)}::text[])`,
  );
  return new Map(result.rows.map((row) => [row.handle, row.id]));
}

export interface ProductToInsert {
  sellerId: string;
  categoryId: number;
  title: string;
  description: string;
  priceCents: number;
  condition: string;
  imageUrl: string | null;
  stock: number;
  createdAt: Date;
}

/** Products as one array per column (index i is one product); created_at ISO strings. */
export interface ProductColumns {
  sellerId: string[];
  categoryId: number[];
  title: string[];
  description: string[];
  priceCents: number[];
  condition: string[];
  imageUrl: Array<string | null>;
  stock: number[];
  createdAt: string[];
}

/** Products, their updated_at the same as created_at. */
export async function insertProducts(tx: Tx, rows: ProductToInsert[]): Promise<void> {
  await insertProductColumns(tx, {
    sellerId: rows.map((p) => p.sellerId),
    categoryId: rows.map((p) => p.categoryId),
    title: rows.map((p) => p.title),
    description: rows.map((p) => p.description),
    priceCents: rows.map((p) => p.priceCents),
    condition: rows.map((p) => p.condition),
    imageUrl: rows.map((p) => p.imageUrl),
    stock: rows.map((p) => p.stock),
    createdAt: rows.map((p) => p.createdAt.toISOString()),
  });
}

/** The same for rows already in columns (the large catalogue builds them so, batch by batch). */
export async function insertProductColumns(tx: Tx, columns: ProductColumns): Promise<void> {
  const c = columns;
  await tx.execute(sql`
    insert into products (seller_id, category_id, title, description, price_cents, condition, image_url, stock,
      created_at, updated_at)
    select s, c, t, d, p, co, i, st, ca, ca
    from unnest(${sql.param(c.sellerId)}::uuid[], ${sql.param(c.categoryId)}::int[], ${sql.param(c.title)}::text[],
      ${sql.param(c.description)}::text[], ${sql.param(c.priceCents)}::int[], ${sql.param(c.condition)}::text[],
      ${sql.param(c.imageUrl)}::text[], ${sql.param(c.stock)}::int[], ${sql.param(c.createdAt)}::timestamptz[])
      as r(s, c, t, d, p, co, i, st, ca)`);
}

export async function hasCategories(db: Executor): Promise<boolean> {
  const result = await db.execute(sql`select 1 from categories limit 1`);
  return result.rows.length > 0;
}

export async function productCount(db: Executor): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from products`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Fresh planner statistics (PGlite has no autovacuum). Must run outside a transaction. */
export async function vacuumAnalyze(db: Db): Promise<void> {
  await db.execute(sql`vacuum analyze`);
}

export interface DemoStreamToInsert {
  sellerId: string;
  roomName: string;
  title: string;
  description: string;
  startedAt: Date;
  seconds: number;
  vodUrl: string;
  thumbnailUrl: string;
  viewCount: number;
  /** How many of the seller's newest products are lined up and pinned one after another. */
  chapters: number;
  chat: Array<{ at: Date; username: string; userId: string | null; message: string }>;
}

/** An ended stream with its lineup, consecutive pins (equal chapters) and chat; kept if present. */
export async function insertDemoStream(tx: Tx, s: DemoStreamToInsert): Promise<void> {
  const endedAt = new Date(s.startedAt.getTime() + s.seconds * 1000);
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into streams (owner_id, room_name, title, description, duration_sec, plan, view_count, is_active,
      created_at, started_at, ends_at, ended_at, vod_url, thumbnail_url)
    values (${s.sellerId}, ${s.roomName}, ${s.title}, ${s.description}, ${s.seconds},
      (select plan from users where id = ${s.sellerId}), ${s.viewCount}, false,
      ${s.startedAt.toISOString()}, ${s.startedAt.toISOString()}, ${endedAt.toISOString()}, ${endedAt.toISOString()},
      ${s.vodUrl}, ${s.thumbnailUrl})
    on conflict (room_name) do nothing
    returning id`);
  const streamId = inserted.rows[0]?.id;
  if (!streamId) return;
  const chapter = s.seconds / s.chapters;
  await tx.execute(sql`
    with picked as (
      select id, row_number() over (order by created_at desc, id) - 1 as n
      from products where seller_id = ${s.sellerId} and stock > 0 order by created_at desc, id limit ${s.chapters}
    ), lineup as (
      insert into stream_products (stream_id, product_id, position, added_at)
      select ${streamId}, id, n, ${s.startedAt.toISOString()}::timestamptz from picked
    )
    insert into stream_pins (stream_id, product_id, pinned_at, unpinned_at)
    select ${streamId}, id,
      ${s.startedAt.toISOString()}::timestamptz + make_interval(secs => n * ${chapter}),
      ${s.startedAt.toISOString()}::timestamptz + make_interval(secs => (n + 1) * ${chapter})
    from picked`);
  await tx.execute(sql`
    insert into chat_messages (stream_id, user_id, username, message, created_at)
    select ${streamId}, u, n, m, a
    from unnest(${sql.param(s.chat.map((c) => c.userId))}::uuid[], ${sql.param(s.chat.map((c) => c.username))}::text[],
      ${sql.param(s.chat.map((c) => c.message))}::text[], ${sql.param(s.chat.map((c) => c.at.toISOString()))}::timestamptz[])
      as r(u, n, m, a)`);
}
