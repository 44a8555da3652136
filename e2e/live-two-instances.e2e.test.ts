import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createThrowawayDatabase,
  eventually,
  type S3Server,
  type ServerProcess,
  startS3Server,
  startServerProcess,
  type ThrowawayDatabase,
} from '../server/src/test/support.ts';
import { launchBrowser, openPage, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { SCREENSHOTS } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';
import { expectFramesAdvance, goLive, probeMedia, streamInfo } from './video-checks.ts';

/**
 * Two instances of the server on one PostgreSQL database, one Redis and one S3 bucket, as in a
 * deployment behind a load balancer: a seller publishes on A, viewers watch on B, and after the
 * end (and A gone) B serves the replay from the bucket.
 */

const databaseServerUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisServerUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether something accepts TCP connections at the URL's host and port (within 2 s). */
function reachable(serviceUrl: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(serviceUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port || defaultPort), hostname);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Why this spec cannot run here, or undefined. Only when the servers were not named: with
 * TEST_DATABASE_URL or TEST_REDIS_URL set (CI), an unreachable server fails the spec instead.
 */
async function missingServices(): Promise<string | undefined> {
  const missing: string[] = [];
  if (!process.env.TEST_DATABASE_URL && !(await reachable(databaseServerUrl, 5432)))
    missing.push(`no PostgreSQL at ${databaseServerUrl} (set TEST_DATABASE_URL)`);
  if (!process.env.TEST_REDIS_URL && !(await reachable(redisServerUrl, 6379)))
    missing.push(`no Redis at ${redisServerUrl} (set TEST_REDIS_URL)`);
  return missing.length > 0 ? missing.join('; ') : undefined;
}

const skipReason = await missingServices();
if (skipReason) console.warn(`live-two-instances.e2e.test.ts is skipped: ${skipReason}`);

/**
 * The server's Redis keys (rate limits) all start with `streamshop:`; a database of their own keeps
 * them apart from other runs on the same Redis (pub/sub channels carry the room's unique name).
 */
function redisUrlForThisRun(): string {
  const redisUrl = new URL(redisServerUrl);
  if (redisUrl.pathname.length <= 1) redisUrl.pathname = `/${1 + (process.pid % 15)}`;
  return redisUrl.toString();
}

const FAKE_CAMERA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];
const signedOut = [SIGNED_OUT_PROBE];

