import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { INGEST_OFF_MESSAGE } from '@streamshop/contract/ingest.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../../../test/eventually.ts';
import { freePort } from '../../../../test/ports.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../../../test/test-app.ts';

/**
 * Going live from an encoder: ffmpeg plays OBS (H.264 with a keyframe a second, AAC, FLV over
 * RTMP) against the app's own RTMP listener; ffprobe reads what viewers get.
 */

const execFileAsync = promisify(execFile);
/**
 * How long an encoder may be gone before its stream ends (production: 30 s). Long enough that a
 * new ffmpeg is surely back within it on a loaded machine (it took 0.3-1.4 s beside other tests;
 * at 1.5 s the grace itself was the race), short enough that the stream that is left does end.
 */
const GRACE_MS = 5000;
/** How often a stream whose publisher is gone is looked for (streams/auto-end.ts). */
const AUTO_END_EVERY_MS = 1000;

let t: TestApp;
let base: string;
let rtmpPort: number;
const logLines: string[] = [];
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
const encoders = new Set<ChildProcess>();

beforeAll(async () => {
  rtmpPort = await freePort();
  t = await buildTestApp(
    { rtmpPort, rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}/live`, logLevel: 'info' },
    {
      viewerSampling: false,
      publisherGraceMs: GRACE_MS,
      logStream: { write: (line: string) => void logLines.push(line) },
    },
  );
  base = await listenOnLoopback(t.app);
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => {
  for (const encoder of encoders) encoder.kill('SIGKILL');
  await t?.close();
});

async function newRoom(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: owner.cookie },
    payload: { title: 'Encoder test' },
  });
  return created.json().roomName;
}

async function ingestOf(room: string) {
  const response = await t.app.inject({
    url: `/api/streams/${room}/ingest`,
    headers: { cookie: owner.cookie },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    rtmpUrl: string;
    streamKey: string;
    encoderConnected: boolean;
    encoderLeftAt: string | null;
  };
}

/** ffmpeg as OBS: a test picture and a tone, `seconds` long, published to `url`. */
function encoder(url: string, seconds: number) {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency'],
      ...['-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  encoders.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      encoders.delete(child);
      resolve({ code, stderr });
    }),
  );
  return { child, exited };
}

async function streamOf(room: string) {
  return (await t.app.inject({ url: `/api/streams/${room}` })).json() as {
    isActive: boolean;
    startedAt: string | null;
    endsAt: string | null;
    hlsUrl: string | null;
    vodUrl: string | null;
  };
}

const until = <T>(check: () => Promise<T>, what: string, ms = 20_000) =>
  eventually(what, check, { timeoutMs: ms, intervalMs: 100 });

async function liveSegments(room: string): Promise<number> {
  const response = await t.app.inject({ url: `/media/hls/${room}/live.m3u8` });
  return response.statusCode === 200 ? response.body.split('\n').filter((l) => l.endsWith('.m4s')).length : 0;
}

describe('stream keys', () => {
  it('gives the owner the RTMP URL and a key, the same one each time; nobody else learns of it', async () => {
    const room = await newRoom();
    expect((await t.app.inject({ url: `/api/streams/${room}/ingest` })).statusCode).toBe(401);
    // The session is checked before the room name; then a malformed name is a 400 naming the field.
    expect((await t.app.inject({ url: '/api/streams/NOT%20A%20ROOM/ingest' })).statusCode).toBe(401);
    const malformed = await t.app.inject({
      url: '/api/streams/NOT%20A%20ROOM/ingest',
      headers: { cookie: owner.cookie },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('name');
    const malformedRotate = await t.app.inject({
      method: 'POST',
      url: '/api/streams/NOT%20A%20ROOM/ingest/rotate',
      headers: { cookie: owner.cookie },
    });
    expect(malformedRotate.statusCode).toBe(400);
    const asStranger = await t.app.inject({
      url: `/api/streams/${room}/ingest`,
      headers: { cookie: stranger.cookie },
    });
    expect(asStranger.statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/streams/${room}/ingest/rotate`,
          headers: { cookie: stranger.cookie },
        })
      ).statusCode,
    ).toBe(404);
    const first = await t.app.inject({
      url: `/api/streams/${room}/ingest`,
      headers: { cookie: owner.cookie },
    });
    expect(first.headers['cache-control']).toBe('no-store');
    const ingest = first.json();
    expect(ingest.rtmpUrl).toBe(`rtmp://127.0.0.1:${rtmpPort}/live`);
    expect(ingest.streamKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(ingest.encoderConnected).toBe(false);
    expect(ingest.settings).toMatchObject({ videoCodec: 'H.264', audioCodec: 'AAC', keyframeIntervalSec: 1 });
    expect(ingest.settings.resolution).toBe('480p');
    expect((await ingestOf(room)).streamKey).toBe(ingest.streamKey);
    // Not in the stream's public view either.
    expect(JSON.stringify(await streamOf(room))).not.toContain(ingest.streamKey);
    // The database keeps no key: a copy of it cannot take the stream live.
    const row = await t.database.pool.query(
      'select row_to_json(s)::text as stored from streams s where room_name = $1',
      [room],
    );
    expect(row.rows[0].stored).not.toContain(ingest.streamKey);
    expect(row.rows[0].stored).not.toContain(ingest.streamKey.slice(3));
    // Every page may ask whether this server takes encoders.
    expect((await t.app.inject({ url: '/api/ingest' })).json()).toEqual({ rtmp: true });
  });

  it('keeps showing a key stored before keys were hashed until the owner resets it; the reset one is not stored', async () => {
    const room = await newRoom();
    const legacy = 'sk_legacyKeyMadeBefore0017xxxxxxxx';
    await t.database.pool.query(
      `update streams set ingest_key = $2, ingest_key_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex')
       where room_name = $1`,
      [room, legacy],
    );
    expect((await ingestOf(room)).streamKey).toBe(legacy);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/ingest/rotate`,
      headers: { cookie: owner.cookie },
    });
    const fresh = reset.json().streamKey;
    expect(fresh).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(legacy);
    expect((await ingestOf(room)).streamKey).toBe(fresh);
    const [row] = (await t.database.pool.query('select ingest_key from streams where room_name = $1', [room]))
      .rows;
    expect(row.ingest_key).toBeNull();
  });

  it('on a server that takes no encoder (RTMP_PORT 0): says so, and gives no key (409)', async () => {
    const off = await buildTestApp({ rtmpPort: 0 }, { viewerSampling: false });
    try {
      expect((await off.app.inject({ url: '/api/ingest' })).json()).toEqual({ rtmp: false });
      const seller = await signUp(off.app);
      const room = (
        await off.app.inject({
          method: 'POST',
          url: '/api/rooms',
          headers: { cookie: seller.cookie },
          payload: { title: 'No encoders here' },
        })
      ).json().roomName;
      expect((await off.app.inject({ url: `/api/streams/${room}/ingest` })).statusCode).toBe(401);
      for (const method of ['GET', 'POST'] as const) {
        const answer = await off.app.inject({
          method,
          url: `/api/streams/${room}/ingest${method === 'POST' ? '/rotate' : ''}`,
          headers: { cookie: seller.cookie },
        });
        expect(answer.statusCode).toBe(409);
        expect(answer.json().message).toBe(INGEST_OFF_MESSAGE);
      }
    } finally {
      await off.close();
    }
  });
});

describe('publishing from an encoder', () => {
  it('takes a created stream live, plays it over HLS and to a viewer, and makes the replay after it leaves', async () => {
    const room = await newRoom();
    const { rtmpUrl, streamKey } = await ingestOf(room);
    const published = encoder(`${rtmpUrl}/${streamKey}`, 5);
    const viewer = new WebSocket(`${base}/ws/media?room=${room}`);
    const binary: Buffer[] = [];
    viewer.on('message', (data, isBinary) => {
      if (isBinary) binary.push(data as Buffer);
    });
    await until(async () => (await streamOf(room)).isActive, 'the stream to go live');
    expect((await streamOf(room)).endsAt).not.toBeNull();
    // Live from the publish on; "connected" once the pipeline has started (ffmpeg), a moment later.
    await until(async () => (await ingestOf(room)).encoderConnected, 'the encoder to show as connected');
    await until(async () => (await liveSegments(room)) >= 2, 'live segments');
    const { stdout } = await execFileAsync(
      'ffprobe',
      [
        ...['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json'],
        `${base.replace('ws:', 'http:')}/media/hls/${room}/live.m3u8`,
      ],
      { timeout: 30_000 },
    );
    const streams = (JSON.parse(stdout) as { streams: { codec_name: string; width?: number }[] }).streams;
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(640);
    await until(async () => binary.length > 10, 'media on the viewer socket');
    viewer.close();

    expect((await published.exited).code).toBe(0);
    // Gone for longer than the grace: the stream ends and its segments become the replay.
    const vodUrl = await until(async () => (await streamOf(room)).vodUrl, 'the replay', 30_000);
    expect(vodUrl).toMatch(/index\.m3u8$/);
    expect(await ingestOf(room)).toMatchObject({ encoderConnected: false, encoderLeftAt: null });
    // The log said who published, never with the key.
    expect(logLines.join('\n')).not.toContain(streamKey);
  });

  it('keeps the stream live when the encoder comes back within the grace', async () => {
    const room = await newRoom();
    const { rtmpUrl, streamKey } = await ingestOf(room);
    const first = encoder(`${rtmpUrl}/${streamKey}`, 2);
    await until(async () => (await streamOf(room)).isActive, 'live');
    expect((await ingestOf(room)).encoderLeftAt).toBeNull();
    await first.exited;
    // Away: a reload of the host's page learns that the stream is the encoder's, coming back.
    const away = await until(async () => (await ingestOf(room)).encoderLeftAt, 'the encoder to be away');
    // It publishes until killed below: whatever the check sees is this return, not a second leave.
    const second = encoder(`${rtmpUrl}/${streamKey}`, 60);
    await until(async () => (await ingestOf(room)).encoderConnected, 'the encoder back');
    expect((await ingestOf(room)).encoderLeftAt).toBeNull();
    // Past the moment the grace would have ended it (auto-end looks every second), it is still live.
    const graceOver = Date.parse(away) + GRACE_MS + AUTO_END_EVERY_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, graceOver - Date.now()) + AUTO_END_EVERY_MS));
    const stream = await streamOf(room);
    expect(stream.isActive).toBe(true);
    expect(stream.vodUrl).toBeNull();
    second.child.kill('SIGKILL');
  });

  it('refuses a wrong key without logging it, and drops the encoder when the key is rotated', async () => {
    const room = await newRoom();
    const { rtmpUrl, streamKey } = await ingestOf(room);
    const wrongKey = 'sk_this-key-does-not-exist-anywhere';
    const refused = await encoder(`${rtmpUrl}/${wrongKey}`, 2).exited;
    expect(refused.code).not.toBe(0);
    expect((await streamOf(room)).isActive).toBe(false);
    expect(logLines.join('\n')).not.toContain(wrongKey);
    expect(logLines.join('\n')).toContain('unknown stream key');

    const publishing = encoder(`${rtmpUrl}/${streamKey}`, 30);
    await until(async () => (await ingestOf(room)).encoderConnected, 'the encoder connected');
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/ingest/rotate`,
      headers: { cookie: owner.cookie },
    });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().streamKey as string;
    expect(newKey).not.toBe(streamKey);
    // ffmpeg sees its connection dropped and gives up.
    const dropped = await Promise.race([
      publishing.exited,
      new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
    ]);
    expect(dropped).not.toBeNull();
    expect((await encoder(`${rtmpUrl}/${streamKey}`, 1).exited).code).not.toBe(0);
    expect((await ingestOf(room)).streamKey).toBe(newKey);
    // Nobody came back with the new key within the grace: the stream ends.
    await until(async () => !(await streamOf(room)).isActive, 'the end after the grace', 15_000);
  });

  it('survives garbage on the RTMP port and still takes a good encoder after', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(rtmpPort, '127.0.0.1', () => {
        socket.write(Buffer.alloc(70_000, 0x5a));
      });
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    const room = await newRoom();
    const { rtmpUrl, streamKey } = await ingestOf(room);
    const good = encoder(`${rtmpUrl}/${streamKey}`, 2);
    await until(async () => (await streamOf(room)).isActive, 'live after the garbage');
    expect((await good.exited).code).toBe(0);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
