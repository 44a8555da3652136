import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  applyFilterPatch,
  exploreRequestParams,
  facetsRequestParams,
  type MarketplaceState,
  parsePrice,
  readMarketplaceState,
  toggleCategory,
  writeMarketplaceState,
} from './url-state.ts';

const read = (query: string, slugId: number | null = null) =>
  readMarketplaceState(new URLSearchParams(query), slugId);

const defaults: MarketplaceState = {
  q: '',
  categories: [],
  condition: null,
  minPrice: null,
  maxPrice: null,
  sort: 'newest',
  page: 1,
};

describe('marketplace URL state', () => {
  it('reads defaults from an empty address', () => {
    expect(read('')).toEqual(defaults);
  });

  it('reads every param', () => {
    expect(
      read('q=%20vinyl%20&category=3,7&condition=used&minPrice=10.5&maxPrice=99&sort=price_low&page=4'),
    ).toEqual({
      q: 'vinyl',
      categories: [3, 7],
      condition: 'used',
      minPrice: 10.5,
      maxPrice: 99,
      sort: 'price_low',
      page: 4,
    });
  });

  it('ignores garbage', () => {
    expect(read('category=x,-2,3,3&condition=broken&minPrice=abc&maxPrice=-5&sort=cheap&page=0')).toEqual({
      ...defaults,
      categories: [3],
    });
    expect(read('page=2.5').page).toBe(1);
  });

  it('uses the /c/{slug} category unless the address names categories', () => {
    expect(read('', 5).categories).toEqual([5]);
    expect(read('category=2', 5).categories).toEqual([2]);
  });

  it('writes only what differs from the defaults and round-trips', () => {
    expect(writeMarketplaceState(defaults).toString()).toBe('');
    const state: MarketplaceState = {
      q: 'lamp',
      categories: [4, 1],
      condition: 'refurbished',
      minPrice: 5,
      maxPrice: 20.25,
      sort: 'price_high',
      page: 3,
    };
    const params = writeMarketplaceState(state);
    expect(params.toString()).toBe(
      'q=lamp&category=4%2C1&condition=refurbished&minPrice=5&maxPrice=20.25&sort=price_high&page=3',
    );
    expect(readMarketplaceState(params)).toEqual(state);
    expect(writeMarketplaceState(state, { omitCategories: true }).has('category')).toBe(false);
  });

  it('resets to page 1 on any filter, search or sort change', () => {
    const onPage5 = { ...defaults, page: 5 };
    expect(applyFilterPatch(onPage5, { condition: 'new' })).toEqual({ ...defaults, condition: 'new' });
    expect(applyFilterPatch(onPage5, { categories: [2] }).page).toBe(1);
    expect(applyFilterPatch(onPage5, { minPrice: 3 }).page).toBe(1);
    expect(applyFilterPatch(onPage5, { q: 'tape' }).page).toBe(1);
    expect(applyFilterPatch(onPage5, { sort: 'price_low' }).page).toBe(1);
  });

  it('toggles categories in the order they were picked', () => {
    expect(toggleCategory([], 3)).toEqual([3]);
    expect(toggleCategory([3], 1)).toEqual([3, 1]);
    expect(toggleCategory([3, 1], 3)).toEqual([1]);
  });

  it('counts active filters', () => {
    expect(activeFilterCount(defaults)).toBe(0);
    expect(
      activeFilterCount({
        ...defaults,
        q: 'x',
        sort: 'price_low',
        categories: [1, 2],
        condition: 'new',
        minPrice: 0,
      }),
    ).toBe(4);
  });

  it('sends only the first selected category, the search as `search`, and limit 20', () => {
    const state: MarketplaceState = {
      ...defaults,
      q: 'disc',
      categories: [9, 2],
      condition: 'used',
      minPrice: 0,
      maxPrice: 15,
    };
    expect(exploreRequestParams(state).toString()).toBe(
      'search=disc&category=9&condition=used&minPrice=0&maxPrice=15&sort=newest&page=1&limit=20',
    );
    expect(facetsRequestParams(state).toString()).toBe(
      'search=disc&category=9&condition=used&minPrice=0&maxPrice=15',
    );
    expect(exploreRequestParams(defaults).toString()).toBe('sort=newest&page=1&limit=20');
  });

  it('parses prices as floats; empty means no bound', () => {
    expect(parsePrice('')).toBeNull();
    expect(parsePrice('  ')).toBeNull();
    expect(parsePrice(null)).toBeNull();
    expect(parsePrice('12.75')).toBe(12.75);
    expect(parsePrice('7abc')).toBe(7);
    expect(parsePrice('abc')).toBeNull();
  });
});
