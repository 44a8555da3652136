import type { FacetsResponse, Product } from '@streamshop/contract/catalog.ts';
import type { AddressesResponse } from '@streamshop/contract/shipping.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { ADDRESS, enterShippingAddress } from './shipping-address.ts';

/** Issue 17 item 1: a seller's flat shipping, the buyer's address at checkout, saved addresses. */

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage } = e2e;
const signedOutBeforeSignUp = [SIGNED_OUT_PROBE];

let product: Product;
let seller: WatchedPage;
let sellerHandle = '';
let buyer: WatchedPage;

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

const summary = async (page: Page) => ({
  subtotal: await page.getByTestId('checkout-subtotal').textContent(),
  shipping: await page.getByTestId('checkout-shipping').textContent(),
  total: await page.getByTestId('checkout-total').textContent(),
});

async function expectPaid(page: Page) {
  await expectToast(page, 'Payment Successful');
  await page.waitForURL(/\/dashboard\?tab=orders$/);
}

describe('shipping at checkout', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const facets = (await (await fetch(e2e.url('/api/facets'))).json()) as FacetsResponse;
    const category = facets.categories[0];
    if (!category) throw new Error('no categories seeded');

    // The seller lists a product that ships, with a flat $6.50 shipping, in the dashboard's dialog.
    seller = await newPage({}, { keep: true });
    const { page } = seller;
    sellerHandle = await signUpThroughForm(page, 'shipper');
    // A new account has sold nothing yet: its dashboard invites it to start selling.
    await page.getByTestId('start-selling-add-product').click();
    const dialog = page.getByRole('dialog', { name: 'Add Product' });
    await dialog.getByLabel('Title').fill('Shipped test turntable');
    await dialog.getByLabel('Price (USD)').fill('20');
    await dialog.getByLabel('Stock').fill('3');
    await dialog.getByTestId('product-category-select').click();
    await page.getByRole('option', { name: category.name }).click();
    expect(await dialog.getByTestId('product-fulfillment-select').textContent()).toBe('Shipped to the buyer');
    await dialog.getByLabel('Shipping (USD, flat)').fill('6.50');
    await dialog.getByTestId('product-submit').click();
    await expectToast(page, 'Product created successfully!');
    const mine = (await page.evaluate(async () => (await fetch('/api/products/mine')).json())) as Product[];
    const listed = mine.find((p) => p.title === 'Shipped test turntable');
    if (!listed) throw new Error('the product was not listed');
    expect(listed).toMatchObject({ fulfillment: 'ship', shippingCents: 650, priceCents: 2000 });
    product = listed;
    seller.expectNoErrors(signedOutBeforeSignUp);

    buyer = await newPage({}, { keep: true });
    await signUpThroughForm(buyer.page, 'shipbuyer');
  });

  it('shows “+ $6.50 shipping” beside the price on the room’s pinned card and the storefront’s cards', async () => {
    // The seller goes live and pins the product (through the API: the card is what is checked here).
    const room = await seller.page.evaluate(async (productId) => {
      const post = async (url: string, body?: object) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
        if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      const { roomName } = (await post('/api/rooms', { title: 'Shipping room' })) as { roomName: string };
      await post(`/api/streams/${roomName}/start`);
      await post(`/api/streams/${roomName}/lineup`, { productId });
      await post(`/api/streams/${roomName}/pins`, { productId });
      return roomName;
    }, product.id);

    const { page } = buyer;
    await page.goto(`/room/${room}`);
    const card = page.getByTestId('pinned-product').filter({ hasText: product.title });
    await card.waitFor();
    expect(await card.getByTestId('pinned-product-price').textContent()).toBe('$20.00');
    expect(await card.getByTestId('pinned-product-shipping').textContent()).toBe('+ $6.50 shipping');
    await page.screenshot({ path: `${SCREENSHOTS}shipping-room-card-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.waitFor();
    expect(await card.getByTestId('pinned-product-shipping').isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}shipping-room-card-phone.png` });

    // The sheet opened from the card shows the same shipping before an address is given.
    await card.getByTestId('buy-now').click();
    const sheet = page.getByRole('dialog', { name: 'Checkout' });
    await sheet.getByTestId('address-form').waitFor();
    expect(await sheet.getByTestId('checkout-shipping').textContent()).toBe('$6.50');
    expect(await sheet.getByTestId('checkout-total').textContent()).toBe('$26.50');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });

    await page.goto(`/s/${sellerHandle}`);
    const listed = page.getByTestId('product-card').filter({ hasText: product.title });
    await listed.waitFor();
    expect(await listed.getByTestId('product-price').textContent()).toBe('$20.00');
    expect(await listed.getByTestId('product-shipping').textContent()).toBe('+ $6.50 shipping');
    await listed.screenshot({ path: `${SCREENSHOTS}shipping-storefront-card-phone.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    await seller.page.evaluate(async (roomName) => {
      await fetch(`/api/streams/${roomName}/end`, { method: 'POST' });
    }, room);
  });

  it('asks a first-time buyer for an address, with errors on their fields, then charges price + shipping', async () => {
    const { page } = buyer;
    await page.goto(`/checkout/${product.id}`);
    const form = page.getByTestId('address-form');
    await form.waitFor();
    // Shown before paying: the product's shipping, and no card form until an address is given.
    expect(await summary(page)).toEqual({ subtotal: '$20.00', shipping: '$6.50', total: '$26.50' });
    expect(await page.getByTestId('card-number').count()).toBe(0);

    await form.getByTestId('address-submit').click();
    const name = form.getByLabel('Full name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const errorId = await name.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe('Full name is required');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
      'shipping name',
    );
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}shipping-address-errors.png`, fullPage: true });

    await enterShippingAddress(page);
    await page.getByTestId('card-number').waitFor();
    expect(await summary(page)).toEqual({ subtotal: '$20.00', shipping: '$6.50', total: '$26.50' });
    expect(await page.getByTestId('payment-submit').textContent()).toBe('Pay $26.50');
    expect(await page.getByRole('radio', { name: /Ada Buyer/ }).isChecked()).toBe(true);
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}shipping-checkout-desktop.png`, fullPage: true });

    await payWithCard(page, CARD.success);
    await expectPaid(page);
  });

  it('offers the saved address, chosen already: paying is one tap', async () => {
    const { page } = buyer;
    await page.goto(`/checkout/${product.id}`);
    await page.getByTestId('card-number').waitFor();
    expect(await page.getByTestId('address-form').count()).toBe(0);
    const saved = page.getByTestId('saved-address');
    expect(await saved.count()).toBe(1);
    expect(await saved.textContent()).toContain(ADDRESS.line1);
    expect(await page.getByRole('radio', { name: /Ada Buyer/ }).isChecked()).toBe(true);
    expect(await page.getByTestId('payment-submit').textContent()).toBe('Pay $26.50');
    await payWithCard(page, CARD.success);
    await expectPaid(page);
  });

  it('takes another address on a phone, and lists it first next time', async () => {
    const { page } = buyer;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/checkout/${product.id}`);
    await page.getByTestId('card-number').waitFor();
    await page.getByTestId('use-another-address').click();
    // The card form waits while the buyer types the new address.
    await page.getByTestId('address-form').waitFor();
    expect(await page.getByTestId('card-number').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}shipping-new-address-phone.png`, fullPage: true });
    await enterShippingAddress(page, {
      name: 'Ada at Work',
      line1: '42 Studio Yard',
      city: 'Leeds',
      postalCode: 'LS1 1AA',
      country: 'GB',
    });
    await page.getByTestId('card-number').waitFor();
    expect(await page.getByRole('radio', { name: /Ada at Work/ }).isChecked()).toBe(true);
    expect(await summary(page)).toEqual({ subtotal: '$20.00', shipping: '$6.50', total: '$26.50' });
    await page.screenshot({ path: `${SCREENSHOTS}shipping-checkout-phone.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);
    await payWithCard(page, CARD.success);
    await expectPaid(page);

    const addresses = (await page.evaluate(async () =>
      (await fetch('/api/addresses')).json(),
    )) as AddressesResponse;
    expect(addresses.addresses.map((a) => a.line1)).toEqual(['42 Studio Yard', ADDRESS.line1]);
    buyer.expectNoErrors(signedOutBeforeSignUp);
  });

  it('lists the saved addresses in settings and removes one after a confirm, on desktop and phone', async () => {
    const { page } = buyer;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/settings');
    const section = page.getByTestId('settings-addresses');
    const rows = section.getByTestId('address-row');
    await rows.first().waitFor();
    expect(await rows.getByTestId('address-name').allTextContents()).toEqual(['Ada at Work', ADDRESS.name]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}settings-addresses-desktop.png` });

    await section.getByRole('button', { name: 'Remove Ada at Work, 42 Studio Yard' }).click();
    const dialog = page.getByTestId('address-remove-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('42 Studio Yard');
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}settings-addresses-confirm.png` });
    await dialog.getByTestId('address-remove-confirm').click();
    await expectToast(page, 'Address removed');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="settings-addresses"] [data-testid="address-row"]').length ===
        1,
    );
    expect(await rows.getByTestId('address-name').allTextContents()).toEqual([ADDRESS.name]);

    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}settings-addresses-phone.png` });
    await section.getByTestId('address-remove').click();
    await dialog.getByTestId('address-remove-confirm').click();
    await section.getByTestId('addresses-empty').waitFor();
    await expectNoSeriousA11yProblems(page);
    await section.screenshot({ path: `${SCREENSHOTS}settings-addresses-empty-phone.png` });

    // Checkout offers nothing now; the orders keep the address they were shipped to.
    const after = await page.evaluate(async () => ({
      addresses: ((await (await fetch('/api/addresses')).json()) as AddressesResponse).addresses,
      orders: (
        (await (await fetch('/api/orders?role=buyer')).json()) as {
          orders: Array<{ shippingAddress: { line1: string } | null }>;
        }
      ).orders.map((o) => o.shippingAddress?.line1),
    }));
    expect(after.addresses).toEqual([]);
    expect(after.orders).toEqual(['42 Studio Yard', ADDRESS.line1, ADDRESS.line1]);
    buyer.expectNoErrors(signedOutBeforeSignUp);
  });
});
