/** Benchmark data: a large generated catalogue over the demo categories and sellers. */

import type { Db } from '../../db/client.ts';
import { BULK_BATCH, buildDemoCatalogue, draftProduct, NO_IMAGE_SHARE } from './catalogue.ts';
import { CATEGORIES } from './categories.ts';
import { type SeedOptions, seedDemoIfEmpty } from './demo.ts';
import { hashString, mulberry32, productImageUrl, type Rng } from './images.ts';
import type { CategoryDef } from './items.ts';
import { SELLERS, sellersBySlug } from './sellers.ts';
import {
  categoryIdsBySlug,
  insertProductColumns,
  type ProductColumns,
  productCount,
  userIdsByHandle,
  vacuumAnalyze,
} from './store.ts';

export interface LargeCatalogueSummary {
  products: number;
  /** Total time, VACUUM ANALYZE included. */
  ms: number;
  vacuumMs: number;
}

/**
 * Benchmark data: adds `count` generated products spread over the demo categories and sellers
 * (seeding the demo first when the database is empty). Rows are built in JS and inserted in
 * batches of BULK_BATCH with one `INSERT ... SELECT FROM unnest(...)` each, in one transaction.
 */
export async function seedLargeCatalogue(
  db: Db,
  dataDir: string,
  count: number,
  options: SeedOptions = {},
): Promise<LargeCatalogueSummary> {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`product count must be a whole number, got ${count}`);
  const log = options.log ?? (() => {});
  await seedDemoIfEmpty(db, dataDir, { info: log });
  const started = performance.now();

  const categoryIds = await categoryIdsBySlug(db);
  const sellerIds = await userIdsByHandle(
    db,
    SELLERS.map((s) => s.handle),
  );
  const firstSeller = sellerIds.keys().next().value ?? '';
  const usable = CATEGORIES.filter(
    (c) => categoryIds.has(c.slug) && sellersBySlug.get(c.slug)?.some((h) => sellerIds.has(h)),
  );
  if (usable.length === 0)
    throw new Error('seed: the demo categories and sellers are missing; cannot add products');

  // Pictures: each category cycles through the demo pictures drawn for it.
  const imagesBySlug = new Map<string, number[]>();
  for (const p of buildDemoCatalogue()) {
    if (p.image === undefined) continue;
    const list = imagesBySlug.get(p.slug) ?? [];
    list.push(p.image);
    imagesBySlug.set(p.slug, list);
  }
  const imageTurn = new Map<string, number>();

  const totalWeight = usable.reduce((sum, c) => sum + c.demoCount, 0);
  const pickCategory = (r: Rng): CategoryDef => {
    let x = r() * totalWeight;
    for (const c of usable) {
      x -= c.demoCount;
      if (x < 0) return c;
    }
    return usable[usable.length - 1] as CategoryDef;
  };

  const existing = await productCount(db);
  const r = mulberry32(hashString('large-catalogue') ^ existing);
  const now = Date.now();

  await db.transaction(async (tx) => {
    for (let done = 0; done < count; done += BULK_BATCH) {
      const size = Math.min(BULK_BATCH, count - done);
      const cols: ProductColumns = {
        sellerId: new Array<string>(size),
        categoryId: new Array<number>(size),
        title: new Array<string>(size),
        description: new Array<string>(size),
        priceCents: new Array<number>(size),
        condition: new Array<string>(size),
        imageUrl: new Array<string | null>(size),
        stock: new Array<number>(size),
        createdAt: new Array<string>(size),
      };
      for (let i = 0; i < size; i++) {
        const category = pickCategory(r);
        let draft = draftProduct(r, category, 60);
        if (!sellerIds.has(draft.seller)) draft = { ...draft, seller: firstSeller };
        const images = imagesBySlug.get(category.slug) ?? [];
        const turn = imageTurn.get(category.slug) ?? 0;
        imageTurn.set(category.slug, turn + 1);
        const image = images.length > 0 && r() >= NO_IMAGE_SHARE ? images[turn % images.length] : undefined;
        cols.sellerId[i] = sellerIds.get(draft.seller) ?? '';
        cols.categoryId[i] = categoryIds.get(category.slug) ?? 0;
        cols.title[i] = draft.title;
        cols.description[i] = draft.description;
        cols.priceCents[i] = draft.priceCents;
        cols.condition[i] = draft.condition;
        cols.imageUrl[i] = image === undefined ? null : productImageUrl(image);
        cols.stock[i] = draft.stock;
        cols.createdAt[i] = new Date(now - draft.ageMs).toISOString();
      }
      await insertProductColumns(tx, cols);
      log(`  ${done + size} / ${count} products`);
    }
  });
  const vacuumStarted = performance.now();
  await vacuumAnalyze(db);
  const finished = performance.now();
  return {
    products: count,
    ms: Math.round(finished - started),
    vacuumMs: Math.round(finished - vacuumStarted),
  };
}
