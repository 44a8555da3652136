import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/ports.ts';
import { buildTestApp, signUp, type TestApp } from '../../../test/test-app.ts';

/**
 * HD for Pro, held by the server: an encoder (ffmpeg playing OBS) sending more than the owner's
 * plan allows is dropped with the reason in the log; the stream stays live for it to come back.
 */

let t: TestApp;
const logLines: string[] = [];
let free: Awaited<ReturnType<typeof signUp>>;
let pro: Awaited<ReturnType<typeof signUp>>;
const encoders = new Set<ChildProcess>();

beforeAll(async () => {
  const rtmpPort = await freePort();
  t = await buildTestApp(
    { rtmpPort, rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}/live`, logLevel: 'info' },
    {
      autoEnd: false,
      viewerSampling: false,
      logStream: { write: (line: string) => void logLines.push(line) },
    },
  );
  free = await signUp(t.app);
  pro = await signUp(t.app);
  await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [pro.user.id]);
});
afterAll(async () => {
  for (const encoder of encoders) encoder.kill('SIGKILL');
  await t?.close();
});

type User = typeof free;

async function newRoom(user: User): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: user.cookie },
    payload: { title: 'Resolution test' },
  });
  expect(created.statusCode).toBe(201);
  return created.json().roomName;
}

async function publishUrl(user: User, room: string): Promise<string> {
  const response = await t.app.inject({
    url: `/api/streams/${room}/ingest`,
    headers: { cookie: user.cookie },
  });
  expect(response.statusCode).toBe(200);
  const { rtmpUrl, streamKey } = response.json() as { rtmpUrl: string; streamKey: string };
  return `${rtmpUrl}/${streamKey}`;
}

/** ffmpeg as OBS: H.264/AAC FLV of the test picture at `size`, `seconds` long. */
function encoder(url: string, size: string, seconds: number) {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency'],
      ...['-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  encoders.add(child);
  return new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      encoders.delete(child);
      resolve(code);
    }),
  );
}

async function isActive(room: string): Promise<boolean> {
  return (await t.app.inject({ url: `/api/streams/${room}` })).json().isActive;
}

async function liveSegments(room: string): Promise<number> {
  const response = await t.app.inject({ url: `/media/hls/${room}/live.m3u8` });
  return response.statusCode === 200 ? response.body.split('\n').filter((l) => l.endsWith('.m4s')).length : 0;
}

describe('the plan’s largest picture, from an encoder', () => {
  it('drops a free seller’s 720p encoder and says why; the stream stays live', async () => {
    const room = await newRoom(free);
    const code = await encoder(await publishUrl(free, room), '1280x720', 20);
    expect(code).not.toBe(0);
    expect(logLines.join('\n')).toContain(
      'This stream is limited to 480p (854×480) on your plan; your video is 1280×720. Lower the resolution in your encoder, or upgrade to Pro for up to 1080p.',
    );
    expect(await isActive(room)).toBe(true);
    expect(await liveSegments(room)).toBe(0);
  }, 30_000);

  it('lets a free seller send 480p, landscape or portrait, to the end', async () => {
    const room = await newRoom(free);
    const url = await publishUrl(free, room);
    expect(await encoder(url, '854x480', 4)).toBe(0);
    expect(await liveSegments(room)).toBeGreaterThan(0);
    expect(await encoder(url, '480x854', 3)).toBe(0);
    expect(await isActive(room)).toBe(true);
  }, 30_000);

  it('lets a Pro seller send 720p', async () => {
    const room = await newRoom(pro);
    const logged = logLines.length;
    expect(await encoder(await publishUrl(pro, room), '1280x720', 4)).toBe(0);
    expect(await liveSegments(room)).toBeGreaterThan(0);
    expect(logLines.slice(logged).join('\n')).not.toContain('publisher refused');
  }, 30_000);

  it('keeps a live stream’s Pro picture when its owner goes back to free', async () => {
    const owner = await signUp(t.app);
    await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [owner.user.id]);
    const room = await newRoom(owner);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/start`,
      headers: { cookie: owner.cookie },
    });
    expect(started.statusCode).toBe(200);
    await t.database.pool.query(`update users set plan = 'free' where id = $1`, [owner.user.id]);
    const logged = logLines.length;
    expect(await encoder(await publishUrl(owner, room), '1280x720', 4)).toBe(0);
    expect(await liveSegments(room)).toBeGreaterThan(0);
    expect(logLines.slice(logged).join('\n')).not.toContain('publisher refused');
  }, 30_000);
});
