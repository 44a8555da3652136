import type { Stream } from '@streamshop/contract/catalog.ts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectInViewport, expectToast, waitForVideoFrame } from './page-checks.ts';
import { shipToAnAddressIfAsked } from './shipping-address.ts';
import { goLive } from './video-checks.ts';

/**
 * The live room on a phone (issue 31, ADR 0025): the video fills the screen with the host, chat,
 * pinned product and shop over it; buying keeps the video in sight; the keyboard leaves the chat
 * input visible; landscape; axe at phone and desktop widths. The demo's always-live room is the show.
 */
const e2e = useE2e({ env: { ...DEMO_SHOP_ENV, DEMO_LIVE: 'true' }, page: { bypassCSP: true }, camera: true });
const { newPage } = e2e;

const DEMO_ROOM = 'demo-live-crate-digging';
const UPRIGHT = { width: 390, height: 844 };
const SIDEWAYS = { width: 844, height: 390 };
const PHONE = { viewport: UPRIGHT, isMobile: true, hasTouch: true };

let buyer: WatchedPage;

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

async function boxOf(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} is not shown`);
  return box;
}

/** The video's element covers the whole window. */
async function expectVideoFillsWindow(page: Page) {
  const box = await boxOf(page.getByTestId('live-video'), 'the video');
  const size = page.viewportSize();
  expect(size).not.toBeNull();
  expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, size?.width, size?.height]);
}

const currentTime = (page: Page) =>
  page.getByTestId('live-video').evaluate((video: HTMLVideoElement) => video.currentTime);

beforeAll(async () => {
  // The demo room goes live a moment after the server answers.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(e2e.url('/api/streams/live'));
    const live = (await response.json()) as Stream[];
    if (live.some((stream) => stream.roomName === DEMO_ROOM)) break;
    if (Date.now() > deadline) throw new Error(`${DEMO_ROOM} never appeared in /api/streams/live`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  buyer = await newPage(PHONE);
  await signUpThroughForm(buyer.page, 'phoneroom');
  await buyer.page.goto(`/room/${DEMO_ROOM}`);
  await waitForVideoFrame(buyer.page, 'live-video', 30_000);
}, 120_000);

describe('the live room on a phone', { timeout: 120_000 }, () => {
  it('fills the screen with the video, the host, the live badge and the pinned product over it', async () => {
    const { page } = buyer;
    await page.getByTestId('phone-room').waitFor();
    await expectVideoFillsWindow(page);
    // The site's header and footer step aside; a back button leads to the marketplace.
    expect(await page.getByTestId('nav-logo').isVisible()).toBe(false);
    expect(await page.getByTestId('room-back').getAttribute('href')).toBe('/explore');
    expect(await page.getByTestId('room-host').textContent()).toBe('@juno_beats');
    await page.getByTestId('follow-button').waitFor();
    await page.getByTestId('live-badge').waitFor();
    await expectInViewport(page, page.getByTestId('pinned-product'), 'the pinned product');
    // The demo clip is landscape: letterboxed upright, until the viewer fills the screen with it.
    const video = page.getByTestId('live-video');
    expect(await video.getAttribute('data-fit')).toBe('contain');
    await page.getByTestId('video-fit').tap();
    expect(await video.getAttribute('data-fit')).toBe('cover');
    await page.getByTestId('video-fit').tap();
    expect(await video.getAttribute('data-fit')).toBe('contain');
    // Sound is one tap.
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
    await page.getByTestId('unmute').tap();
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(false);
    expect(await page.getByTestId('unmute').getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: `${SCREENSHOTS}phone-room-390x844.png` });
    await expectNoSeriousA11yProblems(page);
  });

  it('chats over the video, hides the chat with a tap, and keeps the input above the keyboard', async () => {
    const { page } = buyer;
    const text = `Nice crate ${Date.now() % 10_000}`;
    await page.getByTestId('chat-input').fill(text);
    await page.getByTestId('chat-send').tap();
    const line = page.getByTestId('chat-message-text').filter({ hasText: text });
    await line.waitFor();
    await expectInViewport(page, line, 'the new chat line');

    await page.getByTestId('chat-visibility').tap();
    await line.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('chat-visibility').getAttribute('aria-pressed')).toBe('true');
    // The input stays: hiding the lines is not leaving the chat.
    await expectInViewport(page, page.getByTestId('chat-input'), 'the chat input with the chat hidden');
    await page.getByTestId('chat-visibility').tap();
    await line.waitFor();

    // An on-screen keyboard takes the lower 40 % of the screen: the room shrinks to what is left.
    await page.getByTestId('chat-input').focus();
    await page.setViewportSize({ width: UPRIGHT.width, height: 500 });
    await expectInViewport(page, page.getByTestId('chat-input'), 'the chat input over the keyboard');
    await expectInViewport(page, page.getByTestId('chat-send'), 'Send over the keyboard');
    await page.setViewportSize(UPRIGHT);
  });

  it('buys from the shop in a half-height sheet while the video plays on above it', async () => {
    const { page } = buyer;
    await page.getByTestId('room-shop-open').tap();
    const shop = page.getByTestId('room-shop');
    await shop.waitFor();
    // The sheet takes at most the lower ~55 % of the screen: the video shows above it.
    expect((await boxOf(shop, 'the shop')).y).toBeGreaterThan(UPRIGHT.height * 0.4);
    const product = shop
      .getByTestId('shop-product')
      .filter({ has: page.getByTestId('buy-now') })
      .first();
    await product.getByTestId('buy-now').tap();
    const sheet = page.getByRole('dialog', { name: 'Checkout' });
    await shipToAnAddressIfAsked(sheet);
    await sheet.getByTestId('card-number').waitFor();
    expect((await boxOf(sheet, 'the checkout')).y).toBeGreaterThan(UPRIGHT.height * 0.4);
    await page.screenshot({ path: `${SCREENSHOTS}phone-room-checkout-390x844.png` });

    const before = await currentTime(page);
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Payment Successful');
    await sheet.waitFor({ state: 'detached' });
    // The video played on through the purchase.
    await page.waitForFunction((time) => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="live-video"]');
      return !!video && !video.paused && video.currentTime > time + 1;
    }, before);
    // Paying comes back to the shop's list; closing it leaves the room as it was.
    await shop.getByRole('button', { name: 'Close the shop' }).tap();
    await shop.waitFor({ state: 'detached' });
  });

  it('turned sideways, shows the video full-screen with the overlay', async () => {
    const { page } = buyer;
    await page.setViewportSize(SIDEWAYS);
    await page.getByTestId('phone-room').waitFor();
    await expectVideoFillsWindow(page);
    // The landscape clip now fills the landscape screen by itself.
    expect(await page.getByTestId('live-video').getAttribute('data-fit')).toBe('cover');
    for (const testId of [
      'chat-input',
      'room-shop-open',
      'unmute',
      'video-fit',
      'chat-visibility',
      'live-badge',
      'pinned-product',
    ]) {
      await expectInViewport(page, page.getByTestId(testId).first(), testId);
    }
    await page.screenshot({ path: `${SCREENSHOTS}phone-room-844x390.png` });
    await expectNoSeriousA11yProblems(page);
    await page.setViewportSize(UPRIGHT);
  });

  it('publishes portrait from a phone held upright, and a phone viewer sees it fill the screen', async () => {
    const seller = await newPage(PHONE);
    const { roomPath } = await goLive(seller.page, 'upright', 'Digging from my phone');
    const preview = seller.page.getByTestId('camera-preview');
    expect(await preview.evaluate((video: HTMLVideoElement) => video.videoHeight > video.videoWidth)).toBe(
      true,
    );

    const viewer = await newPage(PHONE);
    await viewer.page.goto(roomPath);
    await waitForVideoFrame(viewer.page, 'live-video', 30_000);
    const size = await viewer.page
      .getByTestId('live-video')
      .evaluate((video: HTMLVideoElement) => ({ width: video.videoWidth, height: video.videoHeight }));
    expect(size.height, JSON.stringify(size)).toBeGreaterThan(size.width);
    // The first frame may come in the room shell's preview, before the phone room fits it.
    await viewer.page
      .locator('[data-testid="phone-room"] [data-testid="live-video"][data-fit="cover"]')
      .waitFor();
    await viewer.page.screenshot({ path: `${SCREENSHOTS}phone-room-portrait-stream.png` });
    viewer.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it('keeps the desktop layout, without violations, on a wide window', async () => {
    const watched = await newPage({ viewport: { width: 1280, height: 800 } });
    const { page } = watched;
    await page.goto(`/room/${DEMO_ROOM}`);
    await waitForVideoFrame(page, 'live-video', 30_000);
    expect(await page.getByTestId('phone-room').count()).toBe(0);
    expect(await page.getByTestId('nav-logo').isVisible()).toBe(true);
    await expectNoSeriousA11yProblems(page);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it('lets new chat lines in without motion when the phone asks for less', async () => {
    const { page } = buyer;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const duration = await page
      .getByTestId('chat-message')
      .last()
      .evaluate((line) => Number.parseFloat(getComputedStyle(line).animationDuration));
    expect(duration).toBeLessThan(0.001);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    buyer.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});

/**
 * The room shell (ADR 0027): the page the server sends for a room plays its live video before the
 * app's code has loaded, and the room takes that video over without a new connection or a gap.
 * The app's main chunk is held back until the shell has shown a frame.
 */
describe('the room shell', { timeout: 120_000 }, () => {
  const DESKTOP = { viewport: { width: 1280, height: 800 } };

  async function openWithAppHeld(options: typeof PHONE | typeof DESKTOP) {
    const watched = await newPage(options);
    const { page } = watched;
    const mediaSockets: string[] = [];
    page.on('websocket', (socket) => {
      if (socket.url().includes('/ws/media')) mediaSockets.push(socket.url());
    });
    let releaseApp = () => {};
    const appHeld = new Promise<void>((resolve) => {
      releaseApp = resolve;
    });
    await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
      await appHeld;
      await route.continue();
    });
    // Not the load event: it waits for the held chunk.
    await page.goto(`/room/${DEMO_ROOM}`, { waitUntil: 'commit' });
    await waitForVideoFrame(page, 'live-video', 30_000);
    const shellVideo = page.locator('[data-room-shell] [data-testid="live-video"]');
    expect(await shellVideo.count()).toBe(1);
    expect(await shellVideo.getAttribute('data-path')).toBe('ws');
    const before = await boxOf(shellVideo, 'the shell video');
    await shellVideo.evaluate((video) => {
      video.setAttribute('data-from-shell', '');
    });
    return { watched, page, mediaSockets, before, releaseApp };
  }

  /** The room's one video is the shell's element, outside the (gone) preview, still playing. */
  async function expectTakenOver(page: Page, mediaSockets: string[]) {
    expect(await page.locator('[data-room-shell]').count()).toBe(0);
    const video = page.getByTestId('live-video');
    expect(await video.count()).toBe(1);
    expect(await video.getAttribute('data-from-shell')).toBe('');
    expect(await video.getAttribute('data-path')).toBe('ws');
    const start = await currentTime(page);
    await page.waitForFunction((t) => {
      const element = document.querySelector<HTMLVideoElement>('[data-testid="live-video"]');
      return !!element && !element.paused && element.currentTime > t + 1;
    }, start);
    // One media connection: opened by the entry script, kept by the shell, then by the room.
    expect(mediaSockets).toHaveLength(1);
  }

  it('plays before the app on a desktop, and the room keeps that video where it was', async () => {
    const { watched, page, mediaSockets, before, releaseApp } = await openWithAppHeld(DESKTOP);
    await page.screenshot({ path: `${SCREENSHOTS}room-shell-desktop.png` });
    releaseApp();
    await page.getByTestId('pinned-product').first().waitFor();
    await expectTakenOver(page, mediaSockets);
    const after = await boxOf(page.getByTestId('live-video'), 'the room video');
    expect([after.x, after.y, after.width, after.height]).toEqual([
      before.x,
      before.y,
      before.width,
      before.height,
    ]);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it('plays full-screen before the app on a phone, and the phone room takes it over', async () => {
    const { watched, page, mediaSockets, releaseApp } = await openWithAppHeld(PHONE);
    await expectVideoFillsWindow(page);
    releaseApp();
    await page.getByTestId('phone-room').waitFor();
    await expectTakenOver(page, mediaSockets);
    await expectVideoFillsWindow(page);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
