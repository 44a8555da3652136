import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../client.ts';

/** The seed's queries: many rows per statement (arrays unnested), existing rows kept. */

type Executor = Db | Tx;

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

export async function insertSellers(tx: Tx, sellers: SellerToInsert[]): Promise<void> {
  const column = <K extends keyof SellerToInsert>(key: K) =>
    sql.param(sellers.map((s) => (s[key] instanceof Date ? (s[key] as Date).toISOString() : s[key])));
  await tx.execute(sql`
    insert into users (handle, email, password_hash, first_name, last_name, business_name, profile_image_url,
      plan, created_at)
    select * from unnest(${column('handle')}::text[], ${column('email')}::text[], ${column('passwordHash')}::text[],
      ${column('firstName')}::text[], ${column('lastName')}::text[], ${column('businessName')}::text[],
      ${column('profileImageUrl')}::text[], ${column('plan')}::text[], ${column('createdAt')}::timestamptz[])
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

/** Products, their updated_at the same as created_at. */
export async function insertProducts(tx: Tx, rows: ProductToInsert[]): Promise<void> {
  const column = <K extends keyof ProductToInsert>(key: K) =>
    sql.param(rows.map((p) => (p[key] instanceof Date ? (p[key] as Date).toISOString() : p[key])));
  await tx.execute(sql`
    insert into products (seller_id, category_id, title, description, price_cents, condition, image_url, stock,
      created_at, updated_at)
    select s, c, t, d, p, co, i, st, ca, ca
    from unnest(${column('sellerId')}::uuid[], ${column('categoryId')}::int[], ${column('title')}::text[],
      ${column('description')}::text[], ${column('priceCents')}::int[], ${column('condition')}::text[],
      ${column('imageUrl')}::text[], ${column('stock')}::int[], ${column('createdAt')}::timestamptz[])
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
