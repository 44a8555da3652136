import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast, waitForVideoFrame } from './page-checks.ts';

const e2e = useE2e({ camera: true });
const { newPage } = e2e;

const { url } = e2e;

const signUp = (page: Page) => signUpThroughForm(page, 'live');

async function chatTexts(page: Page): Promise<string[]> {
  return page.getByTestId('chat-message-text').allTextContents();
}

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

describe('live streaming', { timeout: 90_000 }, () => {
  let seller: WatchedPage;
  let guest: WatchedPage;
  let buyer: WatchedPage;
  let roomPath = '';
  const sellerGreeting = 'Welcome! <b>Not bold</b> & 50% off tonight';
  const sellerFarewell = 'Thanks for coming, see you next week';

  it('creates a stream from /golive and lands in the room with the camera preview', async () => {
    seller = await newPage({}, { keep: true });
    const { page } = seller;
    await signUp(page);
    await page.goto('/golive');
    await page.getByRole('heading', { level: 1, name: 'Go Live' }).waitFor();
    expect(await page.getByTestId('plan-name').textContent()).toBe('FREE');
    expect(await page.getByTestId('plan-duration').textContent()).toBe('1:39');
    expect(await page.getByTestId('golive-rtmp-url').count()).toBe(0);

    await page.getByTestId('golive-submit').click();
    expect(await page.getByTestId('golive-title-error').textContent()).toBe('Stream title is required');

    await page.getByLabel('Stream title').fill('Vinyl night');
    expect(await page.getByTestId('golive-title-error').count()).toBe(0);
    await page.getByLabel('Description (optional)').fill('Rare pressings, live.');
    await page.screenshot({ path: `${SCREENSHOTS}golive.png`, fullPage: true });
    await page.getByTestId('golive-submit').click();
    await expectToast(page, 'Live Stream Created!', "You'll be redirected to the streaming room.");
    await page.waitForURL(/\/room\/vinyl-night-[0-9a-f]{8}$/);
    roomPath = new URL(page.url()).pathname;

    await page.getByRole('heading', { level: 1, name: 'Vinyl night' }).waitFor();
    await waitForVideoFrame(page, 'camera-preview', 10_000);
    expect(await page.getByTestId('countdown').textContent()).toContain('01:39');
    expect(await page.getByTestId('live-badge').count()).toBe(0);

    // The toggles switch the tracks off and on again.
    const mic = page.getByRole('button', { name: 'Turn microphone off' });
    await mic.click();
    await page.getByRole('button', { name: 'Turn microphone on' }).click();
    await page.getByRole('button', { name: 'Turn camera off' }).click();
    await page.getByText('Camera is off').waitFor();
    await page.getByRole('button', { name: 'Turn camera on' }).click();
    seller.expectNoErrors(signedOut);
  });

  it('starts the stream: LIVE badge, toast and a running countdown', async () => {
    const { page } = seller;
    await page.getByTestId('start-stream').click();
    await expectToast(page, 'Stream Started', 'You are now live! Viewers can join your stream.');
    await page.getByTestId('live-badge').waitFor();
    await page.getByTestId('end-stream').waitFor();
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="countdown"]')?.textContent ?? '';
      return /01:3[0-8]/.test(text);
    });

    await page.getByTestId('chat-input').fill(sellerGreeting);
    await page.getByTestId('chat-send').click();
    await page.getByTestId('chat-message-text').filter({ hasText: 'Welcome!' }).waitFor();
    seller.expectNoErrors(signedOut);
  });

  it('shows a signed-out viewer the chat history as text and Sign in to chat', async () => {
    guest = await newPage({}, { keep: true });
    const { page } = guest;
    await page.goto(roomPath);
    await page.getByTestId('live-badge').waitFor();
    await page.getByTestId('chat-message-text').first().waitFor();
    expect(await chatTexts(page)).toContain(sellerGreeting);
    expect(await page.locator('[data-testid="chat-messages"] b').count()).toBe(0);
    expect(await page.getByTestId('chat-sign-in').textContent()).toBe('Sign in to chat');
    expect(await page.getByTestId('chat-input').count()).toBe(0);

    // The panel collapses and expands.
    await page.getByRole('button', { name: 'Live Chat' }).click();
    expect(await page.getByTestId('chat-messages').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Live Chat' }).click();
    await page.getByTestId('chat-messages').waitFor();
    guest.expectNoErrors(signedOut);
  });

  it('delivers a signed-in viewer’s message to the seller, who can delete it', async () => {
    buyer = await newPage({}, { keep: true });
    const { page } = buyer;
    const handle = await signUp(page);
    await page.goto(roomPath);
    await page.getByTestId('chat-input').fill('Is the blue record still available?');
    await page.getByTestId('chat-send').click();

    const onSeller = seller.page.getByTestId('chat-message').filter({ hasText: 'blue record' });
    await onSeller.waitFor();
    expect(await onSeller.getByTestId('chat-message-author').textContent()).toBe(`@${handle}`);
    await guest.page.getByTestId('chat-message-text').filter({ hasText: 'blue record' }).waitFor();

    await onSeller.getByRole('button', { name: `Message actions for @${handle}` }).click();
    await seller.page.getByRole('menuitem', { name: 'Delete message' }).click();
    await guest.page
      .getByTestId('chat-message-text')
      .filter({ hasText: 'blue record' })
      .waitFor({ state: 'detached' });
    buyer.expectNoErrors(signedOut);
    seller.expectNoErrors(signedOut);
  });

  it('plays the live video for a viewer within 10 s', async () => {
    await waitForVideoFrame(guest.page, 'live-video', 10_000);
    await guest.page.getByRole('button', { name: 'Unmute' }).waitFor();
    // MediaSource is here: the low-latency WebSocket path, carrying the pipeline's H.264 fMP4.
    expect(await guest.page.getByTestId('live-video').getAttribute('data-path')).toBe('ws');
    // A late joiner gets video too.
    await waitForVideoFrame(buyer.page, 'live-video', 10_000);
    // A viewer arriving by the room's address: the entry script opens the media socket before the
    // app's code has loaded and the player takes that one over, so there is exactly one.
    const arriving = await newPage();
    const mediaSockets: string[] = [];
    arriving.page.on('websocket', (socket) => {
      if (socket.url().includes('/ws/media')) mediaSockets.push(socket.url());
    });
    await arriving.page.goto(roomPath);
    await waitForVideoFrame(arriving.page, 'live-video', 10_000);
    expect(mediaSockets).toHaveLength(1);
    arriving.expectNoErrors(signedOut);
    await arriving.page.close();
    // HLS, forced: the browser's own player, then hls.js.
    for (const [query, engine] of [
      ['hls', 'native'],
      ['hlsjs', 'hls.js'],
    ] as const) {
      const hlsViewer = await newPage();
      const hlsRequests: string[] = [];
      hlsViewer.page.on('request', (request) => {
        if (request.url().includes('/media/hls/')) hlsRequests.push(request.url());
      });
      await hlsViewer.page.goto(`${roomPath}?path=${query}`);
      await waitForVideoFrame(hlsViewer.page, 'live-video', 20_000);
      const video = hlsViewer.page.getByTestId('live-video');
      expect(await video.getAttribute('data-path')).toBe('hls');
      expect(await video.getAttribute('data-engine')).toBe(engine);
      if (engine === 'hls.js') {
        // Low-latency HLS (ADR 0024): hls.js loads parts and reloads the playlist blocking.
        await hlsViewer.page.waitForFunction(() => {
          const live = document.querySelector<HTMLVideoElement>('[data-testid="live-video"]');
          return live !== null && live.currentTime > 1;
        });
        expect(hlsRequests.some((url) => /-p\d+\.m4s$/.test(url))).toBe(true);
        expect(hlsRequests.some((url) => url.includes('_HLS_msn='))).toBe(true);
      }
      hlsViewer.expectNoErrors(signedOut);
      await hlsViewer.page.close();
    }
    // A browser without MediaSource (an older iPhone) is put on HLS by itself.
    const phone = await newPage({ viewport: { width: 390, height: 844 } });
    await phone.page.addInitScript(() => {
      for (const name of ['MediaSource', 'ManagedMediaSource', 'WebKitMediaSource'])
        Reflect.deleteProperty(window, name);
    });
    await phone.page.goto(roomPath);
    await waitForVideoFrame(phone.page, 'live-video', 20_000);
    expect(await phone.page.getByTestId('live-video').getAttribute('data-path')).toBe('hls');
    expect(await phone.page.getByTestId('live-video').getAttribute('data-engine')).toBe('native');
    await phone.page.screenshot({ path: `${SCREENSHOTS}room-viewer-phone-hls.png` });
    phone.expectNoErrors(signedOut);
    await phone.page.close();
    for (const { page } of [seller, guest]) await page.evaluate(() => window.scrollTo(0, 0));
    await seller.page.screenshot({ path: `${SCREENSHOTS}room-owner.png` });
    await guest.page.screenshot({ path: `${SCREENSHOTS}room-viewer.png` });
    guest.expectNoErrors(signedOut);
  });

  it('ends the stream: the seller lands on /dashboard and viewers see the ended state', async () => {
    const { page } = seller;
    // Said in the stream's last moment: the replay's chat must still have it at the replay's end.
    await page.getByTestId('chat-input').fill(sellerFarewell);
    await page.getByTestId('chat-send').click();
    await page.getByTestId('chat-message-text').filter({ hasText: sellerFarewell }).waitFor();
    await page.getByTestId('end-stream').click();
    await expectToast(page, 'Stream Ended');
    await page.waitForURL(url('/dashboard'));

    await guest.page.getByTestId('stream-ended').waitFor();
    expect(await guest.page.getByTestId('live-badge').count()).toBe(0);
    seller.expectNoErrors(signedOut);
    guest.expectNoErrors(signedOut);
  });

  it('shows the replay once the recording is finalized, and it plays', async () => {
    const { page } = guest;
    await page.getByTestId('vod-player').waitFor({ timeout: 60_000 });
    // The replay is the stream's own HLS segments, closed into a VOD playlist.
    await page.locator('[data-testid="vod-player"][data-engine]').waitFor();
    expect(['native', 'hls.js']).toContain(await page.getByTestId('vod-player').getAttribute('data-engine'));
    await page.getByTestId('vod-player').evaluate((video: HTMLVideoElement) => {
      video.muted = true;
      return video.play();
    });
    await waitForVideoFrame(page, 'vod-player', 10_000);
    // The chat replays beside the video: at the end of the recording every message was sent, the
    // last one too (said just before End, after the last frame the recording kept).
    await page.getByTestId('vod-player').evaluate((video: HTMLVideoElement) => {
      video.currentTime = Number.isFinite(video.duration) ? video.duration : 1e6;
    });
    for (const said of ['Welcome!', sellerFarewell])
      await page.getByTestId('chat-replay-message').filter({ hasText: said }).waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-testid="chat-replay"] b').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}room-replay.png` });
    guest.expectNoErrors(signedOut);
  });

  it('shows Invalid room URL for an unknown room', async () => {
    const watched = await newPage();
    await watched.page.goto('/room/no-such-room');
    await watched.page.getByText('Invalid room URL').waitFor();
    // The room asks for its stream, its shop, its auction and its giveaway at once (it renders
    // before the stream has loaded).
    watched.expectNoErrors([
      ...signedOut,
      { status: 404, path: '/api/streams/no-such-room' },
      { status: 404, path: '/api/streams/no-such-room/shop' },
      { status: 404, path: '/api/streams/no-such-room/auctions/current' },
      { status: 404, path: '/api/streams/no-such-room/giveaways/current' },
    ]);
  });
});
