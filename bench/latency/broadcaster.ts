/** The broadcaster: a new seller goes live through /golive and Start Stream (the app's own MediaRecorder → /ws/publish), and ends it. */

import { signUpThroughForm } from '../../e2e/accounts.ts';
import type { WatchedPage } from '../../e2e/browser.ts';
import type { Ingest } from './options.ts';
import { PREVIEW, waitForDecodedFrame } from './probe.ts';
import type { Rig } from './setup.ts';
import { checkNotStopped } from './stop.ts';

export interface Broadcast {
  seller: WatchedPage;
  /** /room/<name> */
  roomPath: string;
  /** Wall time the page showed LIVE. */
  streamStartedAt: number;
}

/**
 * For VP8 ingest, before the page's own scripts: MediaRecorder says no to every type naming h264
 * or avc1, so the app's recorder falls back to VP8 WebM (which the server encodes to H.264).
 */
const REFUSE_H264 = `(() => {
  const Recorder = window.MediaRecorder;
  if (!Recorder) return;
  const isTypeSupported = Recorder.isTypeSupported.bind(Recorder);
  Recorder.isTypeSupported = (type) => !/h264|avc1/i.test(String(type)) && isTypeSupported(type);
})();`;

/**
 * Signs a seller up, creates the room and starts the stream once the camera preview shows the
 * clip; with VP8 ingest the seller's MediaRecorder is kept from H.264 first.
 */
export async function goLive(rig: Rig, title: string, ingest: Ingest = 'h264'): Promise<Broadcast> {
  const seller = await rig.open([{ name: 'preview', selector: PREVIEW }]);
  if (ingest === 'vp8') await seller.context.addInitScript({ content: REFUSE_H264 });
  await signUpThroughForm(seller.page, 'latency');
  await seller.page.goto('/golive');
  await seller.page.getByLabel('Stream title').fill(title);
  await seller.page.getByTestId('golive-submit').click();
  await seller.page.waitForURL(/\/room\/[a-z0-9-]+$/);
  const roomPath = new URL(seller.page.url()).pathname;
  await waitForDecodedFrame(seller.page, 'preview', 15_000);
  checkNotStopped();
  await seller.page.getByTestId('start-stream').click();
  await seller.page.getByTestId('live-badge').waitFor();
  const streamStartedAt = Date.now();
  console.log(`  live in ${roomPath} (${ingest} ingest)`);
  return { seller, roomPath, streamStartedAt };
}

/** Ends the stream with the End button (the page goes to the dashboard) and closes the seller's context. */
export async function endStream(broadcast: Broadcast): Promise<void> {
  const { page } = broadcast.seller;
  try {
    await page.getByTestId('end-stream').click({ timeout: 5000 });
    await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
  } catch (error) {
    checkNotStopped();
    console.warn(
      `  !! ending ${broadcast.roomPath}: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
    );
  }
  await broadcast.seller.close();
}
