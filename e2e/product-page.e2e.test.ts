import { mkdir } from 'node:fs/promises';
import type { FacetsResponse, ProductPage } from '@streamshop/contract/catalog.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { DEMO_SHOP_ENV, useE2e } from './e2e-setup.ts';

/**
 * The product page (issue 27): a card on explore leads to /products/:id, which shows the product
 * whole, its seller (live now, with a link to the room) and the shows it is in; Buy Now goes to
 * checkout, or to sign-in with the way back when signed out. The served HTML carries the
 * product's Open Graph tags and schema.org Product for link previews and crawlers.
 */

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage, url } = e2e;
const SHOTS = '/tmp/shots/';
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

/** A word no demo product has, so a search finds only this spec's products. */
const WORD = 'Quasarwave';
const TITLE = `${WORD} first pressing LP`;
const DESCRIPTION =
  'Original 1972 pressing, gatefold sleeve.\n\nPlays clean end to end; light wear on the corners.';

interface Listed {
  sellerHandle: string;
  productId: string;
  soldOutId: string;
  roomName: string;
}
let listed: Listed;
/** The seller's page, signed in: used again for the seller's own view. */
let sellerPage: Page;

async function post<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([path, body]) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    [path, body] as const,
  ) as Promise<T>;
}

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

/** From /explore, searching for this spec's word, a click on the card's title opens the product page. */
async function openFromExplore(page: Page, productId: string) {
  await page.goto(`/explore?q=${WORD}`);
  const card = page.getByTestId('product-card').filter({ hasText: TITLE });
  await card.getByRole('link', { name: TITLE, exact: true }).click();
  await page.waitForURL(url(`/products/${productId}`));
  await page.getByTestId('product-page').waitFor();
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  const facets = (await (await fetch(new URL('/api/facets', e2e.server.url))).json()) as FacetsResponse;
  const categoryId = facets.categories[0]?.id;
  if (!categoryId) throw new Error('no categories seeded');
  const watched = await newPage({ viewport: DESKTOP });
  sellerPage = watched.page;
  const sellerHandle = await signUpThroughForm(sellerPage, 'pp_seller');
  const product = { categoryId, condition: 'used', fulfillment: 'ship', shippingCents: 450 };
  const { id: productId } = await post<{ id: string }>(sellerPage, '/api/products', {
    ...product,
    title: TITLE,
    description: DESCRIPTION,
    priceCents: 2500,
    stock: 3,
    imageUrl: '/media/seed/products/12.svg',
  });
  const { id: soldOutId } = await post<{ id: string }>(sellerPage, '/api/products', {
    ...product,
    title: `${WORD} test pressing (sold)`,
    priceCents: 9900,
    stock: 0,
  });
  // The seller is live with a show that has the product in its lineup.
  const { roomName } = await post<{ roomName: string }>(sellerPage, '/api/rooms', {
    title: 'Crate digging live',
  });
  await post(sellerPage, `/api/streams/${roomName}/start`);
  await post(sellerPage, `/api/streams/${roomName}/lineup`, { productId });
  listed = { sellerHandle, productId, soldOutId, roomName };
}, 120_000);

