import { type ChildProcess, spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/src/test/support.ts';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast, waitForVideoFrame } from './page-checks.ts';
import { expectFramesAdvance } from './video-checks.ts';

/**
 * Going live from OBS: ffmpeg plays the seller's encoder, publishing to the RTMP URL and stream
 * key the room's "Stream from OBS" panel shows; the owner and a viewer watch the live video.
 */

// This spec's server listens for RTMP (others run without it).
const rtmpPort = await freePort();
const RTMP_URL = `rtmp://127.0.0.1:${rtmpPort}/live`;
const e2e = useE2e({
  camera: true,
  env: { RTMP_PORT: String(rtmpPort), RTMP_URL },
  // For the axe scans of the seller's room.
  page: { bypassCSP: true },
});
const { newPage, url } = e2e;

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];
const HIDDEN = /^•+$/;
/** Long enough that only Reset key (or the test's end) stops it, shorter than the free plan's 99 s. */
const ENCODER_SECONDS = 60;

interface Encoder {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}
const encoders = new Set<ChildProcess>();

/** ffmpeg as OBS: a test picture and a tone, H.264 + AAC with a keyframe a second, over RTMP. */
function startEncoder(target: string): Encoder {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', String(ENCODER_SECONDS), '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency'],
      ...['-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', target],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  encoders.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      encoders.delete(child);
      resolve(code);
    }),
  );
  return { child, exited, stderr: () => stderr };
}

afterAll(() => {
  for (const child of encoders) child.kill('SIGKILL');
});

/** Counts getUserMedia calls and keeps the streams, to see whether the page holds a camera. */
function watchCamera(page: Page) {
  return page.addInitScript(() => {
    const state = { calls: 0, streams: [] as MediaStream[] };
    Object.assign(window, { __camera: state });
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      state.calls += 1;
      const stream = await original(constraints);
      state.streams.push(stream);
      return stream;
    };
  });
}

/** getUserMedia calls on this page load, and its camera/microphone tracks still running. */
function cameraUse(page: Page) {
  return page.evaluate(() => {
    const state = (window as unknown as { __camera: { calls: number; streams: MediaStream[] } }).__camera;
    const live = state.streams.flatMap((stream) => stream.getTracks()).filter((t) => t.readyState === 'live');
    return { calls: state.calls, liveTracks: live.length };
  });
}

/** The free plan's encoder settings, as the definition lists show them (term, then value). */
const FREE_PLAN_SETTINGS = [
  ...['Video', 'H.264', 'Audio', 'AAC', 'Keyframe interval', '1 s'],
  ...['Resolution', 'up to 480p (854×480)', 'Vertical shows', '480×854 (portrait)'],
  ...['Bitrate', 'about 1.5 Mbit/s'],
];

function settingsOf(page: Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).locator('dt, dd').allTextContents();
}

async function encoderState(page: Page, text: string, timeout = 20_000) {
  await page.getByTestId('encoder-state').filter({ hasText: text }).waitFor({ timeout });
}

/** The room header's viewer count, as the page shows it ("1 viewer"). */
function viewerCount(page: Page): Promise<string> {
  return page
    .getByTestId('viewer-count')
    .textContent()
    .then((text) => (text ?? '').replace(/^(\d+)\s*/, '$1 ').trim());
}

/** The seller's stage shows only what applies to an encoder stream: no camera and no Start Stream. */
async function expectEncoderControlsOnly(page: Page) {
  for (const testId of ['start-stream', 'resume-stream', 'camera-preview', 'toggle-mic', 'toggle-camera']) {
    expect(await page.getByTestId(testId).count(), testId).toBe(0);
  }
  expect(await page.getByTestId('end-stream').count()).toBe(1);
}

async function expectNoAxeProblems(page: Page) {
  expect(seriousViolations(await scanWithAxe(page))).toEqual([]);
}

/** No toast, no selection left by earlier steps, the page at its top. */
async function tidyForScreenshot(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Close notification' }).all()) {
    await close.click();
  }
  await page.getByTestId('toast').waitFor({ state: 'detached' });
  await page.evaluate(() => {
    window.getSelection()?.removeAllRanges();
    window.scrollTo(0, 0);
  });
}

async function revealedKey(page: Page): Promise<string> {
  const toggle = page.getByTestId('reveal-key');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  const key = (await page.getByTestId('stream-key').textContent()) ?? '';
  expect(key).not.toMatch(HIDDEN);
  return key;
}

