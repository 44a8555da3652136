import { mkdir } from 'node:fs/promises';
import type { ExploreResponse, Product } from '@streamshop/contract/catalog.ts';
import type { OrdersPage } from '@streamshop/contract/orders.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/**
 * A signed-out buyer's way back (issue 27): /signin?next=/checkout/<id> (where a signed-out Buy
 * Now leads) returns to that checkout after signing in or signing up; an off-site next is ignored;
 * and after paying, a new buyer's dashboard opens on the spec's Orders tab with the order in it.
 */

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage, url } = e2e;
const SHOTS = '/tmp/shots/';
/** The password newAccount() gives every account. */
const PASSWORD = newAccount('x').password;
const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

/** Demo products with units to spare: each test checks out a product of its own. */
let products: Product[] = [];

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  const response = await fetch(new URL('/api/explore?limit=100', e2e.server.url));
  if (!response.ok) throw new Error(`/api/explore: ${response.status}`);
  const explore = (await response.json()) as ExploreResponse;
  products = explore.products.filter((product) => product.stock >= 2 && product.priceCents > 0);
  if (products.length < 4) throw new Error('the demo catalogue has too few products in stock');
}, 120_000);

function demoProduct(index: number): Product {
  const product = products[index];
  if (!product) throw new Error(`no demo product #${index}`);
  return product;
}

const checkoutPath = (product: Product) => `/checkout/${product.id}`;
const signinWithNext = (next: string) => `/signin?${new URLSearchParams({ next })}`;

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

async function signIn(page: Page, handle: string) {
  await page.getByTestId('signin-handle').fill(handle);
  await page.getByTestId('signin-password').fill(PASSWORD);
  await page.getByTestId('signin-submit').click();
}

/** An account made in a browser of its own (signed up through the form): answers its handle. */
async function existingAccount(prefix: string): Promise<string> {
  const other = await newPage();
  const handle = await signUpThroughForm(other.page, prefix);
  other.expectNoErrors(signedOut);
  return handle;
}

describe.each([
  ['desktop', { width: 1366, height: 900 }, 0],
  ['phone', { width: 390, height: 844 }, 2],
] as const)('a signed-out buyer returns to checkout (%s)', (width, viewport, firstProduct) => {
  it('signs in from /signin?next=/checkout/<id> and lands on that checkout', async () => {
    const product = demoProduct(firstProduct);
    const handle = await existingAccount(`back_${width}`);
    const watched = await newPage({ viewport });
    const { page } = watched;
    await page.goto(signinWithNext(checkoutPath(product)));
    // The way to sign up instead keeps the destination.
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
      `/signup?${new URLSearchParams({ next: checkoutPath(product) })}`,
    );
    await signIn(page, handle);
    await page.waitForURL(url(checkoutPath(product)));
    await shipToAnAddressIfAsked(page);
    expect(await page.getByTestId('checkout-product-title').textContent()).toBe(product.title);
    await page.screenshot({ path: `${SHOTS}buyer-return-checkout-${width}.png` });
    watched.expectNoErrors(signedOut);
  });

  it("signs up instead, pays, and finds the order on the dashboard's Orders tab", async () => {
    const product = demoProduct(firstProduct + 1);
    const account = newAccount(`new_${width}`);
    const watched = await newPage({ viewport });
    const { page } = watched;
    await page.goto(signinWithNext(checkoutPath(product)));
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(url(`/signup?${new URLSearchParams({ next: checkoutPath(product) })}`));
    await page.getByTestId('signup-first-name').fill(account.firstName);
    await page.getByTestId('signup-last-name').fill(account.lastName);
    await page.getByTestId('signup-email').fill(account.email);
    await page.getByTestId('signup-handle').fill(account.handle);
    await page.getByTestId('signup-password').fill(account.password);
    await page.getByTestId('signup-confirm-password').fill(account.password);
    await page.getByTestId('signup-submit').click();
    // Sign-up signs the account in at once (the email is confirmed later): straight to checkout.
    await page.waitForURL(url(checkoutPath(product)));
    await shipToAnAddressIfAsked(page);
    expect(await page.getByTestId('checkout-product-title').textContent()).toBe(product.title);

    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await page.waitForURL(/\/dashboard(\?tab=orders)?$/);
    const [bought] = (
      await page.evaluate(async () => (await fetch('/api/orders?role=buyer')).json() as Promise<OrdersPage>)
    ).orders;
    if (!bought) throw new Error('the order is not listed');
    const orderNumber = `Order #${bought.id.slice(0, 8)}`;
    const expectOrderShown = async () => {
      expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Orders');
      const row = page.getByTestId('dashboard-order').filter({ hasText: orderNumber });
      await row.waitFor();
      expect(await row.getByTestId('dashboard-order-number').textContent()).toMatch(/^Order #[0-9a-f]{8}$/);
      expect(await row.getByTestId('dashboard-order-status').textContent()).toBe('Completed');
      expect(await row.textContent()).toContain(product.title);
    };
    // A new buyer's dashboard greets them as one, their orders first.
    await page.getByRole('heading', { level: 1, name: 'Your Dashboard' }).waitFor();
    expect(await page.getByTestId('dashboard-greeting').textContent()).toBe(`Welcome, @${account.handle}`);
    await expectOrderShown();
    await page.goto('/dashboard?tab=orders');
    await expectOrderShown();
    expect(await page.getByTestId('dashboard-all-orders').getAttribute('href')).toBe('/orders');
    // The five tabs and the rows fit the window: nothing scrolls sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}buyer-return-dashboard-orders-${width}.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);
    watched.expectNoErrors(signedOut);
  });

  it('ignores an off-site next (//example.com): signing in lands on /dashboard', async () => {
    const handle = await existingAccount(`evil_${width}`);
    const watched = await newPage({ viewport });
    const { page } = watched;
    await page.goto(signinWithNext('//example.com'));
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    await signIn(page, handle);
    await page.waitForURL(url('/dashboard'));
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(new URL(page.url()).host).toBe(new URL(e2e.server.url).host);
    watched.expectNoErrors(signedOut);
  });
});

describe('opening checkout itself while signed out', () => {
  it("keeps the spec's toast and goes to /", async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto(checkoutPath(demoProduct(0)));
    await expectToast(page, 'Authentication Required', 'Please sign in to complete your purchase.');
    await page.waitForURL(url('/'));
    watched.expectNoErrors(signedOut);
  });
});
