import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { signUpThroughForm } from './accounts.ts';
import { expectToast, waitForVideoFrame } from './page-checks.ts';

const execFileAsync = promisify(execFile);

/** What a <video> showed while it was watched. */
export interface FrameProgress {
  /** requestVideoFrameCallback calls: frames presented. */
  frames: number;
  /** How far currentTime moved. */
  advancedSec: number;
  /** Different pictures among the sampled frames (a small, coarse copy of each, hashed). */
  distinctPictures: number;
  currentTime: number;
  paused: boolean;
  readyState: number;
}

export interface FrameGoal {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Presented frames to see (default 15). */
  frames?: number;
  /** How far currentTime has to move (default 1 s). */
  seconds?: number;
}

/**
 * Watches the <video data-testid={testId}> until it has presented `frames` frames, its currentTime
 * has moved by `seconds` and at least two different pictures were sampled from it; throws with
 * what it saw when that does not happen within the timeout.
 */
export async function expectFramesAdvance(page: Page, testId: string, goal: FrameGoal = {}) {
  const want = { timeoutMs: goal.timeoutMs ?? 15_000, frames: goal.frames ?? 15, seconds: goal.seconds ?? 1 };
  await waitForVideoFrame(page, testId, want.timeoutMs);
  const progress = await page.getByTestId(testId).evaluate(
    (video: HTMLVideoElement, want) =>
      new Promise<FrameProgress>((resolve) => {
        const startTime = video.currentTime;
        const canvas = document.createElement('canvas');
        canvas.width = 80;
        canvas.height = 45;
        const context = canvas.getContext('2d', { willReadFrequently: true });
        const pictures = new Set<number>();
        let frames = 0;
        let done = false;
        const sample = () => {
          if (!context) return;
          context.drawImage(video, 0, 0, canvas.width, canvas.height);
          const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
          let hash = 0;
          // Coarse: a few levels of each channel, so encoder noise alone is not a new picture.
          data.forEach((value, i) => {
            if (i % 4 !== 3) hash = (Math.imul(hash, 31) + (value >> 4)) | 0;
          });
          pictures.add(hash);
        };
        const onFrame = () => {
          if (done) return;
          frames += 1;
          if (frames % 3 === 1) sample();
          video.requestVideoFrameCallback(onFrame);
        };
        video.requestVideoFrameCallback(onFrame);
        const deadline = performance.now() + want.timeoutMs;
        const check = () => {
          const progress: FrameProgress = {
            frames,
            advancedSec: video.currentTime - startTime,
            distinctPictures: pictures.size,
            currentTime: video.currentTime,
            paused: video.paused,
            readyState: video.readyState,
          };
          const reached =
            progress.frames >= want.frames &&
            progress.advancedSec >= want.seconds &&
            progress.distinctPictures >= 2;
          if (reached || performance.now() > deadline) {
            done = true;
            resolve(progress);
          } else {
            setTimeout(check, 100);
          }
        };
        check();
      }),
    want,
  );
  if (progress.frames < want.frames || progress.advancedSec < want.seconds || progress.distinctPictures < 2) {
    throw new Error(
      `The video ${testId} did not advance (${want.frames} frames, ${want.seconds} s, 2 pictures within ${want.timeoutMs} ms): ${JSON.stringify(progress)}`,
    );
  }
  return progress;
}

/** ffprobe's view of a media URL: its streams' codecs (sorted) and the duration it reads. */
export async function probeMedia(url: string): Promise<{ codecs: string[]; duration: number }> {
  // Asynchronous: the test process must keep running (pages, timers) while ffprobe reads.
  const { stdout } = await execFileAsync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', url],
    { encoding: 'utf8', timeout: 30_000 },
  );
  const parsed = JSON.parse(stdout) as { streams: { codec_name: string }[]; format?: { duration?: string } };
  return {
    codecs: parsed.streams.map((stream) => stream.codec_name).sort(),
    duration: Number(parsed.format?.duration ?? 0),
  };
}

/**
 * Signs a seller up (page needs a baseURL), creates a stream titled `title` at /golive and starts
 * it: resolves with the room's path once the LIVE badge shows, and when that was.
 */
export async function goLive(page: Page, prefix: string, title: string) {
  await signUpThroughForm(page, prefix);
  await page.goto('/golive');
  await page.getByLabel('Stream title').fill(title);
  await page.getByTestId('golive-submit').click();
  await page.waitForURL(/\/room\/[a-z0-9-]+$/);
  const roomPath = new URL(page.url()).pathname;
  await waitForVideoFrame(page, 'camera-preview', 10_000);
  await page.getByTestId('start-stream').click();
  await expectToast(page, 'Stream Started');
  await page.getByTestId('live-badge').waitFor();
  return { roomPath, roomName: roomPath.replace('/room/', ''), liveSince: Date.now() };
}

/** The stream as GET /api/streams/:room answers it on `origin`. */
export async function streamInfo(origin: string, roomName: string) {
  const response = await fetch(new URL(`/api/streams/${roomName}`, origin), {
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`GET /api/streams/${roomName}: ${response.status}`);
  return (await response.json()) as {
    isActive: boolean;
    hlsUrl: string | null;
    vodUrl: string | null;
    endsAt: string | null;
  };
}
