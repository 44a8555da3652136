/**
 * The demo catalogue: every product drawn from a seeded PRNG, so every seeded database holds the
 * same catalogue (only the timestamps follow the clock). All demo sellers sign in with DEMO_PASSWORD.
 */

import { CATEGORIES } from './categories.ts';
import {
  between,
  ensureSeedImages,
  hashString,
  type Motif,
  mulberry32,
  type ProductArt,
  pick,
  type Rng,
  type SeedImagesResult,
} from './images.ts';
import type { CategoryDef, Condition } from './items.ts';
import { SELLERS, sellersBySlug } from './sellers.ts';

export const DEMO_PASSWORD = 'demo-password';
export const DAY_MS = 86_400_000;
export const MIN_PRICE_CENTS = 200;
export const MAX_PRICE_CENTS = 250_000;
/** Arbitrary constant, next to the migration lock (727_001): serialises seeding across instances. */
export const SEED_LOCK_ID = 727_002;
export const DEMO_SEED = 20_240_601;
export const INSERT_CHUNK = 500;
export const BULK_BATCH = 5_000;
export const NO_IMAGE_SHARE = 0.05;

export interface Draft {
  slug: string;
  seller: string;
  title: string;
  short: string;
  description: string;
  motif: Motif;
  condition: Condition;
  priceCents: number;
  stock: number;
  /** How long before "now" it was listed. */
  ageMs: number;
}

export interface DemoProduct extends Draft {
  /** Picture products/<n>.svg, or undefined for the few shown without an image. */
  image: number | undefined;
  label: string;
}

export function pickCondition(r: Rng, [n, u]: [number, number, number]): Condition {
  const x = r();
  if (x < n) return 'new';
  if (x < n + u) return 'used';
  return 'refurbished';
}

/** Log-uniform within the range, then rounded the way people price things. */
export function priceCents(r: Rng, [low, high]: [number, number]): number {
  const dollars = Math.exp(Math.log(low) + r() * (Math.log(high) - Math.log(low)));
  const cents = Math.round(dollars * 100);
  let price: number;
  if (cents < 2_000) price = Math.round(cents / 50) * 50 - (r() < 0.5 ? 1 : 0);
  else if (cents < 20_000) price = Math.round(cents / 100) * 100 - (r() < 0.6 ? 1 : 0);
  else if (cents < 100_000) price = Math.round(cents / 500) * 500;
  else price = Math.round(cents / 2_500) * 2_500;
  return Math.min(MAX_PRICE_CENTS, Math.max(MIN_PRICE_CENTS, price));
}

export function draftProduct(r: Rng, category: CategoryDef, maxAgeDays: number): Draft {
  const condition = pickCondition(r, category.conditions);
  const item = category.make(r, condition);
  return {
    slug: category.slug,
    seller: pick(r, sellersBySlug.get(category.slug) ?? []),
    title: item.title,
    short: item.short,
    description: item.description,
    motif: item.motif,
    condition,
    priceCents: priceCents(r, item.price),
    stock: between(
      r,
      1,
      Math.min(item.maxStock ?? 25, condition === 'new' ? 25 : condition === 'used' ? 3 : 6),
    ),
    ageMs: Math.floor(r() * (maxAgeDays * DAY_MS - 60_000)),
  };
}

let demoCatalogue: DemoProduct[] | undefined;

/** The demo products, always the same ones (pure function of DEMO_SEED), computed once. */
export function buildDemoCatalogue(): DemoProduct[] {
  if (demoCatalogue) return demoCatalogue;
  const r = mulberry32(DEMO_SEED);
  const list: DemoProduct[] = [];
  const seen = new Set<string>();
  for (const category of CATEGORIES) {
    for (let i = 0; i < category.demoCount; i++) {
      let draft = draftProduct(r, category, 60);
      for (let retry = 0; retry < 10 && seen.has(draft.title); retry++) draft = draftProduct(r, category, 60);
      seen.add(draft.title);
      list.push({ ...draft, image: undefined, label: category.name });
    }
  }
  list.forEach((product, i) => {
    product.image = r() < NO_IMAGE_SHARE ? undefined : i + 1;
  });
  // Make the catalogue span the whole price range: its cheapest item at $2, its dearest at $2,500.
  const byPrice = [...list].sort((a, b) => a.priceCents - b.priceCents);
  const cheapest = byPrice[0];
  const dearest = byPrice[byPrice.length - 1];
  if (cheapest) cheapest.priceCents = MIN_PRICE_CENTS;
  if (dearest) dearest.priceCents = MAX_PRICE_CENTS;
  demoCatalogue = list;
  return list;
}

export function demoArt(): { products: ProductArt[]; avatars: Array<{ handle: string; name: string }> } {
  return {
    products: buildDemoCatalogue().flatMap((p) =>
      p.image === undefined
        ? []
        : [
            {
              n: p.image,
              motif: p.motif,
              label: p.label,
              title: p.short,
              seed: hashString(`${p.image}:${p.title}`),
            },
          ],
    ),
    avatars: SELLERS.map((s) => ({
      handle: s.handle,
      name: s.businessName ?? `${s.firstName} ${s.lastName}`,
    })),
  };
}

/** Writes the demo pictures and avatars that are missing under `${dataDir}/media/seed/`. */
export function ensureDemoImages(dataDir: string): SeedImagesResult {
  return ensureSeedImages(dataDir, demoArt());
}
