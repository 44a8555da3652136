import { describe, expect, it } from 'vitest';
import { dashboardAudience, defaultTabFor, tabFromQuery } from './audience.ts';

const known = { products: 0, streams: 0, sales: 0, failed: false };

describe('dashboardAudience', () => {
  it('is a buyer with no product, stream or sale', () => {
    expect(dashboardAudience(known)).toBe('buyer');
    expect(defaultTabFor('buyer')).toBe('orders');
  });

  it.each([
    ['a product', { products: 1 }],
    ['a stream', { streams: 2 }],
    ['a sale of a product since deleted', { sales: 1 }],
  ])('is a seller with %s', (_what, part) => {
    expect(dashboardAudience({ ...known, ...part })).toBe('seller');
    expect(defaultTabFor('seller')).toBe('products');
  });

  it('is not known while any figure loads, and a seller when one failed', () => {
    expect(dashboardAudience({ ...known, products: undefined })).toBeUndefined();
    expect(dashboardAudience({ ...known, sales: undefined })).toBeUndefined();
    expect(dashboardAudience({ ...known, streams: undefined, failed: true })).toBe('seller');
  });
});

describe('tabFromQuery', () => {
  it('names the six tabs and nothing else', () => {
    expect(['products', 'streams', 'shows', 'orders', 'sales', 'earnings'].map(tabFromQuery)).toEqual([
      'products',
      'streams',
      'shows',
      'orders',
      'sales',
      'earnings',
    ]);
    expect(tabFromQuery('Orders')).toBeUndefined();
    expect(tabFromQuery(null)).toBeUndefined();
  });
});
