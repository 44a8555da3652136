import type { StorefrontResponse } from '@streamshop/contract/catalog.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectInViewport, expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/**
 * The pages that overflowed a phone's width, at 390 px: the dashboard's Products and Earnings tabs
 * of a demo seller with long product titles and a sale, the replay of the seeded ended stream, a
 * room's long title; and the product dialog's footer, in the viewport on a phone and a laptop.
 */

const e2e = useE2e({ env: DEMO_SHOP_ENV });
const { newPage } = e2e;

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
/** A demo seller whose products have long titles; every demo seller has this password. */
const SELLER = { handle: 'groovevault_records', password: 'demo-password' };
const DEMO_REPLAY = 'demo-vinyl-night';

/**
 * Fails when the page is wider than the window, naming the widest elements that stick out, so a
 * failure says where to look.
 */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const layout = await page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > width + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map(
        ({ element, right }) =>
          `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)} right=${Math.round(right)}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, culprits };
  });
  expect
    .soft(
      layout.scrollWidth,
      `${what}: ${layout.scrollWidth} px wide in a ${layout.innerWidth} px window\n${layout.culprits.join('\n')}`,
    )
    .toBeLessThanOrEqual(layout.innerWidth);
}

async function signIn(page: Page) {
  await page.goto('/signin');
  await page.getByTestId('signin-handle').fill(SELLER.handle);
  await page.getByTestId('signin-password').fill(SELLER.password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(/\/dashboard$/);
}

/** The seller's in-stock product with the longest title. */
async function longestTitledProduct() {
  const response = await fetch(e2e.url(`/api/storefront/${SELLER.handle}`));
  if (!response.ok) throw new Error(`/api/storefront: ${response.status}`);
  const { products } = (await response.json()) as StorefrontResponse;
  const product = products
    .filter((p) => p.stock >= 1 && p.priceCents > 0)
    .sort((a, b) => b.title.length - a.title.length)[0];
  if (!product) throw new Error(`@${SELLER.handle} has no product in stock`);
  return product;
}

/** Opens the Add Product dialog and checks its header and Create button are in the window. */
async function checkProductDialog(page: Page, size: string) {
  await page.getByRole('tab', { name: 'Products' }).click();
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByTestId('product-dialog');
  await dialog.waitFor();
  const submit = dialog.getByTestId('product-submit');
  const heading = dialog.getByRole('heading', { name: 'Add Product' });
  await expectInViewport(page, submit, `${size}: the Create Product button`);
  await expectInViewport(page, heading, `${size}: the dialog's heading`);
  // An empty form is refused with an error under every required field; nothing moves away.
  await submit.click();
  await dialog.getByText('Title is required').waitFor();
  await expectInViewport(page, submit, `${size}: the Create Product button after the errors`);
  await expectInViewport(page, heading, `${size}: the dialog's heading after the errors`);
  await page.screenshot({ path: `${SCREENSHOTS}product-dialog-errors-${size}.png` });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('phone layout', { timeout: 180_000 }, () => {
  it("fits the seller's Products and Earnings tabs and the product dialog in a phone's width", async () => {
    const product = await longestTitledProduct();
    expect(product.title.length).toBeGreaterThan(35);

    // A sale, so that Earnings has a row with the long title.
    const buyer = await newPage({ viewport: PHONE });
    await signUpThroughForm(buyer.page, 'phonebuyer');
    await buyer.page.goto(`/checkout/${product.id}`);
    await shipToAnAddressIfAsked(buyer.page);
    await payWithCard(buyer.page, CARD.success);
    await expectToast(buyer.page, 'Payment Successful');

    const watched = await newPage({ viewport: PHONE });
    const { page } = watched;
    await signIn(page);
    await page.getByTestId('dashboard-product').first().waitFor();
    const row = page.getByTestId('dashboard-product').filter({ hasText: product.title });
    await expectNoSidewaysScroll(page, 'the Products tab');
    await row.scrollIntoViewIfNeeded();
    await expectInViewport(page, row.getByTestId('product-edit'), 'Edit');
    await expectInViewport(page, row.getByTestId('product-delete'), 'Delete');
    // The long title is cut with an ellipsis, not pushed past the card.
    const title = row.getByTestId('dashboard-product-title');
    expect(await title.evaluate((h) => h.scrollWidth > h.clientWidth)).toBe(true);
    expect(await title.evaluate((h) => getComputedStyle(h).textOverflow)).toBe('ellipsis');
    await page.screenshot({ path: `${SCREENSHOTS}phone-products.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Earnings' }).click();
    const ledger = page.getByTestId('earnings-ledger');
    const sale = ledger.getByTestId('earnings-entry').filter({ hasText: product.title }).first();
    await sale.waitFor();
    await expectNoSidewaysScroll(page, 'the Earnings tab');
    // The amount is on screen and the sale stays a few lines tall, not a word per line.
    await sale.scrollIntoViewIfNeeded();
    await expectInViewport(page, sale.getByTestId('earnings-amount'), 'the sale amount');
    expect((await sale.boundingBox())?.height).toBeLessThan(120);
    await page.screenshot({ path: `${SCREENSHOTS}phone-earnings.png`, fullPage: true });

    await checkProductDialog(page, 'phone');
    // On a phone the Delivery select shows its whole value.
    await page.getByRole('button', { name: 'Add Product' }).click();
    const delivery = page.getByTestId('product-fulfillment-select');
    expect(await delivery.evaluate((s) => s.querySelector('span')?.scrollWidth ?? 0)).toBeLessThanOrEqual(
      await delivery.evaluate((s) => s.querySelector('span')?.clientWidth ?? 0),
    );
    await page.keyboard.press('Escape');

    await page.setViewportSize(LAPTOP);
    await checkProductDialog(page, 'laptop');
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it("fits an ended stream's replay in a phone's width", async () => {
    const watched = await newPage({ viewport: PHONE });
    const { page } = watched;
    await page.goto(`/room/${DEMO_REPLAY}`);
    await page.getByTestId('vod-player').waitFor();
    await page.getByTestId('replay-shop').waitFor();
    await page.getByTestId('chat-replay').waitFor();
    await expectNoSidewaysScroll(page, 'the replay');
    await expectInViewport(page, page.getByTestId('vod-player'), 'the replay video');
    await page.screenshot({ path: `${SCREENSHOTS}phone-replay.png`, fullPage: true });
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it("shows a room's long title in full on a phone", async () => {
    const seller = await newPage();
    await signUpThroughForm(seller.page, 'phonetitle');
    const title = "Sam's first drop: debut LPs, signed posters and a live Q&A";
    await seller.page.goto('/golive');
    await seller.page.getByLabel('Stream title').fill(title);
    await seller.page.getByTestId('golive-submit').click();
    await seller.page.waitForURL(/\/room\/[a-z0-9-]+$/);
    const roomPath = new URL(seller.page.url()).pathname;

    const watched = await newPage({ viewport: PHONE });
    const { page } = watched;
    await page.goto(roomPath);
    const heading = page.getByTestId('room-title');
    await heading.waitFor();
    expect(await heading.textContent()).toBe(title);
    const clipped = await heading.evaluate(
      (h) => h.scrollWidth > h.clientWidth || h.scrollHeight > h.clientHeight,
    );
    expect(clipped, 'the room title is cut off').toBe(false);
    await expectNoSidewaysScroll(page, 'the room');
    await page.screenshot({ path: `${SCREENSHOTS}phone-room-title.png` });
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
