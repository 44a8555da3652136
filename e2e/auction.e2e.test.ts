import type { Auction } from '@streamshop/contract/auctions.ts';
import type { FacetsResponse, Product } from '@streamshop/contract/catalog.ts';
import { ORDER_NUMBER_LENGTH } from '@streamshop/contract/constants.ts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm, signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { enterShippingAddress } from './shipping-address.ts';

/**
 * Live auctions in the browser (issue 28), on the local payment provider: a seller live with a
 * shipped product starts an auction from the room's lineup; a bidder on a laptop and one on a
 * phone each add a card and an address in the first-bid sheet, bid against each other with one
 * tap and a maximum, a late bid extends the clock, and at the close the winner's card is charged
 * the price plus shipping and the order is on their dashboard.
 */

/** A demo seller on the Pro plan (15-minute streams); every demo seller has this password. */
const SELLER = { handle: 'groovevault_records', password: 'demo-password' };
const DESKTOP = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const PRODUCT = { title: 'Auction test pressing', priceCents: 2500, shippingCents: 450 };
/**
 * Long enough for both first-bid sheets on a loaded machine (the clock only extends once a bid is
 * taken); a bid with under 15 s left moves the end to 15 s from then.
 */
const AUCTION = { startingBid: '5', durationSec: 40, extendSec: 15 };
/** How long the steps that wait on the auction's clock may take. */
const CLOCK_TIMEOUT = 60_000;

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage } = e2e;

/** The bids' own answers: 402 before a card is saved, 409 when another maximum is higher. */
const BIDS = /^\/api\/auctions\/[^/]+\/bids$/;
const bidderFailures: ExpectedFailure[] = [
  SIGNED_OUT_PROBE,
  { status: 402, path: BIDS },
  { status: 409, path: BIDS },
];

let product: Product;
let roomName = '';
let seller: WatchedPage;
/** The bidder on a laptop, then the one on a phone, with their handles. */
let desk: WatchedPage;
let phone: WatchedPage;
let deskHandle = '';
let phoneHandle = '';

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Waits until the locator's text is exactly `text`. */
const showsText = (locator: Locator, text: string, timeout = CLOCK_TIMEOUT) =>
  locator.filter({ hasText: exactly(text) }).waitFor({ timeout });

const auctionCard = (page: Page) => page.getByTestId('auction-card');

/** Resolves once the auction's clock on the page shows a time left that `accept`s (whole seconds). */
function clockShows(page: Page, accept: 'at most' | 'at least', seconds: number) {
  return page.waitForFunction(
    ([way, limit]) => {
      const text = document.querySelector('[data-testid="auction-time-left"]')?.textContent ?? '';
      const match = /(\d+):(\d\d)$/.exec(text);
      if (!match) return false;
      const left = Number(match[1]) * 60 + Number(match[2]);
      return way === 'at most' ? left <= limit : left >= limit;
    },
    [accept, seconds] as const,
    { timeout: CLOCK_TIMEOUT, polling: 100 },
  );
}

/** A tap on a phone, a click elsewhere. */
async function press(watched: WatchedPage, locator: Locator) {
  if (watched === phone) await locator.tap();
  else await locator.click();
}

/**
 * The bidder's first tap: refused for want of a card (402), the sheet asks for one (4242 through
 * the saved-card form) and, the product being shipped, an address; then the same bid goes in.
 */
async function firstBid(watched: WatchedPage, name: string, amount: string) {
  const { page } = watched;
  await press(watched, auctionCard(page).getByRole('button', { name: `Bid ${amount}` }));
  const sheet = page.getByTestId('first-bid-sheet');
  await sheet.getByTestId('first-bid-card').getByTestId('card-number').waitFor();
  expect(await sheet.getByRole('heading', { name: 'Before your first bid' }).isVisible()).toBe(true);
  await page.screenshot({ path: `${SCREENSHOTS}auction-first-bid-sheet-${name}.png` });
  await payWithCard(page, CARD.success);
  await sheet.getByTestId('first-bid-address').waitFor();
  await enterShippingAddress(sheet);
  await sheet.waitFor({ state: 'detached' });
  await auctionCard(page).getByTestId('auction-you-lead').waitFor();
  await showsText(auctionCard(page).getByTestId('auction-price'), amount);
}

/** Sets a maximum in the card's Max bid field. */
async function setMaxBid(watched: WatchedPage, dollars: string) {
  const card = auctionCard(watched.page);
  await card.getByTestId('auction-max-bid').fill(dollars);
  await press(watched, card.getByTestId('auction-max-bid-submit'));
}

/** The room's auction as the API has it now. */
async function currentAuction(): Promise<Auction> {
  const response = await fetch(e2e.url(`/api/streams/${roomName}/auctions/current`));
  if (!response.ok) throw new Error(`GET current auction: ${response.status}`);
  const { auction } = (await response.json()) as { auction: Auction | null };
  if (!auction) throw new Error('the room has no auction');
  return auction;
}

