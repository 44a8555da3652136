/** Writing the demo data (categories, sellers, products) to the database, once across instances. */

import type { Db, Tx } from '../../db/client.ts';
import { hashPassword } from '../../platform/password.ts';
import {
  buildDemoCatalogue,
  DAY_MS,
  DEMO_PASSWORD,
  ensureDemoImages,
  INSERT_CHUNK,
  SEED_LOCK_ID,
} from './catalogue.ts';
import { CATEGORIES } from './categories.ts';
import { insertDemoReplay } from './demo-replay.ts';
import { insertDemoShows } from './demo-shows.ts';
import { avatarUrl, productImageUrl } from './images.ts';
import { SELLERS } from './sellers.ts';
import {
  categoryIdsBySlug,
  hasCategories,
  insertCategories,
  insertProducts,
  insertSellers,
  lockSeed,
  userIdsByHandle,
  vacuumAnalyze,
} from './store.ts';

// ---------------------------------------------------------------------------------------------
// Writing to the database
// ---------------------------------------------------------------------------------------------

export interface SeedSummary {
  categories: number;
  sellers: number;
  products: number;
  imagesWritten: number;
  ms: number;
}

export interface SeedOptions {
  log?: (msg: string) => void;
}

export interface Inserted {
  categories: number;
  sellers: number;
  products: number;
}

/** Categories and sellers are upserted (kept if present); the demo products are always added. */
export async function insertDemo(tx: Tx, passwordHash: string): Promise<Inserted> {
  const now = Date.now();
  await insertCategories(
    tx,
    CATEGORIES.map((c) => ({ name: c.name, slug: c.slug })),
  );
  const categoryIds = await categoryIdsBySlug(
    tx,
    CATEGORIES.map((c) => c.slug),
  );

  await insertSellers(
    tx,
    SELLERS.map((s, i) => ({
      handle: s.handle,
      email: `${s.handle}@example.com`,
      passwordHash,
      firstName: s.firstName,
      lastName: s.lastName,
      businessName: s.businessName ?? null,
      profileImageUrl: avatarUrl(s.handle),
      plan: s.plan,
      createdAt: new Date(now - (75 + i * 17) * DAY_MS),
    })),
  );
  const sellerIds = await userIdsByHandle(
    tx,
    SELLERS.map((s) => s.handle),
  );

  const rows = buildDemoCatalogue().map((p) => {
    const sellerId = sellerIds.get(p.seller);
    const categoryId = categoryIds.get(p.slug);
    if (!sellerId || !categoryId) throw new Error(`seed: missing seller ${p.seller} or category ${p.slug}`);
    const createdAt = new Date(now - p.ageMs);
    return {
      sellerId,
      categoryId,
      title: p.title,
      description: p.description,
      priceCents: p.priceCents,
      condition: p.condition,
      imageUrl: p.image === undefined ? null : productImageUrl(p.image),
      stock: p.stock,
      createdAt,
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await insertProducts(tx, rows.slice(i, i + INSERT_CHUNK));
  }
  await insertDemoReplay(tx, sellerIds, now);
  await insertDemoShows(tx, sellerIds, now);
  return { categories: categoryIds.size, sellers: sellerIds.size, products: rows.length };
}

export async function runSeed(
  db: Db,
  dataDir: string,
  onlyIfEmpty: boolean,
  log: (msg: string) => void,
): Promise<SeedSummary | undefined> {
  const started = performance.now();
  const images = ensureDemoImages(dataDir);
  if (onlyIfEmpty && (await hasCategories(db))) return undefined;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const inserted = await db.transaction(async (tx) => {
    // Two instances starting at once on one PostgreSQL: the second waits here, then sees the data.
    await lockSeed(tx, SEED_LOCK_ID);
    if (onlyIfEmpty && (await hasCategories(tx))) return undefined;
    return insertDemo(tx, passwordHash);
  });
  if (!inserted) return undefined;
  await vacuumAnalyze(db);
  const summary: SeedSummary = {
    ...inserted,
    imagesWritten: images.written,
    ms: Math.round(performance.now() - started),
  };
  log(
    `Seeded demo data: ${summary.categories} categories, ${summary.sellers} sellers, ${summary.products} products ` +
      `(${summary.imagesWritten} images written) in ${(summary.ms / 1000).toFixed(1)} s. ` +
      `Demo sellers sign in with the password '${DEMO_PASSWORD}'.`,
  );
  return summary;
}

/**
 * Seeds the demo catalogue: categories and sellers (kept when they exist already) and the demo
 * products (always added), plus their pictures. Use seedDemoIfEmpty to seed only once.
 */
export async function seedDemo(db: Db, dataDir: string, options: SeedOptions = {}): Promise<SeedSummary> {
  const summary = await runSeed(db, dataDir, false, options.log ?? (() => {}));
  if (!summary) throw new Error('seed: nothing was inserted');
  return summary;
}

/**
 * Makes sure the seed pictures exist (cheap, every start) and seeds the demo when there are no
 * categories yet. Safe when several instances start at once. Returns undefined when it skipped.
 */
export async function seedDemoIfEmpty(
  db: Db,
  dataDir: string,
  log: { info(msg: string): void },
): Promise<SeedSummary | undefined> {
  return runSeed(db, dataDir, true, (msg) => log.info(msg));
}