describe.skipIf(Boolean(skipReason))('live video across two instances (PostgreSQL, Redis, S3)', () => {
  let database: ThrowawayDatabase | undefined;
  let s3: S3Server | undefined;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let browser: Browser | undefined;
  const pages: WatchedPage[] = [];

  const onA = () => a?.url ?? '';
  const onB = () => b?.url ?? '';
  async function newPage(baseURL: string) {
    if (!browser) throw new Error('the browser has not started');
    const watched = await openPage(browser, { baseURL });
    pages.push(watched);
    return watched;
  }

  beforeAll(async () => {
    const [launched, storage, db] = await Promise.allSettled([
      launchBrowser(FAKE_CAMERA),
      startS3Server(),
      createThrowawayDatabase(databaseServerUrl, 'e2e_two'),
    ]);
    if (launched.status === 'fulfilled') browser = launched.value;
    if (storage.status === 'fulfilled') s3 = storage.value;
    if (db.status === 'fulfilled') database = db.value;
    for (const result of [launched, storage, db]) if (result.status === 'rejected') throw result.reason;
    if (!s3 || !database) throw new Error('unreachable');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrlForThisRun(),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DEMO_LIVE: 'false',
      S3_BUCKET: s3.settings.bucket,
      S3_REGION: s3.settings.region,
      S3_ENDPOINT: s3.settings.endpoint ?? '',
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId ?? '',
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey ?? '',
    };
    // A first: it migrates the database.
    a = await startServerProcess({ env });
    b = await startServerProcess({ env });
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 150_000);

  afterAll(async () => {
    await Promise.allSettled(pages.map((watched) => watched.close()));
    await browser?.close();
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await s3?.stop();
    await database?.drop();
  }, 60_000);

  let seller: WatchedPage;
  let liveViewer: WatchedPage;
  let roomPath = '';
  let roomName = '';
  let liveSince = 0;
  let liveSec = 0;

  it('plays on B what the seller publishes on A, on the default path and on HLS', {
    timeout: 90_000,
  }, async () => {
    seller = await newPage(onA());
    ({ roomPath, roomName, liveSince } = await goLive(seller.page, 'twoinst', 'Two instances'));

    liveViewer = await newPage(onB());
    await liveViewer.page.goto(roomPath);
    await liveViewer.page.getByTestId('live-badge').waitFor();
    const ws = await expectFramesAdvance(liveViewer.page, 'live-video', { timeoutMs: 20_000 });
    expect(await liveViewer.page.getByTestId('live-video').getAttribute('data-path')).toBe('ws');
    console.info('published on A, WebSocket viewer on B:', ws);

    const hlsViewer = await newPage(onB());
    await hlsViewer.page.goto(`${roomPath}?path=hls`);
    const hls = await expectFramesAdvance(hlsViewer.page, 'live-video', { timeoutMs: 30_000 });
    expect(await hlsViewer.page.getByTestId('live-video').getAttribute('data-path')).toBe('hls');
    console.info('published on A, HLS viewer on B:', hls);
    expect((await probeMedia(new URL(`/media/hls/${roomName}/live.m3u8`, onB()).href)).codecs).toEqual([
      'aac',
      'h264',
    ]);
    hlsViewer.expectNoErrors(signedOut);
    await hlsViewer.close();

    // Still playing on B after that: a few more seconds of live video for the replay.
    await expectFramesAdvance(liveViewer.page, 'live-video', { timeoutMs: 15_000, seconds: 3 });
    liveViewer.expectNoErrors(signedOut);
    seller.expectNoErrors(signedOut);
  });

  it('ends the stream on A, then A stops: B shows the ended state', { timeout: 60_000 }, async () => {
    // Some 12 s of live video, so the replay's length is a measurement and not noise.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, liveSince + 12_000 - Date.now())));
    await seller.page.getByTestId('end-stream').click();
    liveSec = (Date.now() - liveSince) / 1000;
    await expectToast(seller.page, 'Stream Ended');
    await seller.page.waitForURL(/\/dashboard$/);
    await seller.close();
    expect(await a?.stop()).toBe(0);

    await liveViewer.page.getByTestId('stream-ended').waitFor({ timeout: 15_000 });
    expect(await liveViewer.page.getByTestId('live-badge').count()).toBe(0);
    liveViewer.expectNoErrors(signedOut);
  });

  it('plays the replay on B from S3: it seeks to 1 s, and lasts as long as the stream was live', {
    timeout: 90_000,
  }, async () => {
    // The replay is published within a second or so of the end; B (or A, on its way out) does it.
    const info = await eventually(
      'a replay on B',
      () => streamInfo(onB(), roomName),
      (i) => Boolean(i.vodUrl),
      {
        timeoutMs: 45_000,
        intervalMs: 500,
      },
    );
    expect(info.vodUrl, 'the stream has a replay within 45 s of its end, with A stopped').toBe(
      `/media/hls/${roomName}/index.m3u8`,
    );
    expect(info.hlsUrl).toBe(info.vodUrl);

    const viewer = await newPage(onB());
    await viewer.page.goto(roomPath);
    const player = viewer.page.getByTestId('vod-player');
    await player.waitFor({ timeout: 15_000 });
    await viewer.page.locator('[data-testid="vod-player"][data-engine]').waitFor();
    expect((await probeMedia(new URL(info.vodUrl ?? '', onB()).href)).codecs).toEqual(['aac', 'h264']);

    const seeked = await player.evaluate(async (video: HTMLVideoElement) => {
      if (video.readyState < 1)
        await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
      video.muted = true;
      const done = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
      video.currentTime = 1;
      await done;
      await video.play();
      return { currentTime: video.currentTime, duration: video.duration };
    });
    expect(seeked.currentTime).toBeGreaterThanOrEqual(0.9);
    expect(seeked.currentTime).toBeLessThan(2);
    const progress = await expectFramesAdvance(viewer.page, 'vod-player', { timeoutMs: 15_000 });
    expect(progress.currentTime).toBeGreaterThan(1);
    console.info(`replay on B: ${seeked.duration.toFixed(2)} s, live for ${liveSec.toFixed(2)} s`, progress);
    expect(Math.abs(seeked.duration - liveSec)).toBeLessThanOrEqual(2);
    await viewer.page.screenshot({ path: `${SCREENSHOTS}room-replay-instance-b.png` });
    viewer.expectNoErrors(signedOut);
  });
});
