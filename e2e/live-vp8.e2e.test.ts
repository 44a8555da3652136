import { describe, expect, it } from 'vitest';
import { eventually } from '../server/src/test/support.ts';
import { SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { expectFramesAdvance, goLive, probeMedia, streamInfo } from './video-checks.ts';

const e2e = useE2e({ camera: true });
const { newPage, url } = e2e;

const VP8 = 'video/webm;codecs=vp8,opus';

/**
 * The broadcaster's browser without H.264 recording (as on a Chromium build without it): every
 * type naming h264 or avc1 is unsupported, so the app falls back to VP8. Records the types the
 * app's MediaRecorders were made with, on window.__recorded.
 */
function recordWithoutH264() {
  const Native = window.MediaRecorder;
  const isTypeSupported = Native.isTypeSupported.bind(Native);
  Native.isTypeSupported = (type: string) => !/h264|avc1/i.test(type) && isTypeSupported(type);
  const recorded: string[] = [];
  Object.assign(window, {
    __recorded: recorded,
    MediaRecorder: class extends Native {
      constructor(stream: MediaStream, options?: MediaRecorderOptions) {
        super(stream, options);
        recorded.push(this.mimeType);
      }
    },
  });
}

const signedOut = [SIGNED_OUT_PROBE];

describe('live streaming from a browser that records VP8', { timeout: 120_000 }, () => {
  let seller: WatchedPage;
  let roomPath = '';
  let roomName = '';

  it('publishes VP8 WebM: the recorder and the publish socket both say so', async () => {
    seller = await newPage({}, { keep: true });
    await seller.context.addInitScript(recordWithoutH264);
    const publishUrls: string[] = [];
    seller.page.on('websocket', (socket) => {
      if (socket.url().includes('/ws/publish')) publishUrls.push(socket.url());
    });
    ({ roomPath, roomName } = await goLive(seller.page, 'vp8', 'VP8 night'));

    await seller.page.waitForFunction(
      () => ((window as unknown as { __recorded?: string[] }).__recorded ?? []).length > 0,
    );
    const recorded = await seller.page.evaluate(
      () => (window as unknown as { __recorded: string[] }).__recorded,
    );
    expect(recorded).toEqual([VP8]);
    expect(publishUrls).toHaveLength(1);
    expect(new URL(publishUrls[0] ?? '').searchParams.get('mimeType')).toBe(VP8);
    seller.expectNoErrors(signedOut);
  });

  it('plays for a viewer on the WebSocket path: frames advance', async () => {
    const viewer = await newPage();
    await viewer.page.goto(`${roomPath}?path=ws`);
    const progress = await expectFramesAdvance(viewer.page, 'live-video', { timeoutMs: 20_000 });
    expect(await viewer.page.getByTestId('live-video').getAttribute('data-path')).toBe('ws');
    console.info('VP8 publisher, WebSocket viewer:', progress);
    viewer.expectNoErrors(signedOut);
    await viewer.close();
  });

  it('plays for a viewer on HLS: frames advance', async () => {
    const viewer = await newPage();
    await viewer.page.goto(`${roomPath}?path=hls`);
    const progress = await expectFramesAdvance(viewer.page, 'live-video', { timeoutMs: 30_000 });
    const video = viewer.page.getByTestId('live-video');
    expect(await video.getAttribute('data-path')).toBe('hls');
    expect(await video.getAttribute('data-engine')).toBe('native');
    console.info('VP8 publisher, HLS viewer:', progress);
    viewer.expectNoErrors(signedOut);
    await viewer.close();
  });

  it('serves H.264 and AAC on the stream’s hlsUrl (the server encoded the VP8)', async () => {
    const { hlsUrl } = await streamInfo(e2e.server.url, roomName);
    expect(hlsUrl).toBe(`/media/hls/${roomName}/live.m3u8`);
    expect((await probeMedia(url(hlsUrl ?? ''))).codecs).toEqual(['aac', 'h264']);
  });

  it('ends the stream: the replay on hlsUrl is H.264 and AAC too', async () => {
    await seller.page.getByTestId('end-stream').click();
    await expectToast(seller.page, 'Stream Ended');
    const info = await eventually(
      'the replay',
      () => streamInfo(e2e.server.url, roomName),
      (i) => Boolean(i.vodUrl),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(info.hlsUrl).toBe(`/media/hls/${roomName}/index.m3u8`);
    const replay = await probeMedia(url(info.hlsUrl ?? ''));
    expect(replay.codecs).toEqual(['aac', 'h264']);
    expect(replay.duration).toBeGreaterThan(2);
    seller.expectNoErrors(signedOut);
  });
});
