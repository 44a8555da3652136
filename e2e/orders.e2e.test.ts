import type { ExploreResponse, Product } from '@streamshop/contract/catalog.ts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '../server/src/test/support.ts';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';

/**
 * An order's life in two browsers (ADR 0016): a buyer buys a demo record, its seller ships it
 * from Sales, the buyer follows it on /orders, the seller refunds it; both read the emails a
 * real SMTP server received.
 */

let smtp: TestSmtpServer | undefined;
const e2e = useE2e({
  env: async () => {
    smtp = await startTestSmtpServer();
    return { ...DEMO_SHOP_ENV, SMTP_URL: smtp.url };
  },
  page: { bypassCSP: true },
});
const { newPage } = e2e;
afterAll(async () => {
  await smtp?.stop();
});

const DEMO_PASSWORD = 'demo-password';

const mailbox = () => {
  if (!smtp) throw new Error('the test SMTP server has not started');
  return smtp;
};
const mailTo = (to: string, subject: RegExp) =>
  mailbox().waitFor((m) => m.to === to && subject.test(m.subject), 30_000);

async function demoProductThatShips(): Promise<Product> {
  const response = await fetch(new URL('/api/explore?limit=100', e2e.server.url));
  const explore = (await response.json()) as ExploreResponse;
  // A product not used by the payments spec's first picks, with units to spare.
  const product = explore.products.filter((p) => p.stock >= 2 && p.priceCents > 0).at(-1);
  if (!product) throw new Error('no demo product in stock');
  return product;
}

async function signIn(page: Page, handle: string) {
  await page.goto('/signin');
  await page.getByTestId('signin-handle').fill(handle);
  await page.getByTestId('signin-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(/\/dashboard$/);
}

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

describe('an order from payment to refund', { timeout: 180_000 }, () => {
  it('is shipped from Sales, tracked on /orders, refunded, and mailed to both', async () => {
    const product = await demoProductThatShips();
    const sellerHandle = product.seller.handle;
    const sellerEmail = `${sellerHandle}@example.com`;

    // The buyer pays for it with an address.
    const buyerPage = await newPage();
    const buyer = buyerPage.page;
    const buyerHandle = await signUpThroughForm(buyer, 'orders');
    const buyerEmail = `${buyerHandle}@example.com`;
    await buyer.goto(`/checkout/${product.id}`);
    await shipToAnAddressIfAsked(buyer);
    await payWithCard(buyer, CARD.success);
    await expectToast(buyer, 'Payment Successful');
    const confirmation = await mailTo(buyerEmail, /^Your order #[0-9A-F]{8}: /);
    const reference = /#[0-9A-F]{8}/.exec(confirmation.subject)?.[0] ?? '';
    expect(confirmation.text).toContain(`from @${sellerHandle}`);

    // The seller sees the sale with the address, and ships it.
    const sold = await mailTo(sellerEmail, new RegExp(`^You sold .* \\(${reference}\\)$`));
    expect(sold.text).toContain('Ship it to: Ada Buyer, 1 Record Lane, Bristol, BS1 4DJ, GB.');
    const sellerPage = await newPage();
    const seller = sellerPage.page;
    await signIn(seller, sellerHandle);
    await seller.getByRole('tab', { name: 'Sales' }).click();
    await seller.waitForURL(/\/dashboard\?tab=sales$/);
    const sale = seller.getByTestId('sale').filter({ hasText: reference });
    await sale.waitFor();
    expect(await sale.getByTestId('sale-buyer').textContent()).toBe(`@${buyerHandle}`);
    expect(await sale.getByTestId('order-address').textContent()).toContain('1 Record Lane');
    expect(await sale.getByTestId('order-status').textContent()).toBe('Paid');
    await seller.screenshot({ path: `${SCREENSHOTS}sales.png`, fullPage: true });
    await expectNoSeriousA11yProblems(seller);

    await sale.getByTestId('sale-slip').click();
    const slip = seller.getByTestId('packing-slip');
    await slip.waitFor();
    expect(await slip.getByTestId('slip-reference').textContent()).toBe(`Order ${reference}`);
    await seller.emulateMedia({ media: 'print' });
    await seller.screenshot({ path: `${SCREENSHOTS}packing-slip-print.png` });
    expect(await seller.locator('#root').isVisible()).toBe(false);
    await seller.emulateMedia({ media: 'screen' });
    await seller.keyboard.press('Escape');

    await sale.getByTestId('sale-ship').click();
    const shipDialog = seller.getByTestId('ship-dialog');
    await shipDialog.getByTestId('ship-submit').click();
    await shipDialog.getByText('Carrier is required').waitFor();
    await shipDialog.getByTestId('ship-carrier').click();
    await seller.getByRole('option', { name: 'UPS', exact: true }).click();
    await shipDialog.getByTestId('ship-tracking').fill('1Z999AA10123456784');
    await shipDialog.getByTestId('ship-submit').click();
    await expectToast(seller, 'Marked shipped');
    await sale.getByTestId('order-status').filter({ hasText: 'Shipped' }).waitFor();

    // The buyer follows it on /orders, from the drawer.
    const shippedMail = await mailTo(buyerEmail, new RegExp(`^Your order ${reference} has shipped$`));
    expect(shippedMail.text).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    await buyer.goto('/dashboard');
    await buyer.getByTestId('drawer-toggle').click();
    await buyer.getByTestId('drawer-orders').click();
    await buyer.waitForURL(/\/orders$/);
    const purchase = buyer.getByTestId('purchase').filter({ hasText: reference });
    await purchase.waitFor();
    expect(await purchase.getByTestId('order-status').textContent()).toBe('Shipped');
    const link = purchase.getByTestId('order-tracking-link');
    expect(await link.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(await purchase.getByTestId('order-timeline').textContent()).toMatch(/Paid.*Shipped.*Delivered/);
    expect(await purchase.getByTestId('purchase-cancel').count()).toBe(0);
    await buyer.screenshot({ path: `${SCREENSHOTS}orders.png`, fullPage: true });
    await expectNoSeriousA11yProblems(buyer);

    // The seller refunds it; the buyer's page and mailbox say so.
    await sale.getByTestId('sale-refund').click();
    await seller.getByTestId('refund-confirm').click();
    await expectToast(seller, 'Refunded');
    await sale.getByTestId('order-status').filter({ hasText: 'Refunded' }).waitFor();
    const refundMail = await mailTo(buyerEmail, new RegExp(`refunded \\$[\\d,.]+ for order ${reference}$`));
    expect(refundMail.text).toContain('to the card you paid with');
    await buyer.reload();
    await purchase.getByTestId('order-status').filter({ hasText: 'Refunded' }).waitFor();

    // Earnings: the sale and its refund cancel out in the gross.
    await seller.getByRole('tab', { name: 'Earnings' }).click();
    await seller.getByTestId('earnings-ledger').waitFor();
    await seller.screenshot({ path: `${SCREENSHOTS}earnings.png`, fullPage: true });

    buyerPage.expectNoErrors([SIGNED_OUT_PROBE]);
    sellerPage.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
