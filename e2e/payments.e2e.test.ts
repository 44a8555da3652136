import type { ExploreResponse, Product } from '@streamshop/contract/catalog.ts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage } = e2e;
/** Demo products with units to spare, one per test so no buyer waits on another's reservation. */
let products: Product[] = [];

beforeAll(async () => {
  const response = await fetch(new URL('/api/explore?limit=100', e2e.server.url));
  if (!response.ok) throw new Error(`/api/explore: ${response.status}`);
  const explore = (await response.json()) as ExploreResponse;
  products = explore.products.filter((product) => product.stock >= 2 && product.priceCents > 0);
  if (products.length < 3) throw new Error('the demo catalogue has too few products in stock');
}, 120_000);

function demoProduct(index: number): Product {
  const product = products[index];
  if (!product) throw new Error(`no demo product #${index}`);
  return product;
}

/** The sign-up page's auth probe answers 401 before the account exists. */
const signedOutBeforeSignUp: ExpectedFailure[] = [SIGNED_OUT_PROBE];

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

async function openCheckout(page: Page, product: Product) {
  await page.goto(`/checkout/${product.id}`);
  await shipToAnAddressIfAsked(page);
  expect(await page.getByTestId('checkout-product-title').textContent()).toBe(product.title);
}

/** After paying: the dashboard counts the purchase, and /orders lists it as paid. */
async function expectOrderOnDashboard(page: Page, product: Product) {
  await page.waitForURL(/\/dashboard\?tab=orders$/);
  await page.getByTestId('stat-orders-note').waitFor();
  expect(await page.getByTestId('stat-orders-note').textContent()).toMatch(
    /^Not counted: \d+ orders? you placed as a buyer$/,
  );
  await page.goto('/orders');
  const order = page.getByTestId('purchase').filter({ hasText: product.title });
  await order.waitFor();
  expect(await order.getByTestId('order-status').textContent()).toBe('Paid');
}

describe('checkout', { timeout: 90_000 }, () => {
  it('pays for a demo product with 4242 and lists the order on the dashboard', async () => {
    const product = demoProduct(0);
    const watched = await newPage();
    const { page } = watched;
    await signUpThroughForm(page, 'buyer');
    await openCheckout(page, product);
    expect(await page.getByTestId('checkout-processing-fee').textContent()).toBe('$0.00');
    // Looking holds nothing: the unit is reserved only once Pay is pressed.
    expect(await page.getByTestId('checkout-reservation').count()).toBe(0);
    await expectNoSeriousA11yProblems(page);

    await payWithCard(page, CARD.success);
    expect(await page.getByTestId('card-number').inputValue()).toBe('4242 4242 4242 4242');
    await expectToast(
      page,
      'Payment Successful',
      'Thank you for your purchase! Redirecting to your orders...',
    );
    expect(await page.getByTestId('payment-submit').isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}checkout-paid.png` });

    await expectOrderOnDashboard(page, product);
    watched.expectNoErrors(signedOutBeforeSignUp);
  });

  it('shows a declined card and lets the buyer pay with another one', async () => {
    const product = demoProduct(1);
    const watched = await newPage();
    const { page } = watched;
    await signUpThroughForm(page, 'decline');
    await openCheckout(page, product);

    await payWithCard(page, CARD.declined);
    await expectToast(page, 'Payment Failed', 'Your card was declined.');
    // Pay opened the session: the unit is the buyer's while they try another card.
    expect(await page.getByTestId('checkout-reservation').textContent()).toMatch(/^Reserved for you for/);
    // The form is usable again, with the same payment session.
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid="payment-submit"]') as HTMLButtonElement).disabled,
    );

    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await expectOrderOnDashboard(page, product);
    watched.expectNoErrors(signedOutBeforeSignUp);
  });

  it('completes the 3-D Secure step of 4000 0025 0000 3155', async () => {
    const product = demoProduct(2);
    const watched = await newPage();
    const { page } = watched;
    await signUpThroughForm(page, 'threeds');
    await openCheckout(page, product);

    await payWithCard(page, CARD.authentication);
    const dialog = page.getByRole('dialog', { name: 'Confirm this payment' });
    await dialog.waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}checkout-3ds.png` });
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    await expectToast(page, 'Payment Successful');
    await expectOrderOnDashboard(page, product);
    watched.expectNoErrors(signedOutBeforeSignUp);
  });
});

/** From the dashboard's upgrade link through a paid 4242 to the dashboard's Pro plan row. */
async function upgradeToPro(page: Page, screenshot = false) {
  await page.getByTestId('upgrade-link').click();
  await page.waitForURL(/\/subscribe$/);
  await page.getByTestId('card-number').waitFor();
  expect(await page.getByTestId('pro-price').textContent()).toBe('$9.99');
  if (screenshot) {
    await page.screenshot({ path: `${SCREENSHOTS}subscribe.png`, fullPage: true });
    await expectNoSeriousA11yProblems(page);
  }
  await payWithCard(page, CARD.success);
  await expectToast(page, 'Welcome to Pro!');
  await page.waitForURL(/\/dashboard$/);
  // The refreshed user is pro: no upgrade link, the plan row instead.
  await page.getByTestId('plan-summary').waitFor();
  expect(await page.getByTestId('upgrade-link').count()).toBe(0);
}

