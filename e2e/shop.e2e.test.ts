import type { StorefrontResponse } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast, waitForVideoFrame } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/** A demo seller on the Pro plan (15-minute streams); every demo seller has this password. */
const SELLER = { handle: 'groovevault_records', password: 'demo-password' };

const e2e = useE2e({ env: DEMO_SHOP_ENV, camera: true });
const { newPage } = e2e;
/** The demo product the seller sells in the room: a few units, a price above $2. */
let product: StorefrontResponse['products'][number];

beforeAll(async () => {
  const response = await fetch(new URL(`/api/storefront/${SELLER.handle}`, e2e.server.url));
  if (!response.ok) throw new Error(`/api/storefront: ${response.status}`);
  const storefront = (await response.json()) as StorefrontResponse;
  const candidate = storefront.products.find((p) => p.stock >= 3 && p.priceCents >= 400);
  if (!candidate) throw new Error(`@${SELLER.handle} has no product with 3 units in stock`);
  product = candidate;
}, 120_000);

/** The video's position now, and whether it is playing. */
function playback(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((video: HTMLVideoElement) => ({
    time: video.currentTime,
    paused: video.paused,
    ended: video.ended,
  }));
}

/** Waits until the video has played on past `seconds`. */
async function waitForPlayedPast(page: Page, testId: string, seconds: number) {
  await page.waitForFunction(
    ([id, after]) => {
      const video = document.querySelector<HTMLVideoElement>(`[data-testid="${id}"]`);
      return !!video && !video.paused && video.currentTime > after;
    },
    [testId, seconds] as const,
    { timeout: 10_000 },
  );
}

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

