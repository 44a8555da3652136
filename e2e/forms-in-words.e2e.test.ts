import { mkdir } from 'node:fs/promises';
import type { FacetsResponse } from '@streamshop/contract/catalog.ts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillSignUpForm, newAccount, signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/**
 * Issue 27 item 9, "Forms speak people": sign-in by email, field errors beside their fields in
 * words (sign-in, sign-up, forgot password, the ship dialog), and carriers picked from a list
 * that the buyer's /orders shows by name with a tracking link.
 */

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
/** Screenshots for a person to look at (outside the repository). */
const SHOTS = '/tmp/shots/forms-';
beforeAll(async () => {
  await mkdir('/tmp/shots', { recursive: true });
});
const { newPage } = e2e;

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

/** The input is marked invalid and its aria-describedby names a visible message with `text`. */
async function expectFieldError(page: Page, input: Locator, text: string) {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const messages = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(messages).toContain(text);
  const message = page.locator(`[id="${ids[messages.indexOf(text)]}"]`);
  expect(await message.isVisible()).toBe(true);
  // Beside its field: just under the input, not in a toast across the page.
  const [field, below] = await Promise.all([input.boundingBox(), message.boundingBox()]);
  expect(below && field && below.y - (field.y + field.height)).toBeGreaterThanOrEqual(0);
  expect(below && field && below.y - (field.y + field.height)).toBeLessThan(40);
}