describe('going live from OBS', { timeout: 90_000 }, () => {
  let seller: WatchedPage;
  let viewer: WatchedPage;
  let roomPath = '';
  let streamKey = '';
  let encoder: Encoder | undefined;

  it('shows the OBS settings on /golive and, in the room, the server URL and a hidden key', async () => {
    seller = await newPage({}, { keep: true });
    const { page, context } = seller;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    await watchCamera(page);
    await signUpThroughForm(page, 'obs');
    await page.goto('/golive');
    const card = page.getByTestId('golive-obs');
    await card.getByRole('heading', { name: 'Stream from OBS' }).waitFor();
    expect(await card.textContent()).toContain('server URL and stream key for OBS or any RTMP encoder');
    expect(await settingsOf(page, 'golive-obs-settings')).toEqual(FREE_PLAN_SETTINGS);
    await page.screenshot({ path: `${SCREENSHOTS}golive-obs.png`, fullPage: true });

    await page.getByLabel('Stream title').fill('Studio night');
    await page.getByTestId('golive-submit').click();
    await page.waitForURL(/\/room\/studio-night-[0-9a-f]{8}$/);
    roomPath = new URL(page.url()).pathname;

    const panel = page.getByTestId('encoder-panel');
    await panel.getByRole('heading', { name: 'Stream from OBS' }).waitFor();
    await page.getByTestId('rtmp-url').filter({ hasText: RTMP_URL }).waitFor();
    expect(await page.getByTestId('stream-key').textContent()).toMatch(HIDDEN);
    expect(await page.getByTestId('reveal-key').getAttribute('aria-pressed')).toBe('false');
    await encoderState(page, 'Waiting for your encoder');
    expect(await page.getByTestId('encoder-state').getAttribute('role')).toBe('status');
    expect(await settingsOf(page, 'encoder-settings')).toEqual(FREE_PLAN_SETTINGS);
    expect(await page.getByTestId('obs-how-to').textContent()).toBe(
      'In OBS: Settings → Stream → Service: Custom…, paste the server and the key, then Start Streaming.',
    );
    // No encoder yet: the browser's own way to go live is there, as before.
    await waitForVideoFrame(page, 'camera-preview', 10_000);
    await page.getByTestId('start-stream').waitFor();
    expect(await page.getByTestId('live-badge').count()).toBe(0);
    seller.expectNoErrors(signedOut);
  });

  it('reveals, hides and copies the key (copying without revealing it)', async () => {
    const { page } = seller;
    streamKey = await revealedKey(page);
    expect(await page.getByTestId('reveal-key').textContent()).toContain('Hide');
    expect(streamKey.length).toBeGreaterThan(16);
    await page.getByTestId('reveal-key').click();
    expect(await page.getByTestId('reveal-key').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('stream-key').textContent()).toMatch(HIDDEN);

    await page.getByTestId('copy-key').click();
    await expectToast(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(streamKey);
    expect(await page.getByTestId('stream-key').textContent()).toMatch(HIDDEN);
    await page.getByTestId('copy-url').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(RTMP_URL);

    // A clipboard that refuses: the key shows, selected, for copying by hand.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.getByTestId('copy-key').click();
    await expectToast(page, 'Could not copy');
    expect(await page.getByTestId('stream-key').textContent()).toBe(streamKey);
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(streamKey);
    await page.getByTestId('reveal-key').click();
    expect(await page.getByTestId('stream-key').textContent()).toMatch(HIDDEN);
    seller.expectNoErrors(signedOut);
  });

  it('goes live when the encoder publishes: LIVE, the stream’s output on the stage, no camera or Start Stream', async () => {
    const { page } = seller;
    encoder = startEncoder(`${RTMP_URL}/${streamKey}`);
    // From the moment the page shows LIVE (the publish; the encoder reads as connected a moment
    // later, once its pipeline runs) the stage is the stream's output, never the camera.
    await page.getByTestId('live-badge').waitFor();
    await page.getByTestId('encoder-stage').waitFor();
    await expectEncoderControlsOnly(page);
    expect(await page.getByTestId('encoder-state').textContent()).not.toBe('Waiting for your encoder');
    await encoderState(page, 'Receiving from your encoder');
    await page.getByTestId('encoder-stage').filter({ hasText: 'Receiving from your encoder' }).waitFor();
    await expectEncoderControlsOnly(page);
    // The camera the page had opened is let go.
    await expect.poll(async () => (await cameraUse(page)).liveTracks).toBe(0);
    // What viewers see, from their player, muted so the seller's room does not echo.
    const progress = await expectFramesAdvance(page, 'live-video', { timeoutMs: 20_000 });
    expect(progress.advancedSec).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('live-video').evaluate((video: HTMLVideoElement) => video.muted)).toBe(
      true,
    );
    expect(await page.getByTestId('unmute').textContent()).toContain('Unmute');
    expect(encoder.child.exitCode).toBeNull();

    await tidyForScreenshot(page);
    await expectNoAxeProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}room-owner-obs.png` });
    await page.getByTestId('encoder-panel').screenshot({ path: `${SCREENSHOTS}obs-panel.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectEncoderControlsOnly(page);
    await expectNoAxeProblems(page);
    await page.getByTestId('encoder-panel').screenshot({ path: `${SCREENSHOTS}obs-panel-phone.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENSHOTS}room-owner-obs-phone.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    seller.expectNoErrors(signedOut);
  });

  it('plays the encoder’s stream for a signed-out viewer', async () => {
    viewer = await newPage({}, { keep: true });
    const { page } = viewer;
    await page.goto(roomPath);
    await page.getByTestId('live-badge').waitFor();
    await expectFramesAdvance(page, 'live-video', { timeoutMs: 20_000 });
    expect(await page.getByTestId('encoder-panel').count()).toBe(0);
    expect(await page.getByTestId('end-stream').count()).toBe(0);
    // The seller counts the viewer the viewer sees.
    await expect.poll(() => viewerCount(page)).toBe('1 viewer');
    await expect.poll(() => viewerCount(seller.page)).toBe('1 viewer');
    viewer.expectNoErrors(signedOut);
  });

  it('does not ask for the camera when the owner opens the room while the encoder streams', async () => {
    const { page } = seller;
    await page.reload();
    await page.getByTestId('encoder-stage').waitFor();
    await encoderState(page, 'Receiving from your encoder');
    await expectFramesAdvance(page, 'live-video', { timeoutMs: 20_000 });
    expect(await cameraUse(page)).toEqual({ calls: 0, liveTracks: 0 });
    await expectEncoderControlsOnly(page);
    // Joining a room whose viewer is there already: the count is the viewer's, not 0.
    await expect.poll(() => viewerCount(page)).toBe('1 viewer');
    expect(await viewerCount(viewer.page)).toBe('1 viewer');
    seller.expectNoErrors(signedOut);
  });

  it('Reset key drops the encoder; the stage keeps the live player, waiting for it', async () => {
    const { page } = seller;
    const running = encoder;
    if (!running) throw new Error('no encoder');
    expect(running.child.exitCode).toBeNull();
    await page.getByTestId('reset-key').click();
    const dialog = page.getByTestId('reset-key-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      'Reset the stream key?An encoder using the old key is disconnected.',
    );
    await dialog.getByTestId('reset-key-confirm').click();
    await expectToast(page, 'Stream key reset');
    await dialog.waitFor({ state: 'detached' });
    const code = await Promise.race([
      running.exited,
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 15_000)),
    ]);
    expect(code, `ffmpeg still running after Reset key: ${running.stderr()}`).not.toBe('running');
    await encoderState(page, 'Waiting for your encoder', 10_000);
    expect(await revealedKey(page)).not.toBe(streamKey);

    // Still live (the encoder may come back): the player waits, with End Stream at hand.
    await page.getByTestId('encoder-stage').waitFor();
    await page
      .getByTestId('player-status')
      .filter({ hasText: 'Waiting for your encoder to reconnect' })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('camera-preview').count()).toBe(0);
    expect(await page.getByTestId('live-badge').count()).toBe(1);
    await tidyForScreenshot(page);
    await page.screenshot({ path: `${SCREENSHOTS}room-owner-obs-waiting.png` });

    // A reload while the encoder is away keeps its stage: the server says when it left.
    await page.reload();
    await page.getByTestId('encoder-stage').waitFor();
    await page
      .getByTestId('player-status')
      .filter({ hasText: 'Waiting for your encoder to reconnect' })
      .waitFor({ timeout: 15_000 });
    expect(await cameraUse(page)).toEqual({ calls: 0, liveTracks: 0 });
    await expectEncoderControlsOnly(page);
    seller.expectNoErrors(signedOut);
  });

  it('goes on from the camera while the encoder is away: Resume Stream, never Start Stream', async () => {
    const { page } = seller;
    await page.getByTestId('use-camera').click();
    await waitForVideoFrame(page, 'camera-preview', 10_000);
    expect(await page.getByTestId('start-stream').count()).toBe(0);
    await page.getByTestId('end-stream').waitFor();
    const viewerVideo = viewer.page.getByTestId('live-video');
    const encoderSource = await viewerVideo.getAttribute('src');
    await page.getByTestId('resume-stream').click();
    await expectToast(page, 'Stream Resumed');
    await encoderState(page, 'Live from your camera');
    expect(await page.getByTestId('resume-stream').count()).toBe(0);
    expect(await page.getByTestId('start-stream').count()).toBe(0);
    expect(await page.getByTestId('live-badge').count()).toBe(1);
    // Viewers get the camera now: their player starts over on the camera's video (a new source,
    // its own timeline), and it plays.
    await expect.poll(() => viewerVideo.getAttribute('src'), { timeout: 15_000 }).not.toBe(encoderSource);
    await expectFramesAdvance(viewer.page, 'live-video', { timeoutMs: 15_000 });
    await tidyForScreenshot(page);
    await page.screenshot({ path: `${SCREENSHOTS}room-owner-obs-camera.png` });
    seller.expectNoErrors(signedOut);
  });

  it('End Stream ends it: the seller lands on /dashboard, the viewer sees the ended state', async () => {
    const { page } = seller;
    await page.getByTestId('end-stream').click();
    await expectToast(page, 'Stream Ended');
    await page.waitForURL(url('/dashboard'));
    await viewer.page.getByTestId('stream-ended').waitFor();
    expect(await viewer.page.getByTestId('live-badge').count()).toBe(0);
    seller.expectNoErrors(signedOut);
    viewer.expectNoErrors(signedOut);
  });
});
