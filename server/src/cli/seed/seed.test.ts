import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { categories, products, users } from '../../db/schema.ts';
import { verifyPassword } from '../../platform/password.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import {
  DEMO_PASSWORD,
  SEED_LOCK_ID,
  type SeedSummary,
  seedDemoIfEmpty,
  seedLargeCatalogue,
} from './index.ts';

let database: Database;
let dataDir: string;
let firstRuns: Array<SeedSummary | undefined>;
const quiet = { info: () => {} };

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'ss-seed-'));
  // Two at once, like two instances starting together.
  firstRuns = await Promise.all([
    seedDemoIfEmpty(database.db, dataDir, quiet),
    seedDemoIfEmpty(database.db, dataDir, quiet),
  ]);
});

afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function counts(): Promise<{ categories: number; users: number; products: number }> {
  const { rows } = await database.pool.query(
    `select (select count(*)::int from categories) as categories,
            (select count(*)::int from users) as users,
            (select count(*)::int from products) as products`,
  );
  return rows[0];
}

/** The file behind a /media/seed/... URL, as the app serves it from `${dataDir}/media`. */
function mediaFile(url: string): string {
  expect(url).toMatch(/^\/media\/seed\/(products|avatars)\/[a-z0-9_]+\.svg$/);
  return path.join(dataDir, url);
}

function expectSvg(url: string) {
  const file = mediaFile(url);
  expect(existsSync(file), `${url} exists`).toBe(true);
  const content = readFileSync(file, 'utf8');
  expect(content.startsWith('<svg')).toBe(true);
  expect(content.trimEnd().endsWith('</svg>')).toBe(true);
  expect(Buffer.byteLength(content)).toBeLessThan(4096);
}

