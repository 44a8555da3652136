import type { Stream } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomShop } from '@streamshop/contract/shop.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/**
 * A new buyer's way into the shop (issue 27): Explore and Live in the header and the menu, the
 * rooms live now on the landing page, the show's whole lineup in the room's Shop sheet, and a
 * live seller's storefront leading to the room. The demo's always-live room is the live show:
 * its lineup is its seller's three newest products in stock, the first pinned.
 */
const e2e = useE2e({ env: { ...DEMO_SHOP_ENV, DEMO_LIVE: 'true' } });
const { newPage } = e2e;

const DEMO_ROOM = 'demo-live-crate-digging';
const DEMO_TITLE = 'Crate digging, live all day (demo)';
const DEMO_SELLER = 'juno_beats';

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

async function api<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, e2e.server.url));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

beforeAll(async () => {
  // The demo room goes live a moment after the server answers: wait until the live list has it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const live = await api<Stream[]>('/api/streams/live');
    if (live.some((stream) => stream.roomName === DEMO_ROOM)) break;
    if (Date.now() > deadline) throw new Error(`${DEMO_ROOM} never appeared in /api/streams/live`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 90_000);

describe.each(WIDTHS)('the way in at $name width', { timeout: 120_000 }, ({ name, viewport }) => {
  it('signed out, the header and the menu lead to Explore and to the live rooms', async () => {
    const watched = await newPage({ viewport });
    const { page } = watched;
    await page.goto('/');
    await page.getByTestId('landing-live').waitFor();
    await page.getByTestId('nav-sign-in').waitFor();

    await page.getByTestId('nav-explore').click();
    await page.waitForURL(/\/explore$/);
    await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();

    await page.goto('/');
    await page.getByTestId('nav-live').click();
    await page.waitForURL(/\/explore#live$/);
    await page.getByTestId('live-card').filter({ hasText: DEMO_TITLE }).waitFor();

    // The menu has both too.
    await page.goto('/');
    await page.getByTestId('drawer-toggle').click();
    const drawer = page.getByTestId('drawer');
    await drawer.getByTestId('drawer-live').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}way-in-menu-${name}.png` });
    await drawer.getByTestId('drawer-explore').click();
    await page.waitForURL(/\/explore$/);
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();
    watched.expectNoErrors(signedOut);
    // A room left open plays on: close each page, the machine is shared.
    await watched.close();
  });

  it('signed out, the landing page shows the live demo room and Shop now; the card opens the room', async () => {
    const watched = await newPage({ viewport, bypassCSP: true });
    const { page } = watched;
    await page.goto('/');
    const section = page.getByTestId('landing-live');
    const card = section.getByTestId('live-card').filter({ hasText: DEMO_TITLE });
    await card.waitFor();
    expect(await section.getByTestId('landing-explore').getAttribute('href')).toBe('/explore');
    expect(await page.getByTestId('hero-shop-now').getAttribute('href')).toBe('/explore');
    // The spec's landing content stays: the hero's newsletter button and the four-step explainer.
    await page.getByTestId('newsletter-button').waitFor();
    await page.locator('#steps').waitFor();
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}way-in-landing-${name}.png` });
    await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SCREENSHOTS}way-in-landing-live-${name}.png` });

    await card.click();
    await page.waitForURL(new RegExp(`/room/${DEMO_ROOM}$`));
    await page.getByTestId('live-badge').waitFor();
    watched.expectNoErrors(signedOut);
    // A room left open plays on: close each page, the machine is shared.
    await watched.close();
  });

  it('in the live room a viewer opens Shop, sees the whole lineup with the pinned first, and buys one', async () => {
    const shop = await api<RoomShop>(`/api/streams/${DEMO_ROOM}/shop`);
    expect(shop.lineup).toHaveLength(3);
    expect(shop.pinned).toHaveLength(1);
    const pinnedId = shop.pinned[0];
    const expectedOrder = [
      ...shop.lineup.filter((p) => p.id === pinnedId),
      ...shop.lineup.filter((p) => p.id !== pinnedId),
    ];
    // An unpinned product still in stock: buying it needs the Shop sheet. The one with most stock,
    // so the second width finds one too.
    const target = shop.lineup
      .filter((p) => p.id !== pinnedId && p.stock > 0)
      .sort((a, b) => b.stock - a.stock)[0];
    if (!target) throw new Error('no unpinned product of the demo lineup is in stock');

    const watched = await newPage({ viewport, bypassCSP: true });
    const { page } = watched;
    await signUpThroughForm(page, `shop${name.slice(0, 2)}`);
    await page.goto(`/room/${DEMO_ROOM}`);

    const open = page.getByTestId('room-shop-open');
    await open.waitFor();
    expect(await open.textContent()).toBe('Shop (3)');
    await open.click();
    const sheet = page.getByRole('dialog', { name: 'Shop' });
    await sheet.waitFor();
    const cards = sheet.getByTestId('shop-product');
    await cards.nth(2).waitFor();
    expect(await cards.count()).toBe(3);
    expect(await sheet.getByTestId('shop-product-title').allTextContents()).toEqual(
      expectedOrder.map((p) => p.title),
    );
    // Only the first says it is pinned.
    expect(await cards.nth(0).getByTestId('shop-product-pinned').count()).toBe(1);
    expect(await sheet.getByTestId('shop-product-pinned').count()).toBe(1);
    expect(await sheet.getByTestId('shop-product-price').allTextContents()).toEqual(
      expectedOrder.map((p) => formatCents(p.priceCents)),
    );
    const row = cards.filter({ hasText: target.title });
    expect(await row.getByTestId('shop-product-stock').textContent()).toBe(`${target.stock} left`);
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}way-in-room-shop-${name}.png` });

    await row.getByTestId('buy-now').click();
    const checkout = page.getByRole('dialog', { name: 'Checkout' });
    await shipToAnAddressIfAsked(checkout);
    expect(await checkout.getByTestId('room-checkout-title').textContent()).toBe(target.title);
    await page.screenshot({ path: `${SCREENSHOTS}way-in-room-shop-checkout-${name}.png` });
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await checkout.waitFor({ state: 'detached' });

    // Back on the list, which the room's socket updated: one unit fewer.
    const left = target.stock - 1;
    await row
      .getByTestId('shop-product-stock')
      .filter({ hasText: left > 0 ? `${left} left` : 'Sold Out' })
      .waitFor();
    expect(await sheet.isVisible()).toBe(true);
    if (left > 0) {
      // Focus came back to the Buy Now that opened the checkout.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('buy-now');
    }
    await sheet.getByRole('button', { name: 'Close the shop' }).click();
    await sheet.waitFor({ state: 'detached' });
    await open.waitFor();
    watched.expectNoErrors(signedOut);
    // A room left open plays on: close each page, the machine is shared.
    await watched.close();
  });

  it('the storefront of the live seller says Live now and leads to the room', async () => {
    const watched = await newPage({ viewport, bypassCSP: true });
    const { page } = watched;
    await page.goto(`/s/${DEMO_SELLER}`);
    const live = page.getByTestId('storefront-live');
    await live.waitFor();
    expect(await live.getAttribute('href')).toBe(`/room/${DEMO_ROOM}`);
    expect(await live.getByTestId('storefront-live-title').textContent()).toBe(DEMO_TITLE);
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}way-in-storefront-${name}.png` });
    await live.click();
    await page.waitForURL(new RegExp(`/room/${DEMO_ROOM}$`));
    await page.getByTestId('live-badge').waitFor();
    watched.expectNoErrors(signedOut);
    // A room left open plays on: close each page, the machine is shared.
    await watched.close();
  });
});