describe('shoppable live', { timeout: 120_000 }, () => {
  let seller: WatchedPage;
  let viewer: WatchedPage;
  let viewerHandle = '';
  let roomPath = '';
  const startStock = () => product.stock;

  it('lets the seller go live, add a demo product to the lineup and pin it', async () => {
    seller = await newPage({}, { keep: true });
    const { page } = seller;
    await page.goto('/signin');
    await page.getByTestId('signin-handle').fill(SELLER.handle);
    await page.getByTestId('signin-password').fill(SELLER.password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard$/);

    await page.goto('/golive');
    await page.getByLabel('Stream title').fill('Crate digging live');
    await page.getByTestId('golive-submit').click();
    await page.waitForURL(/\/room\/crate-digging-live-[0-9a-f]{8}$/);
    roomPath = new URL(page.url()).pathname;
    await waitForVideoFrame(page, 'camera-preview', 10_000);
    await page.getByTestId('start-stream').click();
    await expectToast(page, 'Stream Started');
    await page.getByTestId('live-badge').waitFor();

    const panel = page.getByTestId('lineup-panel');
    await panel.getByTestId('lineup-empty').waitFor();
    await panel.getByTestId('lineup-open-picker').click();
    const picker = page.getByRole('dialog', { name: 'Add to the lineup' });
    await picker.getByTestId('lineup-picker-search').fill(product.title);
    const choice = picker.getByTestId('lineup-picker-product').filter({ hasText: product.title });
    await choice.waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}room-shop-picker.png` });
    await choice.getByTestId('lineup-add').click();
    await choice.getByTestId('lineup-picker-added').waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });

    const row = panel.getByTestId('lineup-product').filter({ hasText: product.title });
    await row.getByTestId('lineup-pin').click();
    await row.getByTestId('lineup-pinned').waitFor();
    expect(await panel.getByTestId('lineup-pin-count').textContent()).toContain('1 of 3 pinned');
    // The camera preview stays in view above the lineup.
    expect(await page.getByTestId('camera-preview').isVisible()).toBe(true);
    seller.expectNoErrors(signedOut);
  });

  it('lets a viewer buy the pinned product in the room while the video keeps playing', async () => {
    viewer = await newPage({}, { keep: true });
    const { page } = viewer;
    viewerHandle = await signUpThroughForm(page, 'shopper');
    await page.goto(roomPath);

    const card = page.getByTestId('pinned-product').filter({ hasText: product.title });
    await card.waitFor();
    expect(await card.getByTestId('pinned-product-price').textContent()).toBe(
      formatCents(product.priceCents),
    );
    expect(await card.getByTestId('pinned-product-stock').textContent()).toBe(`${startStock()} left`);

    await waitForVideoFrame(page, 'live-video', 15_000);
    await card.getByTestId('buy-now').click();
    const sheet = page.getByRole('dialog', { name: 'Checkout' });
    await shipToAnAddressIfAsked(sheet);
    expect(await sheet.getByTestId('room-checkout-title').textContent()).toBe(product.title);
    expect(await sheet.getByTestId('checkout-total').textContent()).toBe(formatCents(product.priceCents));
    expect(await sheet.getByLabel('Show my name in the chat').isChecked()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}room-shop-checkout.png` });

    const before = await playback(page, 'live-video');
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await sheet.waitFor({ state: 'detached' });

    // The video was never interrupted: same element, still playing, further along.
    await waitForPlayedPast(page, 'live-video', before.time + 1);
    const after = await playback(page, 'live-video');
    expect(after.paused).toBe(false);
    expect(after.ended).toBe(false);

    // Everyone sees the purchase line and the new stock.
    const line = `@${viewerHandle} just bought ${product.title}`;
    await page.getByTestId('chat-purchase-text').filter({ hasText: line }).waitFor();
    await seller.page.getByTestId('chat-purchase-text').filter({ hasText: line }).waitFor();
    await page.waitForFunction(
      ([title, text]) =>
        Array.from(document.querySelectorAll('[data-testid="pinned-product"]')).some(
          (card) =>
            card.textContent?.includes(title) &&
            card.querySelector('[data-testid="pinned-product-stock"]')?.textContent === text,
        ),
      [product.title, `${startStock() - 1} left`] as const,
    );
    await seller.page
      .getByTestId('lineup-product-stock')
      .filter({ hasText: `${startStock() - 1} in stock` })
      .waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENSHOTS}room-shop-viewer.png` });
    viewer.expectNoErrors(signedOut);
  });

  it('runs a live offer: field errors from the server, then a synced countdown for viewers', async () => {
    const { page } = seller;
    const row = page.getByTestId('lineup-product').filter({ hasText: product.title });
    await row.getByTestId('lineup-start-offer').click();
    const dialog = page.getByRole('dialog', { name: 'Start a live offer' });
    // Not below the regular price: only the server knows, and it names the field.
    await dialog.getByTestId('offer-price').fill((product.priceCents / 100).toFixed(2));
    await dialog.getByTestId('offer-submit').click();
    expect(await dialog.getByTestId('offer-price-error').textContent()).toContain('below the regular price');
    // Too short: the shared schema refuses it before anything is sent.
    await dialog.getByTestId('offer-duration').fill('5');
    await dialog.getByTestId('offer-submit').click();
    expect(await dialog.getByTestId('offer-duration-error').textContent()).toBe(
      'durationSec must be at least 10',
    );

    const offerCents = Math.floor(product.priceCents / 2);
    await dialog.getByTestId('offer-price').fill((offerCents / 100).toFixed(2));
    await dialog.getByTestId('offer-quantity').fill('1');
    await dialog.getByTestId('offer-duration').fill('120');
    await dialog.getByTestId('offer-submit').click();
    await expectToast(page, 'Offer started');
    await page.getByTestId('lineup-offer').waitFor();

    const card = viewer.page.getByTestId('pinned-product').filter({ hasText: product.title });
    await card.getByTestId('pinned-product-regular-price').waitFor();
    expect(await card.getByTestId('pinned-product-price').textContent()).toBe(formatCents(offerCents));
    expect(await card.getByTestId('offer-countdown').textContent()).toMatch(/0[12]:\d\d$/);
    await viewer.page.evaluate(() => window.scrollTo(0, 0));
    await viewer.page.screenshot({ path: `${SCREENSHOTS}room-shop-offer.png` });
    await page.getByTestId('lineup-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}room-shop-owner.png` });

    await page.getByTestId('offer-end').click();
    await card.getByTestId('pinned-product-regular-price').waitFor({ state: 'detached' });
    expect(await card.getByTestId('pinned-product-price').textContent()).toBe(
      formatCents(product.priceCents),
    );
    seller.expectNoErrors([...signedOut, { status: 400, path: /^\/api\/streams\/[a-z0-9-]+\/offers$/ }]);
  });

  it('ends the stream', async () => {
    await seller.page.getByTestId('end-stream').click();
    await expectToast(seller.page, 'Stream Ended');
    await seller.page.waitForURL(/\/dashboard$/);
    await viewer.page.getByTestId('stream-ended').waitFor();
    seller.expectNoErrors([...signedOut, { status: 400, path: /^\/api\/streams\/[a-z0-9-]+\/offers$/ }]);
  });

  it('shows the product chapter on the replay, and Buy Now from it completes a purchase', async () => {
    const { page } = viewer;
    await page.getByTestId('vod-player').waitFor({ timeout: 60_000 });
    const chapter = page.getByTestId('replay-chapter').filter({ hasText: product.title });
    await chapter.waitFor();
    expect(await chapter.getByTestId('replay-chapter-time').textContent()).toMatch(/^\d+:\d\d$/);
    // What shipping adds, beside the chapter's price as beside every price a buyer sees.
    const shipping = chapter.getByTestId('replay-chapter-shipping');
    if (product.fulfillment !== 'ship') expect(await shipping.count()).toBe(0);
    else
      expect(await shipping.textContent()).toBe(
        product.shippingCents > 0 ? `+ ${formatCents(product.shippingCents)} shipping` : 'Free shipping',
      );

    await chapter.click();
    const nowShowing = page.getByTestId('replay-product').filter({ hasText: product.title });
    await nowShowing.waitFor();
    expect(await nowShowing.getByTestId('replay-product-price').textContent()).toBe(
      formatCents(product.priceCents),
    );
    expect(
      await page.getByTestId('vod-player').evaluate((video: HTMLVideoElement) => video.currentTime),
    ).toBeGreaterThan(0);
    await page.getByTestId('replay-shop').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}room-shop-replay.png` });

    await nowShowing.getByTestId('replay-buy-now').click();
    const sheet = page.getByRole('dialog', { name: 'Checkout' });
    await shipToAnAddressIfAsked(sheet);
    // Offers do not replay: the regular price.
    expect(await sheet.getByTestId('checkout-total').textContent()).toBe(formatCents(product.priceCents));
    expect(await sheet.getByLabel('Show my name in the chat').count()).toBe(0);
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await sheet.waitFor({ state: 'detached' });
    await page.getByTestId('vod-player').waitFor();
    viewer.expectNoErrors(signedOut);
  });

  it('shows on the storefront how many products the replay features', async () => {
    const { page } = viewer;
    await page.goto(`/s/${SELLER.handle}`);
    await page.getByTestId('tab-vods').click();
    const vod = page.getByTestId('vod-card').filter({ hasText: 'Crate digging live' });
    expect(await vod.getByTestId('vod-featured-products').textContent()).toBe('Features 1 product');
    await vod.getByTestId('shop-replay').waitFor();
    viewer.expectNoErrors(signedOut);
  });
});