describe('seedDemoIfEmpty', () => {
  it('seeds exactly once when two calls race', async () => {
    expect(firstRuns.filter(Boolean)).toHaveLength(1);
    const summary = firstRuns.find(Boolean);
    expect(summary).toMatchObject({ categories: 12, sellers: 20, products: 360 });
    expect(await counts()).toEqual({ categories: 12, users: 20, products: 360 });
  });

  it('creates about a dozen categories with unique URL slugs', async () => {
    const rows = await database.db.select().from(categories);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.length).toBeLessThanOrEqual(15);
    expect(new Set(rows.map((c) => c.slug)).size).toBe(rows.length);
    for (const c of rows) expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(rows.find((c) => c.slug === 'vinyl-records')?.name).toBe('Vinyl & Records');
  });

  it('creates about twenty sellers who sign in with the demo password', async () => {
    const rows = await database.db.select().from(users);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.length).toBeLessThanOrEqual(25);
    for (const u of rows) {
      expect(u.handle).toMatch(/^[a-z0-9_]{3,30}$/);
      expect(u.email).toMatch(/^[^\s@]+@example\.com$/);
      expect(u.profileImageUrl).toBe(`/media/seed/avatars/${u.handle}.svg`);
      expectSvg(u.profileImageUrl ?? '');
    }
    expect(new Set(rows.map((u) => u.plan))).toEqual(new Set(['free', 'pro']));
    expect(rows.some((u) => u.businessName)).toBe(true);
    expect(rows.some((u) => !u.businessName)).toBe(true);
    // One hash shared by all; verifying one is enough (argon2 is slow on purpose).
    expect(new Set(rows.map((u) => u.passwordHash)).size).toBe(1);
    expect(await verifyPassword(rows[0]?.passwordHash ?? null, DEMO_PASSWORD)).toBe(true);
  });

  it('creates several hundred products across every category, condition and price band', async () => {
    const rows = await database.db.select().from(products);
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const categoryIds = (await database.db.select({ id: categories.id }).from(categories)).map((c) => c.id);
    expect(new Set(rows.map((p) => p.categoryId))).toEqual(new Set(categoryIds));
    expect(new Set(rows.map((p) => p.condition))).toEqual(new Set(['new', 'used', 'refurbished']));
    expect(new Set(rows.map((p) => p.sellerId)).size).toBe(20);

    const prices = rows.map((p) => p.priceCents);
    for (const price of prices) expect(Number.isInteger(price)).toBe(true);
    expect(Math.min(...prices)).toBe(200);
    expect(Math.max(...prices)).toBe(250_000);

    const sixtyDaysAgo = Date.now() - 60 * 86_400_000;
    for (const p of rows) {
      expect(p.stock).toBeGreaterThanOrEqual(1);
      expect(p.stock).toBeLessThanOrEqual(25);
      expect(p.createdAt.getTime()).toBeGreaterThan(sixtyDaysAgo);
      expect(p.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
      expect(p.title.length).toBeGreaterThan(5);
      expect(p.description ?? '').toMatch(/^[A-Z0-9].{30,}\.$/s);
      expect(`${p.title} ${p.description}`).not.toMatch(/lorem|ipsum|undefined|NaN/i);
    }
    expect(new Set(rows.map((p) => p.title)).size).toBe(rows.length);

    const withoutImage = rows.filter((p) => p.imageUrl === null).length;
    expect(withoutImage).toBeGreaterThan(0);
    expect(withoutImage / rows.length).toBeLessThan(0.1);
  });

  it('schedules three upcoming shows with lineups, and every demo seller has followers', async () => {
    const { rows } = await database.pool.query(
      `select s.starts_at, (select count(*)::int from show_products p where p.show_id = s.id) as products
       from shows s where s.status = 'scheduled' order by s.starts_at`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(new Date(row.starts_at).getTime()).toBeGreaterThan(Date.now());
      expect(row.products).toBe(3);
    }
    const unfollowed = await database.pool.query(
      `select count(*)::int as n from users u
       where not exists (select 1 from follows f where f.seller_id = u.id)`,
    );
    expect(unfollowed.rows[0].n).toBe(0);
  });

  it('points every product image at a small, valid SVG file on disk', async () => {
    const rows = await database.db.selectDistinct({ url: products.imageUrl }).from(products);
    const urls = rows.map((r) => r.url).filter((url): url is string => url !== null);
    expect(urls.length).toBeGreaterThan(300);
    for (const url of urls) expectSvg(url);
  });

  it('does not seed again, but restores missing pictures', async () => {
    const before = await counts();
    const [{ imageUrl } = { imageUrl: null }] = await database.db
      .select({ imageUrl: products.imageUrl })
      .from(products)
      .where(sql`${products.imageUrl} is not null`)
      .limit(1);
    const file = mediaFile(imageUrl ?? '');
    rmSync(file);

    expect(await seedDemoIfEmpty(database.db, dataDir, quiet)).toBeUndefined();
    expect(await counts()).toEqual(before);
    expect(existsSync(file)).toBe(true);
  });
});

// PGlite has one connection, so instances cannot overlap there; on PostgreSQL they can.
describe.skipIf(!process.env.TEST_DATABASE_URL)('seedDemoIfEmpty on PostgreSQL', () => {
  it('lets only one of several instances seed when they all found the database empty', async () => {
    const other = await createTestDatabase();
    const otherDir = mkdtempSync(path.join(tmpdir(), 'ss-seed-'));
    const holder = await other.pool.connect();
    try {
      // Hold the seed lock so every call gets past its first emptiness check and queues behind it.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1::bigint)', [SEED_LOCK_ID]);
      const runs = Promise.all([1, 2, 3].map(() => seedDemoIfEmpty(other.db, otherDir, quiet)));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await holder.query('commit');
      expect((await runs).filter(Boolean)).toHaveLength(1);
      const { rows } = await other.pool.query('select count(*)::int as n from products');
      expect(rows[0].n).toBe(360);
    } finally {
      holder.release();
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe('seedLargeCatalogue', () => {
  it('adds exactly the number of products asked for, with pictures that exist', async () => {
    const before = await counts();
    const result = await seedLargeCatalogue(database.db, dataDir, 2000);
    expect(result.products).toBe(2000);
    const after = await counts();
    expect(after).toEqual({ ...before, products: before.products + 2000 });

    const rows = await database.db.selectDistinct({ url: products.imageUrl }).from(products);
    for (const { url } of rows) if (url) expectSvg(url);
    const conditions = await database.db.selectDistinct({ condition: products.condition }).from(products);
    expect(conditions).toHaveLength(3);
  });
});