describe('the product page', { timeout: 90_000 }, () => {
  it('opens from an explore card and shows the product whole, its seller live, and its shows (desktop)', async () => {
    const watched = await newPage({ viewport: DESKTOP });
    const { page } = watched;
    await openFromExplore(page, listed.productId);
    expect(await page.title()).toBe(`${TITLE} · StreamShop`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
    expect(await page.getByTestId('product-price').textContent()).toBe('$25.00');
    expect(await page.getByTestId('product-condition').textContent()).toBe('USED');
    expect(await page.getByTestId('product-stock').textContent()).toBe('3 left');
    expect(await page.getByTestId('product-shipping').textContent()).toBe('+ $4.50 shipping');
    expect(await page.getByTestId('product-fulfillment').textContent()).toContain('Shipping: $4.50');
    // The whole description, paragraphs and all.
    expect(await page.getByTestId('product-description').textContent()).toBe(DESCRIPTION);
    const seller = page.getByTestId('product-seller');
    expect(await seller.getByTestId('seller-link').getAttribute('href')).toBe(`/s/${listed.sellerHandle}`);
    expect(await seller.getByTestId('seller-live').getAttribute('href')).toBe(`/room/${listed.roomName}`);
    const show = page.getByTestId('product-show');
    expect(await show.count()).toBe(1);
    expect(await show.textContent()).toContain('Crate digging live');
    expect(await show.getByTestId('show-watch-live').getAttribute('href')).toBe(`/room/${listed.roomName}`);
    await page.screenshot({ path: `${SHOTS}product-page-desktop.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);

    // Signed out, Buy Now leads to sign-in with the way back to this product's checkout.
    await page.getByTestId('buy-now').click();
    await page.waitForURL((address) => address.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/checkout/${listed.productId}`);
    watched.expectNoErrors(signedOut);
  });

  it('takes a signed-in buyer from Buy Now to the checkout (phone)', async () => {
    const watched = await newPage({ viewport: PHONE });
    const { page } = watched;
    await signUpThroughForm(page, 'pp_buyer');
    await openFromExplore(page, listed.productId);
    expect(await page.getByTestId('product-stock').textContent()).toBe('3 left');
    // Nothing sticks out of a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SHOTS}product-page-phone.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);
    expect(await page.getByTestId('buy-now').getAttribute('href')).toBe(`/checkout/${listed.productId}`);
    await page.getByTestId('buy-now').click();
    await page.waitForURL(url(`/checkout/${listed.productId}`));
    expect(await page.getByTestId('checkout-product-title').textContent()).toBe(TITLE);
    watched.expectNoErrors(signedOut);
  });

  it('shows a sold-out product with a disabled Sold Out button (phone, signed out)', async () => {
    const watched = await newPage({ viewport: PHONE });
    const { page } = watched;
    await page.goto(`/products/${listed.soldOutId}`);
    const buy = page.getByTestId('buy-now');
    await buy.waitFor();
    expect(await buy.textContent()).toBe('Sold Out');
    expect(await buy.isDisabled()).toBe(true);
    expect(await page.getByTestId('product-stock').textContent()).toBe('Sold out');
    expect(await page.getByTestId('product-shows-empty').textContent()).toBe(
      'Not in a live show or replay yet.',
    );
    await page.screenshot({ path: `${SHOTS}product-page-sold-out-phone.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);
    watched.expectNoErrors(signedOut);
  });

  it('gives the seller an edit link on their own product instead of Buy Now', async () => {
    await sellerPage.goto(`/products/${listed.productId}`);
    await sellerPage.getByTestId('own-product').waitFor();
    expect(await sellerPage.getByTestId('buy-now').count()).toBe(0);
    expect(await sellerPage.getByTestId('edit-product').getAttribute('href')).toBe('/dashboard');
  });

  it('says Product Not Found for an unknown id', async () => {
    const watched = await newPage({ viewport: DESKTOP });
    const { page } = watched;
    const unknown = '00000000-0000-4000-8000-000000000000';
    await page.goto(`/products/${unknown}`);
    await page.getByTestId('product-not-found').waitFor();
    expect(await page.title()).toBe('Product Not Found · StreamShop');
    // The document itself is answered 404 (for crawlers), and so is the API call.
    watched.expectNoErrors([
      ...signedOut,
      { status: 404, path: `/products/${unknown}` },
      { status: 404, path: `/api/products/${unknown}/page` },
    ]);
  });
});

describe('the served HTML of a product page', () => {
  /** The head's meta values by property or name. */
  const meta = (html: string, key: string) =>
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)]
      .filter((m) => m[1] === key)
      .map((m) => m[2]);

  it('carries the Open Graph tags and the schema.org Product a link preview and a crawler read', async () => {
    const response = await fetch(url(`/products/${listed.productId}`));
    expect(response.status).toBe(200);
    const html = await response.text();
    const origin = e2e.server.url.replace(/\/$/, '');
    expect(html).toContain(`<title>${TITLE} · StreamShop</title>`);
    expect(meta(html, 'og:type')).toEqual(['product']);
    expect(meta(html, 'og:title')).toEqual([TITLE]);
    expect(meta(html, 'og:url')).toEqual([`${origin}/products/${listed.productId}`]);
    expect(meta(html, 'og:image')).toEqual([`${origin}/media/seed/products/12.svg`]);
    expect(meta(html, 'description')[0]).toMatch(/^\$25\.00 · Used · from @pp_seller_/);
    const json = /<script type="application\/ld\+json" data-product-jsonld>([^<]*)<\/script>/.exec(html)?.[1];
    const product = JSON.parse(json ?? '{}');
    expect(product).toMatchObject({
      '@type': 'Product',
      name: TITLE,
      sku: listed.productId,
      offers: { price: '25.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    // The API behind the page answers the same product.
    const page = (await (await fetch(url(`/api/products/${listed.productId}/page`))).json()) as ProductPage;
    expect(page.seller.liveRoomName).toBe(listed.roomName);
  });

  it('answers 404 for an unknown product', async () => {
    const response = await fetch(url('/products/00000000-0000-4000-8000-000000000000'));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<title>Product Not Found · StreamShop</title>');
  });
});
