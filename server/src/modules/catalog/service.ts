import type {
  ExploreResponse,
  exploreQuerySchema,
  FacetsResponse,
  Product,
  productBodySchema,
} from '@streamshop/contract/catalog.ts';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { listLiveStreamsCached } from '../streams/service.ts';
import {
  anyFullTextMatch,
  countByCategory,
  countByCondition,
  countProducts,
  findProducts,
  type ProductFilter,
  type SearchMode,
} from './explore-repo.ts';
import { toProduct } from './product-row.ts';
import {
  categoryExists,
  deleteOwnProduct,
  findProduct,
  findProductsOfSeller,
  insertProduct,
  retireProductsOfSeller,
  updateOwnProduct,
} from './products-repo.ts';

export { uploadKeyOf } from './image-upload.ts';
export { assertOwnUpload, NOT_YOUR_UPLOAD } from './image-url.ts';
export { findProductPage, productPage } from './product-page.ts';
export { releaseUploadsOf } from './uploads-repo.ts';

export type ExploreQuery = z.output<typeof exploreQuerySchema>;
export type ProductInput = z.output<typeof productBodySchema>;
type FacetsQuery = Omit<ExploreQuery, 'sort' | 'page' | 'limit'>;

function toFilter(query: Omit<ExploreQuery, 'sort' | 'page' | 'limit'>): ProductFilter {
  return {
    search: query.search || undefined,
    categoryId: query.category,
    condition: query.condition,
    minPriceCents: query.minPrice === undefined ? undefined : Math.round(query.minPrice * 100),
    maxPriceCents: query.maxPrice === undefined ? undefined : Math.round(query.maxPrice * 100),
  };
}

/**
 * Full-text first; when the term matches nothing in the whole catalogue, trigram similarity catches
 * typos ('rangefindr' -> 'rangefinder'). Decided by the term alone, so explore and facets always
 * agree for the same search whatever the filters.
 */
async function searchMode(db: Db, search: string | undefined): Promise<SearchMode> {
  if (!search) return 'fulltext';
  return (await anyFullTextMatch(db, search)) ? 'fulltext' : 'fuzzy';
}

export async function explore(db: Db, query: ExploreQuery): Promise<ExploreResponse> {
  const filter = toFilter(query);
  if (
    filter.minPriceCents !== undefined &&
    filter.maxPriceCents !== undefined &&
    filter.minPriceCents > filter.maxPriceCents
  ) {
    throw badRequest('Invalid maxPrice: must not be below minPrice', {
      maxPrice: 'must not be below minPrice',
    });
  }
  const mode = await searchMode(db, filter.search);
  const [count, live] = await Promise.all([countProducts(db, filter, mode), listLiveStreamsCached(db)]);
  const offset = (query.page - 1) * query.limit;
  const rows =
    offset < count.total ? await findProducts(db, filter, mode, query.sort, query.limit, offset) : [];
  return {
    products: rows.map(toProduct),
    live,
    pagination: {
      page: query.page,
      limit: query.limit,
      total: count.total,
      totalPages: Math.ceil(count.total / query.limit),
      totalIsEstimate: count.estimate,
    },
  };
}

/**
 * Facet counts aggregate over the whole catalogue, so each distinct query is kept for a few
 * seconds; a product change on this instance drops them at once, other instances within the TTL.
 */
const FACETS_TTL_MS = 10_000;
const FACETS_CACHE_SIZE = 500;
const facetsCache = new WeakMap<Db, Map<string, { at: number; value: Promise<FacetsResponse> }>>();

function forgetFacets(db: Db) {
  facetsCache.get(db)?.clear();
}

export function facets(db: Db, query: FacetsQuery): Promise<FacetsResponse> {
  let cache = facetsCache.get(db);
  if (!cache) {
    cache = new Map();
    facetsCache.set(db, cache);
  }
  const key = JSON.stringify(toFilter(query));
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < FACETS_TTL_MS) return hit.value;
  if (cache.size >= FACETS_CACHE_SIZE) cache.clear();
  const value = countFacets(db, query);
  const entries = cache;
  entries.set(key, { at: Date.now(), value });
  value.catch(() => entries.delete(key));
  return value;
}

async function countFacets(db: Db, query: FacetsQuery): Promise<FacetsResponse> {
  const filter = toFilter(query);
  const mode = await searchMode(db, filter.search);
  const [categories, conditions] = await Promise.all([
    countByCategory(db, filter, mode),
    countByCondition(db, filter, mode),
  ]);
  return {
    categories: categories.map((c) => ({
      id: c.id,
      name: c.name,
      slug: c.slug,
      productCount: Number(c.product_count),
    })),
    conditions: (['new', 'used', 'refurbished'] as const).map((condition) => ({
      condition,
      productCount: Number(conditions.find((c) => c.condition === condition)?.product_count ?? 0),
    })),
  };
}

async function assertCategory(db: Db, categoryId: number) {
  if (!(await categoryExists(db, categoryId))) {
    throw badRequest('Invalid categoryId: no such category', { categoryId: 'no such category' });
  }
}

/** Only a shipped product has shipping to charge. */
const withShipping = (input: ProductInput) => ({
  ...input,
  shippingCents: input.fulfillment === 'ship' ? input.shippingCents : 0,
});

export async function createProduct(db: Db, sellerId: string, input: ProductInput): Promise<Product> {
  await assertCategory(db, input.categoryId);
  const product = toProduct(await insertProduct(db, sellerId, withShipping(input)));
  forgetFacets(db);
  return product;
}

/** 404 unless the product is the seller's own (someone else's answers like a missing one). */
export async function assertOwnProduct(db: Db, sellerId: string, id: string): Promise<void> {
  const product = await findProduct(db, id);
  if (product?.seller_id !== sellerId) throw notFound('Product not found');
}

/** Someone else's product answers 404 like a missing one, so ids of others are not confirmed. */
export async function updateProduct(
  db: Db,
  sellerId: string,
  id: string,
  input: ProductInput,
): Promise<Product> {
  await assertCategory(db, input.categoryId);
  const row = await updateOwnProduct(db, sellerId, id, withShipping(input));
  if (!row) throw notFound('Product not found');
  forgetFacets(db);
  return toProduct(row);
}

export async function deleteProduct(db: Db, sellerId: string, id: string): Promise<void> {
  if (!(await deleteOwnProduct(db, sellerId, id))) throw notFound('Product not found');
  forgetFacets(db);
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const row = await findProduct(db, id);
  if (!row) throw notFound('Product not found');
  return toProduct(row);
}

export async function listSellerProducts(db: Db, sellerId: string, limit?: number): Promise<Product[]> {
  return (await findProductsOfSeller(db, sellerId, limit)).map(toProduct);
}

/** The seller's account is being deleted: their products leave the catalogue (see the repo). */
export async function retireSellerProducts(
  db: Db,
  tx: Db | Tx,
  sellerId: string,
): Promise<{ deleted: number; unlisted: number; deletedImageUrls: string[] }> {
  const retired = await retireProductsOfSeller(tx, sellerId);
  forgetFacets(db);
  return retired;
}
