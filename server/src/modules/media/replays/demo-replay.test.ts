import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_REPLAY_ROOM,
  DEMO_REPLAY_SECONDS,
  DEMO_REPLAY_THUMBNAIL,
  seedDemoIfEmpty,
} from '../../../cli/seed/index.ts';
import { buildTestApp, listenOnLoopback, type TestApp } from '../../../test/test-app.ts';

const execFileAsync = promisify(execFile);
const quiet = { info: () => {} };
const demo = { roomName: DEMO_REPLAY_ROOM, seconds: DEMO_REPLAY_SECONDS, thumbnail: DEMO_REPLAY_THUMBNAIL };

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, viewerSampling: false });
  base = (await listenOnLoopback(t.app)).replace('ws:', 'http:');
  await seedDemoIfEmpty(t.database.db, t.config.dataDir, quiet);
});
afterAll(async () => {
  await t.close();
});

describe('the demo replay', () => {
  it('is an ended stream with a playable replay, three chapters and a chat replay', async () => {
    await t.app.media.ensureDemoReplay(demo);
    const stream = (await t.app.inject({ url: `/api/streams/${DEMO_REPLAY_ROOM}` })).json();
    expect(stream).toMatchObject({
      isActive: false,
      vodUrl: `/media/hls/${DEMO_REPLAY_ROOM}/index.m3u8`,
      hlsUrl: `/media/hls/${DEMO_REPLAY_ROOM}/index.m3u8`,
      thumbnailUrl: `/media/hls/${DEMO_REPLAY_ROOM}/${DEMO_REPLAY_THUMBNAIL}`,
    });
    // ffprobe reads the whole replay: H.264 + AAC, as long as the clip.
    const { stdout } = await execFileAsync('ffprobe', [
      ...['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json'],
      `${base}${stream.vodUrl}`,
    ]);
    const probed = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
    expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(Math.abs(Number(probed.format.duration) - DEMO_REPLAY_SECONDS)).toBeLessThan(2);
    const thumbnail = await t.app.inject({ url: stream.thumbnailUrl });
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    expect(thumbnail.rawPayload.length).toBeGreaterThan(1000);

    const chapters = (await t.app.inject({ url: `/api/streams/${DEMO_REPLAY_ROOM}/chapters` })).json();
    expect(chapters.chapters.map((c: { startSec: number }) => c.startSec)).toEqual([0, 10, 20]);
    const chat = (await t.app.inject({ url: `/api/streams/${DEMO_REPLAY_ROOM}/chat-replay` })).json();
    expect(JSON.stringify(chat)).toContain('Welcome to vinyl night!');
  });

  it('is made once: a second start finds it in storage', async () => {
    const url = `/media/hls/${DEMO_REPLAY_ROOM}/index.m3u8`;
    const before = (await t.app.inject({ url })).body;
    await t.app.media.ensureDemoReplay(demo);
    expect((await t.app.inject({ url })).body).toBe(before);
  });
});