beforeAll(async () => {
  const facets = (await (await fetch(e2e.url('/api/facets'))).json()) as FacetsResponse;
  const categoryId = facets.categories[0]?.id;
  if (!categoryId) throw new Error('no categories seeded');

  // The seller lists a shipped product and goes live with it in the lineup (through the API: no
  // video is needed for an auction, only a live room).
  seller = await newPage(DESKTOP, { keep: true });
  await signInThroughForm(seller.page, SELLER.handle, SELLER.password);
  const listed = await seller.page.evaluate(
    async ({ body, title }) => {
      const post = async (url: string, payload?: object) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: payload ? { 'content-type': 'application/json' } : {},
          body: payload ? JSON.stringify(payload) : undefined,
        });
        if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      const created = (await post('/api/products', body)) as Product;
      const { roomName: room } = (await post('/api/rooms', { title })) as { roomName: string };
      await post(`/api/streams/${room}/start`);
      await post(`/api/streams/${room}/lineup`, { productId: created.id });
      return { created, room };
    },
    {
      body: { ...PRODUCT, stock: 2, condition: 'used', categoryId, fulfillment: 'ship' },
      title: 'Auction night',
    },
  );
  product = listed.created;
  roomName = listed.room;

  // The bidders sign up and open the room before the auction starts.
  desk = await newPage(DESKTOP, { keep: true });
  phone = await newPage(PHONE, { keep: true });
  [deskHandle, phoneHandle] = await Promise.all([
    signUpThroughForm(desk.page, 'deskbid'),
    signUpThroughForm(phone.page, 'phonebid'),
  ]);
  await Promise.all([desk.page.goto(`/room/${roomName}`), phone.page.goto(`/room/${roomName}`)]);
}, 120_000);

