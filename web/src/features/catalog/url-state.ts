import {
  CONDITIONS,
  type Condition,
  EXPLORE_PAGE_SIZE,
  SORTS,
  type Sort,
} from '@streamshop/contract/constants.ts';

/**
 * The marketplace's browse state. It lives in the address (search params) so a link, a reload and
 * the back button all show the same results.
 *
 * URL params: q, category (ids, comma-separated, in the order they were picked), condition,
 * minPrice, maxPrice (dollars), sort, page. Defaults are left out of the address.
 */
export interface MarketplaceState {
  q: string;
  /** Selected category ids; only the first is sent to the API (spec section 7). */
  categories: number[];
  condition: Condition | null;
  /** Dollars; null means no bound. */
  minPrice: number | null;
  maxPrice: number | null;
  sort: Sort;
  page: number;
}

export type FilterPatch = Partial<Omit<MarketplaceState, 'page'>>;

export const DEFAULT_SORT: Sort = 'newest';

export const SORT_LABELS: Record<Sort, string> = {
  newest: 'Newest',
  relevance: 'Relevance',
  price_low: 'Price: Low to High',
  price_high: 'Price: High to Low',
};

/** Spec section 5: prices are parsed as floats; an empty (or unusable) value means no bound. */
export function parsePrice(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const parsed = Number.parseFloat(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : null;
}

function parseIds(value: string | null): number[] {
  if (!value) return [];
  const ids: number[] = [];
  for (const part of value.split(',')) {
    const id = Number(part.trim());
    if (Number.isInteger(id) && id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Reads the state from the address. On /c/{slug} the slug's category id (once known) is the
 * category unless the address names categories itself.
 */
export function readMarketplaceState(
  params: URLSearchParams,
  slugCategoryId: number | null = null,
): MarketplaceState {
  const condition = params.get('condition');
  const sort = params.get('sort');
  const categories = parseIds(params.get('category'));
  return {
    q: params.get('q')?.trim() ?? '',
    categories: categories.length === 0 && slugCategoryId !== null ? [slugCategoryId] : categories,
    condition: CONDITIONS.includes(condition as Condition) ? (condition as Condition) : null,
    minPrice: parsePrice(params.get('minPrice')),
    maxPrice: parsePrice(params.get('maxPrice')),
    sort: SORTS.includes(sort as Sort) ? (sort as Sort) : DEFAULT_SORT,
    page: parsePage(params.get('page')),
  };
}

/** The address params for a state; defaults (no filter, newest, page 1) are left out. */
export function writeMarketplaceState(
  state: MarketplaceState,
  options: { omitCategories?: boolean } = {},
): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.categories.length > 0 && !options.omitCategories) {
    params.set('category', state.categories.join(','));
  }
  if (state.condition) params.set('condition', state.condition);
  if (state.minPrice !== null) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice !== null) params.set('maxPrice', String(state.maxPrice));
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** A change of search, category, filters or sort starts again at page 1. */
export function applyFilterPatch(state: MarketplaceState, patch: FilterPatch): MarketplaceState {
  return { ...state, ...patch, page: 1 };
}

/** Adds the category at the end of the selection, or removes it. */
export function toggleCategory(categories: number[], id: number): number[] {
  return categories.includes(id) ? categories.filter((c) => c !== id) : [...categories, id];
}

/** Selected categories, condition and each price bound count as one active filter each. */
export function activeFilterCount(state: MarketplaceState): number {
  return (
    state.categories.length +
    (state.condition ? 1 : 0) +
    (state.minPrice !== null ? 1 : 0) +
    (state.maxPrice !== null ? 1 : 0)
  );
}

/** Query string of GET /api/facets: the search and filters (the server leaves a facet's own filter out). */
export function facetsRequestParams(state: MarketplaceState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('search', state.q);
  const category = state.categories[0];
  if (category !== undefined) params.set('category', String(category));
  if (state.condition) params.set('condition', state.condition);
  if (state.minPrice !== null) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice !== null) params.set('maxPrice', String(state.maxPrice));
  return params;
}

/** Query string of GET /api/explore: only the first selected category is sent; limit is 20. */
export function exploreRequestParams(state: MarketplaceState): URLSearchParams {
  const params = facetsRequestParams(state);
  params.set('sort', state.sort);
  params.set('page', String(state.page));
  params.set('limit', String(EXPLORE_PAGE_SIZE));
  return params;
}