describe('forms in words', { timeout: 180_000 }, () => {
  it.each(WIDTHS)('signs in with the email address ($name)', async ({ name, viewport }) => {
    const account = newAccount('byemail');
    const first = await newPage({ viewport });
    await fillSignUpForm(first.page, account);
    await first.page.getByTestId('signup-submit').click();
    await first.page.waitForURL(/\/dashboard/);
    first.expectNoErrors([SIGNED_OUT_PROBE]);

    const watched = await newPage({ viewport });
    const { page } = watched;
    await page.goto('/signin');
    const identifier = page.getByLabel('Handle or email');
    await identifier.fill(` ${account.email.toUpperCase()} `);
    await page.getByTestId('signin-password').fill(account.password);
    await page.screenshot({ path: `${SHOTS}signin-email-${name}.png` });
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('drawer-toggle').click();
    expect(await page.getByTestId('drawer-handle').textContent()).toBe(`@${account.handle}`);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it.each(WIDTHS)(
    'shows sign-in, sign-up and forgot-password errors beside their fields ($name)',
    async ({ name, viewport }) => {
      const owner = await newPage({ viewport });
      const takenHandle = await signUpThroughForm(owner.page, 'taken');
      owner.expectNoErrors([SIGNED_OUT_PROBE]);
      const taken = newAccount('taken');

      const watched = await newPage({ viewport });
      const { page } = watched;

      // Sign-in: the spec's toast, and the words beside the field that needs them.
      await page.goto('/signin');
      await page.getByTestId('signin-submit').click();
      await expectToast(page, 'Handle Required', 'Please enter your handle to continue.');
      const identifier = page.getByTestId('signin-handle');
      await expectFieldError(page, identifier, 'Please enter your handle or email.');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
        'signin-handle',
      );
      await page.screenshot({ path: `${SHOTS}signin-errors-${name}.png`, fullPage: true });
      await expectNoSeriousA11yProblems(page);

      // Sign-up: a handle someone has, answered 409 by the server, shows as a sentence by the handle.
      await page.goto('/signup');
      await page.getByTestId('signup-submit').click();
      await expectToast(page, 'First Name Required');
      await expectFieldError(page, page.getByTestId('signup-first-name'), 'Please enter your first name.');
      await page.getByTestId('signup-first-name').fill(taken.firstName);
      await page.getByTestId('signup-last-name').fill(taken.lastName);
      await page.getByTestId('signup-email').fill(taken.email);
      await page.getByTestId('signup-handle').fill(takenHandle);
      await page.getByTestId('signup-password').fill(taken.password);
      await page.getByTestId('signup-confirm-password').fill(taken.password);
      await page.getByTestId('signup-submit').click();
      await expectToast(page, 'Sign Up Failed', 'That handle is already taken');
      await expectFieldError(page, page.getByTestId('signup-handle'), 'Handle is already taken');
      expect(await page.getByTestId('signup-first-name').getAttribute('aria-invalid')).toBeNull();
      await page.screenshot({ path: `${SHOTS}signup-errors-${name}.png`, fullPage: true });
      await expectNoSeriousA11yProblems(page);

      // Forgot password.
      await page.goto('/forgot-password');
      await page.getByTestId('forgot-email').fill('ana@example');
      await page.getByTestId('forgot-submit').click();
      await expectToast(page, 'Invalid Email', 'Please enter a valid email address.');
      await expectFieldError(page, page.getByTestId('forgot-email'), 'Please enter a valid email address.');
      await page.screenshot({ path: `${SHOTS}forgot-password-errors-${name}.png`, fullPage: true });
      await expectNoSeriousA11yProblems(page);

      watched.expectNoErrors([SIGNED_OUT_PROBE, { status: 409, path: '/api/auth/signup' }]);
    },
  );

  it('ships with a carrier from the list after a worded error, and the buyer sees "USPS" with its link', async () => {
    // The seller lists a product that ships (through the API: the ship dialog is what is checked).
    const sellerPage = await newPage({ viewport: WIDTHS[0].viewport });
    const seller = sellerPage.page;
    await signUpThroughForm(seller, 'carrier');
    const facets = (await (await fetch(e2e.url('/api/facets'))).json()) as FacetsResponse;
    const categoryId = facets.categories[0]?.id;
    if (!categoryId) throw new Error('no categories seeded');
    const productId = await seller.evaluate(async (category) => {
      const response = await fetch('/api/products', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Carrier test record',
          description: 'Ships in a mailer.',
          priceCents: 1500,
          condition: 'used',
          categoryId: category,
          stock: 2,
          fulfillment: 'ship',
          shippingCents: 400,
        }),
      });
      if (!response.ok) throw new Error(`listing failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }, categoryId);

    // The buyer pays for it, with an address.
    const buyerPage = await newPage({ viewport: WIDTHS[0].viewport });
    const buyer = buyerPage.page;
    await signUpThroughForm(buyer, 'carrierbuyer');
    await buyer.goto(`/checkout/${productId}`);
    await shipToAnAddressIfAsked(buyer);
    await payWithCard(buyer, CARD.success);
    await expectToast(buyer, 'Payment Successful');

    // The seller's ship dialog: no carrier and a too-short number get words beside each field.
    await seller.goto('/dashboard?tab=sales');
    const sale = seller.getByTestId('sale').filter({ hasText: 'Carrier test record' });
    await sale.waitFor();
    await sale.getByTestId('sale-ship').click();
    const dialog = seller.getByTestId('ship-dialog');
    await dialog.getByTestId('ship-tracking').fill('1Z9');
    await dialog.getByTestId('ship-submit').click();
    await expectFieldError(
      seller,
      dialog.getByTestId('ship-tracking'),
      'Tracking number must be at least 4 characters',
    );
    await expectFieldError(seller, dialog.getByTestId('ship-carrier'), 'Carrier is required');
    expect(await dialog.textContent()).not.toContain('trackingNumber');
    await seller.screenshot({ path: `${SHOTS}ship-dialog-errors-desktop.png` });
    await expectNoSeriousA11yProblems(seller);
    await seller.setViewportSize(WIDTHS[1].viewport);
    await expectFieldError(
      seller,
      dialog.getByTestId('ship-tracking'),
      'Tracking number must be at least 4 characters',
    );
    await seller.screenshot({ path: `${SHOTS}ship-dialog-errors-phone.png` });
    await expectNoSeriousA11yProblems(seller);

    // The carrier from the list, by its name; the error goes as the field is corrected.
    await dialog.getByTestId('ship-carrier').click();
    const options = seller.getByRole('option');
    expect(await options.allTextContents()).toEqual([
      'USPS',
      'UPS',
      'FedEx',
      'DHL',
      'Royal Mail',
      'Canada Post',
      'Australia Post',
      'Other',
    ]);
    await seller.screenshot({ path: `${SHOTS}ship-dialog-carriers-phone.png` });
    await seller.getByRole('option', { name: 'USPS', exact: true }).click();
    expect(await dialog.getByTestId('ship-carrier').textContent()).toBe('USPS');
    expect(await dialog.getByTestId('ship-carrier').getAttribute('aria-invalid')).toBeNull();
    await dialog.getByTestId('ship-tracking').fill('9400 1000 0000 0000 0000 00');
    await dialog.getByTestId('ship-submit').click();
    await expectToast(seller, 'Marked shipped');
    await sale.getByTestId('order-status').filter({ hasText: 'Shipped' }).waitFor();
    expect(await sale.getByTestId('order-carrier').textContent()).toBe('USPS');

    // The buyer's /orders: "USPS", not "usps", and the tracking link, at both widths.
    const link = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000';
    for (const { name, viewport } of WIDTHS) {
      await buyer.setViewportSize(viewport);
      await buyer.goto('/orders');
      const purchase = buyer.getByTestId('purchase').filter({ hasText: 'Carrier test record' });
      await purchase.getByTestId('order-carrier').waitFor();
      expect(await purchase.getByTestId('order-carrier').textContent()).toBe('USPS');
      expect(await purchase.getByTestId('order-tracking-link').getAttribute('href')).toBe(link);
      await buyer.screenshot({ path: `${SHOTS}orders-carrier-${name}.png`, fullPage: true });
    }
    await expectNoSeriousA11yProblems(buyer);

    sellerPage.expectNoErrors([SIGNED_OUT_PROBE]);
    buyerPage.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