describe('Pro subscription', { timeout: 90_000 }, () => {
  it('upgrades a free user with 4242, shows 15:00 on /golive and can be cancelled', async () => {
    const watched = await newPage();
    const { page } = watched;
    await signUpThroughForm(page, 'pro');
    await upgradeToPro(page, true);

    await page.goto('/golive');
    expect(await page.getByTestId('plan-name').textContent()).toBe('PRO');
    expect(await page.getByTestId('plan-duration').textContent()).toBe('15:00');

    await page.goto('/dashboard');
    await page.getByTestId('cancel-subscription').click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel your Pro subscription?' });
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByTestId('pro-until').waitFor();
    expect(await page.getByTestId('pro-until').textContent()).toMatch(/^Pro until \w{3} \d{1,2}, \d{4}$/);
    await page.screenshot({ path: `${SCREENSHOTS}dashboard-pro-until.png` });
    watched.expectNoErrors(signedOutBeforeSignUp);
  });

  it('gives the money back from the dashboard once: free at once, and not offered on a second subscription', async () => {
    const watched = await newPage();
    const { page } = watched;
    await signUpThroughForm(page, 'refund');
    await upgradeToPro(page);

    await page.getByTestId('refund-subscription').click();
    const confirm = page.getByRole('alertdialog', { name: 'Get your money back?' });
    expect(await confirm.textContent()).toMatch(/yours is open until \w{3} \d{1,2}, \d{4}\./);
    await page.screenshot({ path: `${SCREENSHOTS}dashboard-refund.png` });
    await expectNoSeriousA11yProblems(page);
    await confirm.getByRole('button', { name: 'Refund and end Pro' }).click();
    await expectToast(page, 'Refund on its way');
    // Free at once: the upgrade link is back and /golive offers 99 seconds.
    await page.getByTestId('upgrade-link').waitFor();
    expect(await page.getByTestId('plan-summary').count()).toBe(0);
    await page.goto('/golive');
    expect(await page.getByTestId('plan-duration').textContent()).toBe('1:39');

    await page.goto('/dashboard');
    await upgradeToPro(page);
    // The plan row shows the new subscription once its answer is in (both buttons come with it).
    await page.getByTestId('cancel-subscription').waitFor();
    expect(await page.getByTestId('refund-subscription').count()).toBe(0);
    watched.expectNoErrors(signedOutBeforeSignUp);
  });
});

/** A product of one unit, listed by a new seller through the API from their signed-in page. */
async function listOneUnit(page: Page, title: string): Promise<Product> {
  await signUpThroughForm(page, 'lastseller');
  return page.evaluate(async (productTitle) => {
    const response = await fetch('/api/products', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: productTitle,
        priceCents: 1500,
        stock: 1,
        condition: 'used',
        categoryId: 1,
        fulfillment: 'digital',
      }),
    });
    if (!response.ok) throw new Error(`POST /api/products: ${response.status} ${await response.text()}`);
    return response.json();
  }, title);
}

describe('the last unit', { timeout: 120_000 }, () => {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    it(`goes to the buyer who pays, not to one who only looks at checkout (${width} px)`, async () => {
      const seller = await newPage();
      const product = await listOneUnit(seller.page, `Last copy ${width}`);

      const looker = await newPage({ viewport: { width, height } });
      await signUpThroughForm(looker.page, 'looker');
      await openCheckout(looker.page, product);
      await looker.page.getByTestId('card-number').waitFor();

      const payer = await newPage({ viewport: { width, height } });
      await signUpThroughForm(payer.page, 'payer');
      await openCheckout(payer.page, product);
      await payWithCard(payer.page, CARD.success);
      await expectToast(payer.page, 'Payment Successful');
      await payer.page.waitForURL(/\/dashboard\?tab=orders$/);

      // The one who only looked is told at Pay, and charged nothing.
      await payWithCard(looker.page, CARD.success);
      const refused = looker.page
        .getByTestId('checkout-sold-out-message')
        .or(looker.page.getByTestId('checkout-pay-error'));
      await refused.first().waitFor();
      expect(await refused.first().textContent()).toMatch(/sold|checking out/i);
      await looker.page.screenshot({ path: `${SCREENSHOTS}checkout-last-unit-taken-${width}.png` });
      await expectNoSeriousA11yProblems(looker.page);
      looker.expectNoErrors([...signedOutBeforeSignUp, { status: 409, path: `/api/checkout/${product.id}` }]);
      payer.expectNoErrors(signedOutBeforeSignUp);
    });
  }

  it('comes back to the shop at once when a buyer who pressed Pay leaves checkout', async () => {
    const seller = await newPage();
    const product = await listOneUnit(seller.page, 'Last copy left behind');
    const first = await newPage();
    await signUpThroughForm(first.page, 'leaver');
    await openCheckout(first.page, product);
    await payWithCard(first.page, CARD.declined);
    await expectToast(first.page, 'Payment Failed');
    await first.page.getByTestId('checkout-reservation').waitFor();
    const released = first.page.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().includes(product.id),
    );
    await first.page.getByRole('link', { name: 'Back to Marketplace' }).first().click();
    expect((await released).status()).toBe(204);

    const second = await newPage();
    await signUpThroughForm(second.page, 'next');
    await openCheckout(second.page, product);
    await payWithCard(second.page, CARD.success);
    await expectToast(second.page, 'Payment Successful');
    first.expectNoErrors(signedOutBeforeSignUp);
    second.expectNoErrors(signedOutBeforeSignUp);
  });
});
