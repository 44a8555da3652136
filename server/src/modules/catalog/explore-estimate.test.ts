import { EXACT_TOTAL_LIMIT } from '@streamshop/contract/catalog.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedLargeCatalogue } from '../../cli/seed/index.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let products: number;
beforeAll(async () => {
  t = await buildTestApp();
  await seedLargeCatalogue(t.database.db, t.config.dataDir, EXACT_TOTAL_LIMIT * 3);
  const { rows } = await t.database.pool.query('select count(*)::int as n from products');
  products = rows[0].n;
}, 120_000);
afterAll(async () => {
  await t.close();
});

it('estimates a large total instead of counting it, and says so', async () => {
  const { pagination } = (await t.app.inject({ url: '/api/explore' })).json();
  expect(pagination.totalIsEstimate).toBe(true);
  expect(pagination.total).toBeGreaterThan(products * 0.8);
  expect(pagination.total).toBeLessThan(products * 1.2);
  expect(pagination.totalPages).toBe(Math.ceil(pagination.total / 20));
});

it('counts a narrow query exactly', async () => {
  const { pagination } = (await t.app.inject({ url: '/api/explore?minPrice=2400' })).json();
  const { rows } = await t.database.pool.query(
    'select count(*)::int as n from products where price_cents >= 240000',
  );
  expect(pagination).toMatchObject({ total: rows[0].n, totalIsEstimate: false });
});
