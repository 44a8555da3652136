import type { ExploreResponse, FacetsResponse } from '@streamshop/contract/catalog.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast, waitForVideoFrame } from './page-checks.ts';

const SEEDED_SELLER = 'groovevault_records';

const e2e = useE2e({ env: { SEED_DEMO: 'true' } });
const { newPage } = e2e;

async function api<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, e2e.server.url));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

function params(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** Waits until the grid shows the answer for an explore query containing every given param. */
async function waitForResults(page: Page, expected: Record<string, string>) {
  const parts = Object.entries(expected).map(
    ([key, value]) => `[data-query*="${key}=${encodeURIComponent(value)}&"]`,
  );
  await page.locator(`[data-testid="products-section"][data-busy="false"]${parts.join('')}`).waitFor();
}

const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));

async function shownPrices(page: Page): Promise<number[]> {
  return (await page.getByTestId('product-price').allTextContents()).map(dollars);
}

async function shownTitles(page: Page): Promise<string[]> {
  return page.getByTestId('product-title').allTextContents();
}

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

const signUp = (page: Page) => signUpThroughForm(page, 'mk');

/** A 1x1 PNG for the upload field. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('marketplace', { timeout: 90_000 }, () => {
  it('filters by category, condition and price and sorts by price via the UI', async () => {
    // Pick filters that the demo catalogue can answer: the biggest category, its most common
    // condition and the middle of its price range.
    const all = await api<FacetsResponse>('/api/facets');
    const category = [...all.categories].sort((a, b) => b.productCount - a.productCount)[0];
    if (!category) throw new Error('no categories seeded');
    const inCategory = await api<FacetsResponse>(`/api/facets?category=${category.id}`);
    const condition = [...inCategory.conditions].sort((a, b) => b.productCount - a.productCount)[0]
      ?.condition;
    if (!condition) throw new Error('no conditions');
    const sample = await api<ExploreResponse>(
      `/api/explore?category=${category.id}&condition=${condition}&sort=price_low&limit=100`,
    );
    const cents = sample.products.map((p) => p.priceCents);
    const minPrice = Math.floor((cents[Math.floor(cents.length / 4)] ?? 0) / 100);
    const maxPrice = Math.ceil((cents[Math.floor((cents.length * 3) / 4)] ?? 10_000) / 100);
    const expected = await api<ExploreResponse>(
      `/api/explore?category=${category.id}&condition=${condition}&minPrice=${minPrice}&maxPrice=${maxPrice}&sort=price_low`,
    );
    expect(expected.products.length).toBeGreaterThan(0);

    const watched = await newPage();
    const { page } = watched;
    await page.goto('/explore');
    await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();
    await waitForResults(page, { page: '1' });
    expect(await page.getByTestId('product-card').count()).toBe(20);

    await page.getByTestId(`category-${category.slug}`).click();
    await waitForResults(page, { category: String(category.id) });
    await page.getByTestId(`condition-${condition}`).click();
    await waitForResults(page, { condition });
    await page.getByTestId('min-price').fill(String(minPrice));
    await page.getByTestId('max-price').fill(String(maxPrice));
    await page.getByTestId('max-price').press('Enter');
    await waitForResults(page, { minPrice: String(minPrice), maxPrice: String(maxPrice) });
    await page.getByTestId('sort-select').selectOption('price_low');
    await waitForResults(page, { sort: 'price_low', minPrice: String(minPrice), condition });

    const query = params(page);
    expect(Object.fromEntries(query)).toEqual({
      category: String(category.id),
      condition,
      minPrice: String(minPrice),
      maxPrice: String(maxPrice),
      sort: 'price_low',
    });
    expect(await page.getByTestId('active-filter-count').textContent()).toBe('4 filters active');
    expect(await page.getByTestId('result-summary').textContent()).toContain(
      `${expected.pagination.total.toLocaleString('en-US')} product`,
    );

    const prices = await shownPrices(page);
    expect(prices.length).toBe(Math.min(20, expected.pagination.total));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const price of prices) {
      expect(price).toBeGreaterThanOrEqual(minPrice);
      expect(price).toBeLessThanOrEqual(maxPrice);
    }
    const badges = await page.getByTestId('product-condition').allTextContents();
    expect(new Set(badges)).toEqual(new Set([condition.toUpperCase()]));
    expect(await shownTitles(page)).toEqual(expected.products.slice(0, 20).map((p) => p.title));

    // A reload shows the same results.
    await page.reload();
    await waitForResults(page, { sort: 'price_low', condition });
    expect(await shownPrices(page)).toEqual(prices);
    expect(await page.getByTestId(`category-${category.slug}`).isChecked()).toBe(true);
    expect(await page.getByTestId('min-price').inputValue()).toBe(String(minPrice));

    // /c/{slug} shows the same category.
    await page.goto(`/c/${category.slug}`);
    await waitForResults(page, { category: String(category.id) });
    expect(await page.getByTestId(`category-${category.slug}`).isChecked()).toBe(true);
    watched.expectNoErrors(signedOut);
  });

  it('paginates to page 2 and back with the browser back button', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/explore');
    await waitForResults(page, { page: '1' });
    const firstPage = await shownTitles(page);
    await page.screenshot({ path: `${SCREENSHOTS}explore.png`, fullPage: true });

    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    expect(
      await pagination.getByRole('button', { name: 'Page 1', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await pagination.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    const explore = await api<ExploreResponse>('/api/explore');
    const lastPage = explore.pagination.totalPages;
    expect(lastPage).toBeGreaterThan(5);
    await pagination.getByRole('button', { name: `Page ${lastPage}` }).waitFor();

    await pagination.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.waitForURL(/[?&]page=2/);
    await waitForResults(page, { page: '2' });
    const secondPage = await shownTitles(page);
    expect(secondPage).toHaveLength(20);
    expect(secondPage).not.toEqual(firstPage);
    expect(
      await pagination.getByRole('button', { name: 'Page 2', exact: true }).getAttribute('aria-current'),
    ).toBe('page');

    // Next works from the keyboard too.
    await pagination.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await waitForResults(page, { page: '3' });
    expect(params(page).get('page')).toBe('3');

    await page.goBack();
    await waitForResults(page, { page: '2' });
    expect(await shownTitles(page)).toEqual(secondPage);
    await page.goBack();
    await waitForResults(page, { page: '1' });
    expect(params(page).has('page')).toBe(false);
    expect(await shownTitles(page)).toEqual(firstPage);

    // A filter change starts again at page 1.
    await pagination.getByRole('button', { name: 'Page 2', exact: true }).click();
    await waitForResults(page, { page: '2' });
    await page.getByTestId('condition-used').click();
    await waitForResults(page, { condition: 'used', page: '1' });
    expect(params(page).has('page')).toBe(false);
    watched.expectNoErrors(signedOut);
  });

  it('searches for a word from the nav bar', async () => {
    const sample = await api<ExploreResponse>('/api/explore?limit=1');
    const word = (sample.products[0]?.title ?? '')
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= 4)
      .sort((a, b) => b.length - a.length)[0];
    if (!word) throw new Error('no searchable word in the demo titles');

    const watched = await newPage();
    const { page } = watched;
    await page.goto('/explore');
    await page.getByTestId('nav-search').fill(`  ${word}  `);
    await page.getByTestId('nav-search').press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === word);
    await page.getByRole('heading', { level: 1, name: 'Search Results' }).waitFor();
    await waitForResults(page, { search: word });
    const cards = page.getByTestId('product-card');
    expect(await cards.count()).toBeGreaterThan(0);
    const stem = word.slice(0, 4).toLowerCase();
    expect((await cards.first().textContent())?.toLowerCase()).toContain(stem);
    expect(await page.getByTestId('result-summary').textContent()).toMatch(/products? found$/);
    watched.expectNoErrors(signedOut);
  });

  it('adds, edits and deletes a product in the dashboard', async () => {
    const facets = await api<FacetsResponse>('/api/facets');
    const category = facets.categories[0];
    if (!category) throw new Error('no categories');

    const watched = await newPage({ bypassCSP: true });
    const { page } = watched;
    const handle = await signUp(page);
    // Nothing sold yet: their orders first, and an invitation to start selling.
    await page.getByText(`Welcome, @${handle}`).waitFor();
    expect(await page.getByTestId('upgrade-link').getAttribute('href')).toBe('/subscribe');
    expect(await page.getByTestId('go-live-link').getAttribute('href')).toBe('/golive');
    await page.getByTestId('dashboard-orders-empty').waitFor();
    await expectNoSeriousA11yProblems(page);

    // Add: from Start selling, which opens the dialog over the (empty) Products tab.
    await page.getByTestId('start-selling-add-product').click();
    const dialog = page.getByRole('dialog', { name: 'Add Product' });
    await dialog.waitFor();
    await dialog.getByLabel('Title').fill('E2E Test Turntable');
    await dialog.getByLabel('Description').fill('A belt-drive turntable listed by the e2e suite.');
    await dialog.getByLabel('Price (USD)').fill('12.34');
    await dialog.getByLabel('Stock').fill('3');
    await dialog.getByTestId('product-category-select').click();
    await page.getByRole('option', { name: category.name }).click();
    await dialog.getByTestId('product-image-file').setInputFiles({
      name: 'tiny.png',
      mimeType: 'image/png',
      buffer: TINY_PNG,
    });
    await page.waitForFunction(() =>
      (
        document.querySelector('[data-testid="product-image-url-input"]') as HTMLInputElement | null
      )?.value.startsWith('/media/uploads/'),
    );
    await dialog.getByTestId('product-submit').click();
    await expectToast(page, 'Product created successfully!');
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('dashboard-product').filter({ hasText: 'E2E Test Turntable' });
    await row.waitFor();
    expect(await row.getByTestId('dashboard-product-price').textContent()).toBe('$12.34');
    await page.getByTestId('stat-products').filter({ hasText: '1' }).waitFor();
    // A seller now: the spec's heading and greeting.
    await page.getByText(`Welcome back, @${handle}`).waitFor();
    await page.getByRole('heading', { name: 'Seller Dashboard' }).waitFor();

    // Edit: the price is prefilled in dollars.
    await row.getByRole('button', { name: 'Edit E2E Test Turntable' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Product' });
    await editDialog.waitFor();
    expect(await editDialog.getByLabel('Price (USD)').inputValue()).toBe('12.34');
    expect(await editDialog.getByLabel('Title').inputValue()).toBe('E2E Test Turntable');
    await editDialog.getByLabel('Price (USD)').fill('15.5');
    await page.screenshot({ path: `${SCREENSHOTS}dashboard-dialog.png` });
    await expectNoSeriousA11yProblems(page);
    await editDialog.getByTestId('product-submit').click();
    await expectToast(page, 'Product updated successfully!');
    await row.getByTestId('dashboard-product-price').filter({ hasText: '$15.50' }).waitFor();

    // The product is on the seller's storefront.
    const storefront = await api<{ products: { title: string; priceCents: number }[] }>(
      `/api/storefront/${handle}`,
    );
    expect(storefront.products.map((p) => [p.title, p.priceCents])).toEqual([['E2E Test Turntable', 1550]]);

    // Delete, after a confirmation.
    await row.getByRole('button', { name: 'Delete E2E Test Turntable' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Product' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Product deleted successfully!');
    await page.getByTestId('dashboard-products-empty').waitFor();
    expect(await page.getByTestId('dashboard-product').count()).toBe(0);
    watched.expectNoErrors(signedOut);
  });

  it('shows the always-live demo room in Live Now: its video plays and a product is pinned', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/explore');
    const card = page.getByTestId('live-card').filter({ hasText: 'Crate digging, live all day (demo)' });
    await card.waitFor({ timeout: 30_000 });
    await card.click();
    await page.waitForURL(/\/room\/demo-live-crate-digging$/);
    await waitForVideoFrame(page, 'live-video', 30_000);
    await page.getByTestId('pinned-product').first().waitFor();
    // Live, with no end: the LIVE badge and no countdown.
    await page.getByTestId('live-badge').waitFor();
    expect(await page.getByTestId('countdown').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}demo-live-room.png` });
    watched.expectNoErrors(signedOut);
  });

  it("shows a seeded seller's storefront", async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto(`/s/${SEEDED_SELLER}`);
    await page.getByRole('heading', { level: 1, name: `@${SEEDED_SELLER}` }).waitFor();
    await page.getByTestId('storefront-products').waitFor();
    const count = await page.getByTestId('product-card').count();
    expect(count).toBeGreaterThan(0);
    expect(await page.getByRole('tab', { name: /^Products \(\d+\)$/ }).textContent()).toBe(
      `Products (${count})`,
    );
    await page.getByRole('tab', { name: /^VODs \(\d+\)$/ }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}storefront.png`, fullPage: true });
    watched.expectNoErrors(signedOut);
  });

  it('shows Storefront Not Found for a missing handle', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/s/nobody_here');
    await page.getByRole('heading', { name: 'Storefront Not Found' }).waitFor();
    await page.getByText('The user @nobody_here does not exist or has no storefront.').waitFor();
    watched.expectNoErrors([...signedOut, { status: 404, path: '/api/storefront/nobody_here' }]);
  });

  it('has no serious accessibility violations on /explore and a storefront', async () => {
    const watched = await newPage({ bypassCSP: true });
    const { page } = watched;
    await page.goto('/explore');
    await waitForResults(page, { page: '1' });
    await expectNoSeriousA11yProblems(page);

    await page.goto(`/s/${SEEDED_SELLER}`);
    await page.getByTestId('storefront-products').waitFor();
    await expectNoSeriousA11yProblems(page);
    watched.expectNoErrors(signedOut);
  });
});