describe('live auction', { timeout: 120_000 }, () => {
  it('lets the seller start an auction on a lineup product from the room', async () => {
    const { page } = seller;
    await page.goto(`/room/${roomName}`);
    const row = page.getByTestId('lineup-product').filter({ hasText: product.title });
    await row.getByTestId('lineup-start-auction').click();
    const dialog = page.getByRole('dialog', { name: 'Start an auction' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`Auction one ${product.title} (regular $25.00)`);
    await dialog.getByLabel('Starting bid ($)').fill(AUCTION.startingBid);
    await dialog.getByLabel('Duration (seconds)').fill(String(AUCTION.durationSec));
    await dialog.getByLabel('Extension (seconds)').fill(String(AUCTION.extendSec));
    await expectNoSeriousA11yProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}auction-start-dialog-desktop.png` });
    await dialog.getByRole('button', { name: 'Start auction' }).click();
    await expectToast(page, 'Auction started', `${product.title} is up for bids.`);
    await dialog.waitFor({ state: 'detached' });

    const running = page.getByTestId('seller-auction');
    await running.getByTestId('auction-time-left').waitFor();
    await showsText(running.getByTestId('auction-price'), '$5.00');
    // One auction at a time: no other can start while this one runs.
    expect(await page.getByTestId('lineup-start-auction').count()).toBe(0);
  });

  it('takes each bidder’s first bid once the sheet has saved a card and an address', async () => {
    // Both see the auction come up, with the clock running.
    for (const { page } of [desk, phone]) {
      const card = auctionCard(page);
      await showsText(card.getByTestId('auction-product-title'), product.title);
      await showsText(card.getByTestId('auction-price'), '$5.00');
      await card.getByTestId('auction-time-left').waitFor();
    }

    await firstBid(desk, 'desktop', '$5.00');
    // The phone sees the laptop's bid and is offered the next step up.
    const phoneCard = auctionCard(phone.page);
    await showsText(phoneCard.getByTestId('auction-leader'), `Leading: @${deskHandle}`);
    await firstBid(phone, 'phone', '$5.50');

    // The laptop sees the phone's bid in the list and is told it was outbid.
    const deskCard = auctionCard(desk.page);
    await showsText(deskCard.getByTestId('auction-price'), '$5.50');
    await deskCard.getByTestId('auction-outbid').waitFor();
    expect(await deskCard.getByTestId('auction-outbid').textContent()).toBe(
      "You've been outbid. The next bid is $6.00.",
    );
    expect(await deskCard.getByTestId('auction-bids').textContent()).toContain(`@${phoneHandle}$5.50`);
    expect(await phoneCard.getByTestId('auction-bids').textContent()).toContain(`@${deskHandle}$5.00`);
  });

  it('bids for a maximum against a one-tap bid, and says so to the one outbid', async () => {
    const deskCard = auctionCard(desk.page);
    const phoneCard = auctionCard(phone.page);
    // The laptop sets a $9 maximum: it leads one step over the phone's bid.
    await setMaxBid(desk, '9');
    await deskCard.getByTestId('auction-you-lead').waitFor();
    await showsText(deskCard.getByTestId('auction-price'), '$6.00');
    await phoneCard.getByTestId('auction-outbid').waitFor();
    await showsText(phoneCard.getByTestId('auction-price'), '$6.00');

    // The phone taps the next bid: taken, but the laptop's maximum answers it at once.
    await press(phone, phoneCard.getByRole('button', { name: 'Bid $6.50' }));
    await showsText(
      phoneCard.getByTestId('auction-outbid'),
      "You've been outbid. Another bidder's maximum is higher. The next bid is $7.50.",
    );
    await showsText(phoneCard.getByTestId('auction-price'), '$7.00');
    await showsText(deskCard.getByTestId('auction-price'), '$7.00');
    expect(await deskCard.getByTestId('auction-you-lead').isVisible()).toBe(true);
    expect(await phoneCard.getByRole('button', { name: 'Bid $7.50' }).isEnabled()).toBe(true);

    await expectNoSeriousA11yProblems(desk.page);
    await deskCard.screenshot({ path: `${SCREENSHOTS}auction-bidder-card-desktop.png` });
    await desk.page.screenshot({ path: `${SCREENSHOTS}auction-room-desktop.png` });
    await expectNoSeriousA11yProblems(phone.page);
    await phoneCard.scrollIntoViewIfNeeded();
    await phone.page.screenshot({ path: `${SCREENSHOTS}auction-bidder-card-phone.png` });
  });

  it('extends the clock for a late bid, sells to the highest bidder and charges the card', async () => {
    const deskCard = auctionCard(desk.page);
    const phoneCard = auctionCard(phone.page);
    // Late: with under the extension left, the phone's $12 maximum moves the end 15 s on.
    await clockShows(phone.page, 'at most', 8);
    const extended = Promise.all([
      clockShows(phone.page, 'at least', 11),
      clockShows(desk.page, 'at least', 11),
    ]);
    await setMaxBid(phone, '12');
    await extended;
    await phoneCard.getByTestId('auction-you-lead').waitFor();
    await showsText(phoneCard.getByTestId('auction-price'), '$9.50');
    await deskCard.getByTestId('auction-outbid').waitFor();
    await showsText(deskCard.getByTestId('auction-leader'), `Leading: @${phoneHandle}`);

    // The close: everyone reads who bought it and for how much.
    const sold = `Sold to @${phoneHandle} for $9.50`;
    await showsText(phoneCard.getByTestId('auction-outcome'), sold);
    await showsText(deskCard.getByTestId('auction-outcome'), sold);
    const sellerCard = seller.page.getByTestId('seller-auction');
    await showsText(sellerCard.getByTestId('seller-auction-outcome'), sold);
    await sellerCard.screenshot({ path: `${SCREENSHOTS}auction-seller-sold-desktop.png` });
    expect(await deskCard.getByTestId('auction-you-won').count()).toBe(0);
    expect(await deskCard.getByTestId('auction-bid').count()).toBe(0);
    await phoneCard.getByTestId('auction-you-won').waitFor();
    // The order link shows once the winner's saved card is charged.
    const orderLink = phoneCard.getByTestId('auction-order-link');
    await orderLink.waitFor({ timeout: CLOCK_TIMEOUT });
    await desk.page.screenshot({ path: `${SCREENSHOTS}auction-sold-desktop.png` });
    await phoneCard.scrollIntoViewIfNeeded();
    await phone.page.screenshot({ path: `${SCREENSHOTS}auction-won-phone.png` });
    await expectNoSeriousA11yProblems(phone.page);

    const { result } = await currentAuction();
    expect(result).toMatchObject({ winner: { handle: phoneHandle }, priceCents: 950, payment: 'paid' });
    const orderId = result?.orderId ?? '';
    expect(orderId).not.toBe('');

    // The order, on the winner's dashboard: the winning bid plus the product's shipping.
    await press(phone, orderLink);
    await phone.page.waitForURL(/\/dashboard\?tab=orders$/);
    const order = phone.page
      .getByTestId('dashboard-order')
      .filter({ hasText: `Order #${orderId.slice(0, ORDER_NUMBER_LENGTH)}` });
    await order.waitFor();
    expect(await order.textContent()).toContain(product.title);
    expect(await order.getByTestId('dashboard-order-amount').textContent()).toBe('$14.00');
    expect(await order.getByTestId('dashboard-order-status').textContent()).toBe('Completed');
    await order.scrollIntoViewIfNeeded();
    await phone.page.screenshot({ path: `${SCREENSHOTS}auction-order-phone.png` });

    desk.expectNoErrors(bidderFailures);
    phone.expectNoErrors(bidderFailures);
    seller.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
