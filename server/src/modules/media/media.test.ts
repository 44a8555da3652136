import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { memoryBus, redisBus } from '../../platform/bus.ts';
import { s3Storage } from '../../platform/storage.ts';
import { eventually } from '../../test/eventually.ts';
import { type S3Server, startS3Server } from '../../test/s3-server.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';
import { runningPipelines } from './pipeline/pipeline.ts';

/** What Chromium's MediaRecorder sends, in its chunk sizes: H.264 (copied) and VP8 (encoded). */
function recording(name: string) {
  return {
    bytes: readFileSync(new URL(`./containers/fixtures/${name}.webm`, import.meta.url)),
    sizes: JSON.parse(
      readFileSync(new URL(`./containers/fixtures/${name}.chunks.json`, import.meta.url), 'utf8'),
    ) as number[],
  };
}
const h264 = recording('mediarecorder-h264-opus');
const vp8 = recording('mediarecorder-vp8-opus');
const chunkSizes = vp8.sizes;
const H264_TYPE = 'video/webm;codecs=h264,opus';
const VP8_TYPE = 'video/webm;codecs=vp8,opus';

let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false });
  base = await listenOnLoopback(t.app);
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

async function liveRoom(start = true): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: owner.cookie },
    payload: { title: 'Media test' },
  });
  const room = created.json().roomName;
  if (start) {
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/start`,
      headers: { cookie: owner.cookie },
    });
  }
  return room;
}

function open(pathAndQuery: string, cookie?: string, on = base) {
  const socket = new WebSocket(`${on}${pathAndQuery}`, { headers: cookie ? { cookie } : {} });
  const frames: Array<{ text?: unknown; binary?: Buffer }> = [];
  socket.on('message', (data, isBinary) => {
    frames.push(isBinary ? { binary: data as Buffer } : { text: JSON.parse(data.toString()) });
  });
  const closed = new Promise<{ code: number }>((resolve) =>
    socket.once('close', (code) => resolve({ code })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, frames, closed, opened };
}

/** ffmpeg's complaints about what a viewer received (fragmented MP4); '' when it decodes cleanly. */
function decodes(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ss-media-')), 'seen.mp4');
  writeFileSync(file, bytes);
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

const until = (check: () => boolean, what: string) => eventually(what, check);

/** Sends the fixture's chunks in MediaRecorder's sizes, from the chunk numbered `from`. */
async function publish(socket: WebSocket, chunks = chunkSizes, from = 0, clip = vp8) {
  let offset = clip.sizes.slice(0, from).reduce((sum, size) => sum + size, 0);
  for (const size of chunks) {
    socket.send(clip.bytes.subarray(offset, offset + size));
    offset += size;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const execFileAsync = promisify(execFile);
const http = (on: string) => on.replace('ws:', 'http:');
const textOf = (frame: { text?: unknown }) =>
  frame.text as { type?: string; mimeType?: string; message?: string };

/** What ffprobe (a reader nobody here wrote) finds at a URL: codecs and duration. */
async function probe(url: string): Promise<{ codecs: string[]; duration: number }> {
  // Asynchronous: the server answering ffprobe runs in this process.
  const { stdout: out } = await execFileAsync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', url],
    { encoding: 'utf8', timeout: 30_000 },
  );
  const parsed = JSON.parse(out) as { streams: { codec_name: string }[]; format: { duration?: string } };
  return {
    codecs: parsed.streams.map((stream) => stream.codec_name).sort(),
    duration: Number(parsed.format.duration ?? 0),
  };
}

async function streamOf(room: string, app = t.app) {
  return (await app.inject({ url: `/api/streams/${room}` })).json() as {
    isActive: boolean;
    hlsUrl: string | null;
    vodUrl: string | null;
    thumbnailUrl: string | null;
  };
}

async function waitForStream<T>(
  room: string,
  pick: (s: Awaited<ReturnType<typeof streamOf>>) => T | null,
  what: string,
  app = t.app,
): Promise<T> {
  const value = await eventually(
    what,
    async () => pick(await streamOf(room, app)),
    (picked) => picked !== null && picked !== undefined,
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return value as T;
}

async function segmentsIn(url: string, on = base): Promise<number> {
  const response = await fetch(`${on.replace('ws:', 'http:')}${url}`);
  const text = await response.text();
  if (!response.ok) return 0;
  return text.split('\n').filter((line) => line.endsWith('.m4s')).length;
}

/** Waits until the playlist at `url` lists at least `count` segments. */
const untilSegments = (url: string, count: number, on = base) =>
  eventually(
    `${count} segments in ${url}`,
    () => segmentsIn(url, on),
    (n) => n >= count,
    {
      timeoutMs: 15_000,
      intervalMs: 100,
    },
  );

async function connectPublisher(room: string, mimeType: string, on = base) {
  const publisher = open(
    `/ws/publish?room=${room}&mimeType=${encodeURIComponent(mimeType)}`,
    owner.cookie,
    on,
  );
  await until(() => publisher.frames.some((f) => textOf(f)?.type === 'publish_ready'), 'ready');
  return publisher;
}

async function endStream(room: string, app = t.app) {
  const ended = await app.inject({
    method: 'POST',
    url: `/api/streams/${room}/end`,
    headers: { cookie: owner.cookie },
  });
  expect(ended.statusCode).toBe(200);
}

describe('live video: one pipeline, two paths, the replay from the same segments', () => {
  it('copies H.264 into fMP4 for the WebSocket path and HLS, and keeps the segments as the replay', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    await until(() => viewer.frames.some((f) => textOf(f)?.type === 'media_idle'), 'idle');

    const publisher = await connectPublisher(room, H264_TYPE);
    await publish(publisher.socket, h264.sizes, 0, h264);
    await until(() => viewer.frames.filter((f) => f.binary).length > 20, 'media');
    // The viewer's SourceBuffer type names the copied H.264 profile and AAC.
    expect(viewer.frames.find((f) => textOf(f)?.type === 'media_reset')?.text).toEqual({
      type: 'media_reset',
      mimeType: 'video/mp4; codecs="avc1.42C01F,mp4a.40.2"',
    });
    expect(decodes(Buffer.concat(viewer.frames.flatMap((f) => (f.binary ? [f.binary] : []))))).toBe('');

    // While live: the live playlist, read by ffprobe over HTTP, is H.264 + AAC.
    const live = await streamOf(room);
    expect(live.hlsUrl).toBe(`/media/hls/${room}/live.m3u8`);
    await untilSegments(live.hlsUrl ?? '', 2);
    expect((await probe(`${http(base)}${live.hlsUrl}`)).codecs).toEqual(['aac', 'h264']);
    // Only a stream's own file names are served: nothing else in storage, no other folder.
    for (const url of [
      `/media/hls/${room}/..%2F..%2Fuploads%2Fx.webp`,
      `/media/hls/${room}/index.m3u8.bak`,
      `/media/hls/${room}/INDEX.M3U8`,
      `/media/hls/Not_A_Room/index.m3u8`,
      `/media/hls/${room}/missing.m4s`,
    ]) {
      const response = await t.app.inject({ url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
    // ffmpeg's working folder (segments being written) is not served.
    const working = path.join(t.config.dataDir, 'live', room);
    expect(existsSync(working)).toBe(true);
    for (const part of readdirSync(working)) {
      const response = await fetch(`${http(base)}/media/live/${room}/${part}/index.m3u8`);
      expect(response.status).toBe(404);
    }
    const playlist = await fetch(`${http(base)}${live.hlsUrl}`);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    // Browsers ask again every time (a player must see each new segment); a CDN may keep it 1 s.
    expect(playlist.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=1, must-revalidate');
    await playlist.arrayBuffer();

    publisher.socket.close();
    await endStream(room);
    await until(() => viewer.frames.some((f) => textOf(f)?.type === 'stream_ended'), 'ended');
    const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay');
    expect(vodUrl).toBe(`/media/hls/${room}/index.m3u8`);
    const ended = await streamOf(room);
    expect(ended.hlsUrl).toBe(vodUrl);
    const text = await (await fetch(`${http(base)}${vodUrl}`)).text();
    expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(text).toContain('#EXT-X-ENDLIST');
    // The recording is about 2.5 s long: the replay is as long, from its first second.
    const recorded = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '-'], {
        input: h264.bytes,
        encoding: 'utf8',
      }).trim() || '0',
    );
    const replay = await probe(`${http(base)}${vodUrl}`);
    expect(replay.codecs).toEqual(['aac', 'h264']);
    expect(Math.abs(replay.duration - (recorded || 2.5))).toBeLessThan(2);
    const segment = text.split('\n').find((line) => line.endsWith('.m4s')) ?? '';
    const cached = await fetch(`${http(base)}/media/hls/${room}/${segment}`);
    expect(cached.headers.get('cache-control')).toContain('immutable');
    await cached.arrayBuffer();

    // The thumbnail (a frame of the first segment) stays with the replay.
    const thumbnailUrl = await waitForStream(room, (s) => s.thumbnailUrl, 'the thumbnail');
    expect(thumbnailUrl).toMatch(new RegExp(`^/media/hls/${room}/thumb-[a-z0-9-]+\\.jpg$`));
    expect((await probe(`${http(base)}${thumbnailUrl}`)).codecs).toEqual(['mjpeg']);
    viewer.socket.close();
  });

  it('encodes VP8 to H.264 for every viewer', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    const publisher = await connectPublisher(room, VP8_TYPE);
    await publish(publisher.socket);
    await until(() => viewer.frames.filter((f) => f.binary).length > 20, 'media');
    expect(textOf(viewer.frames.find((f) => textOf(f)?.type === 'media_reset') ?? {}).mimeType).toMatch(
      /^video\/mp4; codecs="avc1\.[0-9A-F]{6},mp4a\.40\.2"$/,
    );
    expect(decodes(Buffer.concat(viewer.frames.flatMap((f) => (f.binary ? [f.binary] : []))))).toBe('');
    publisher.socket.close();
    await endStream(room);
    const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay');
    const replay = await probe(`${http(base)}${vodUrl}`);
    expect(replay.codecs).toEqual(['aac', 'h264']);
    // The camera's own frame rate, not WebM's 1 ms time base taken for 1000 fps.
    const { stdout } = await execFileAsync(
      'ffprobe',
      [
        ...['-v', 'error', '-select_streams', 'v:0', '-count_packets'],
        ...['-show_entries', 'stream=nb_read_packets', '-of', 'json', `${http(base)}${vodUrl}`],
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    const frames = Number(
      (JSON.parse(stdout) as { streams: { nb_read_packets: string }[] }).streams[0]?.nb_read_packets,
    );
    expect(frames / replay.duration).toBeLessThan(61);
    expect(frames / replay.duration).toBeGreaterThan(5);
    viewer.socket.close();
  });

  it('refuses ingest from anyone but the owner, and before the stream is live', async () => {
    const room = await liveRoom();
    const foreign = open(`/ws/publish?room=${room}`, stranger.cookie);
    expect((await foreign.closed).code).toBe(4403);
    const anonymous = open(`/ws/publish?room=${room}`);
    expect((await anonymous.closed).code).toBe(4403);
    const notStarted = await liveRoom(false);
    const early = open(`/ws/publish?room=${notStarted}`, owner.cookie);
    expect((await early.closed).code).toBe(4409);
    const missing = open('/ws/publish?room=no-such-room-1', owner.cookie);
    expect((await missing.closed).code).toBe(4404);
  });

  it('closes a publisher that sends garbage, telling it why; the stream stays live without a replay', async () => {
    const room = await liveRoom();
    for (const mimeType of [VP8_TYPE, 'video/mp4']) {
      const publisher = open(
        `/ws/publish?room=${room}&mimeType=${encodeURIComponent(mimeType)}`,
        owner.cookie,
      );
      await publisher.opened;
      publisher.socket.send(Buffer.from('this is not a video'));
      expect((await publisher.closed).code).toBe(4400);
      expect(publisher.frames.map((f) => textOf(f)?.message).filter(Boolean)).toEqual([
        'The server could not read this video.',
      ]);
    }
    expect((await streamOf(room)).isActive).toBe(true);
    await endStream(room);
    await new Promise((r) => setTimeout(r, 500));
    expect((await streamOf(room)).vodUrl).toBeNull();
  });

  it('gives up on a stream ffmpeg cannot read, telling the publisher, and nothing crashes', async () => {
    const room = await liveRoom();
    const publisher = await connectPublisher(room, 'video/mp4');
    // A well-formed MP4 init segment whose track ffmpeg cannot decode: each run fails.
    const ftyp = Buffer.from('00000018667479706973 6f6d0000000069736f6d'.replace(/ /g, ''), 'hex');
    const moov = Buffer.alloc(8);
    moov.writeUInt32BE(8, 0);
    moov.write('moov', 4, 'latin1');
    const send = setInterval(
      () => publisher.socket.readyState === 1 && publisher.socket.send(Buffer.concat([ftyp, moov])),
      200,
    );
    try {
      const closed = await publisher.closed;
      expect(closed.code).toBe(4400);
    } finally {
      clearInterval(send);
    }
    expect(publisher.frames.map((f) => textOf(f)?.message).filter(Boolean)).toContain(
      'The server could not read this video.',
    );
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('removes every stored file of a stream whose seller deletes the account while live, and makes no replay', async () => {
    const seller = await signUp(t.app);
    const room = (
      await t.app.inject({
        method: 'POST',
        url: '/api/rooms',
        headers: { cookie: seller.cookie },
        payload: { title: 'Deleted while live' },
      })
    ).json().roomName;
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/start`,
      headers: { cookie: seller.cookie },
    });
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    const publisher = open(
      `/ws/publish?room=${room}&mimeType=${encodeURIComponent(H264_TYPE)}`,
      seller.cookie,
    );
    await until(() => publisher.frames.some((f) => textOf(f)?.type === 'publish_ready'), 'ready');
    const folder = path.join(t.config.dataDir, 'media', 'hls', room);
    const stored = () => (existsSync(folder) ? readdirSync(folder) : []);
    const sending = publish(publisher.socket, h264.sizes, 0, h264);
    await until(() => stored().some((file) => file.endsWith('.m4s')), 'a stored segment');

    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { cookie: seller.cookie },
      payload: { password: seller.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await sending;
    await until(() => viewer.frames.some((f) => textOf(f)?.type === 'stream_ended'), 'stream_ended');
    // The recorder stops after the account's files went: what it wrote meanwhile goes where it stops.
    const publishing = async () =>
      (
        await t.database.pool.query(
          'select publisher_instance is not null as publishing from streams where room_name = $1',
          [room],
        )
      ).rows[0].publishing as boolean;
    await eventually(
      'the recorder stopped with nothing stored',
      async () => ({ publishing: await publishing(), stored: stored() }),
      (now) => !now.publishing && now.stored.length === 0,
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(stored()).toEqual([]);
    expect((await t.app.inject({ url: `/api/streams/${room}` })).statusCode).toBe(404);
    const [row] = (
      await t.database.pool.query('select vod_url, replay_state from streams where room_name = $1', [room])
    ).rows;
    expect(row).toEqual({ vod_url: null, replay_state: 'empty' });
  });
});

describe('a late joiner of a room this instance relays (ADR 0027)', () => {
  it('gets the video while the database is busy, and the end like any viewer', async () => {
    const room = await liveRoom();
    const publisher = await connectPublisher(room, H264_TYPE);
    const first = open(`/ws/media?room=${room}`);
    await publish(publisher.socket, h264.sizes, 0, h264);
    await until(() => first.frames.some((f) => f.binary), 'media for the first viewer');

    // The streams table locked: a viewer whose join asked the database first would wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table streams in access exclusive mode`);
      locked();
      await held;
    });
    await isLocked;
    const late = open(`/ws/media?room=${room}`);
    try {
      await until(() => late.frames.some((f) => f.binary), 'media for the late joiner, the database locked');
    } finally {
      release();
      await lock;
    }
    expect(textOf(late.frames[0] ?? {})?.type).toBe('media_reset');

    // A viewer like any other: the end reaches it.
    await endStream(room);
    await until(
      () => late.frames.some((f) => textOf(f)?.type === 'stream_ended'),
      'the end for the late joiner',
    );
    late.socket.close();
    publisher.socket.close();
    first.socket.close();
  });
});

describe('pipeline faults and reconnects', () => {
  it('restarts a killed ffmpeg: viewers get a new init segment and the replay keeps both parts', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    const publisher = await connectPublisher(room, H264_TYPE);
    await publish(publisher.socket, h264.sizes.slice(0, 15), 0, h264);
    await until(() => viewer.frames.some((f) => textOf(f)?.type === 'media_reset'), 'first init');
    const hlsUrl = `/media/hls/${room}/live.m3u8`;
    await untilSegments(hlsUrl, 1);
    for (const pipeline of runningPipelines()) pipeline.process?.kill('SIGKILL');
    // The publisher keeps sending; the restarted ffmpeg starts at its next keyframe.
    await new Promise((r) => setTimeout(r, 500));
    await publish(publisher.socket, h264.sizes.slice(15), 15, h264);
    await until(
      () => viewer.frames.filter((f) => textOf(f)?.type === 'media_reset').length >= 2,
      'second init',
    );
    publisher.socket.close();
    await endStream(room);
    const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay');
    const text = await (await fetch(`${http(base)}${vodUrl}`)).text();
    expect(text.match(/#EXT-X-MAP/g)?.length).toBe(2);
    expect(text).toContain('#EXT-X-DISCONTINUITY');
    expect((await probe(`${http(base)}${vodUrl}`)).codecs).toEqual(['aac', 'h264']);
    viewer.socket.close();
  });

  it('continues the same stream and replay when the broadcaster reconnects', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    const types = () => viewer.frames.map((f) => textOf(f)?.type).filter(Boolean);
    const first = await connectPublisher(room, H264_TYPE);
    await publish(first.socket, h264.sizes, 0, h264);
    await until(() => viewer.frames.filter((f) => f.binary).length > 5, 'media before the drop');
    first.socket.close();
    await until(() => types().filter((type) => type === 'media_idle').length >= 2, 'idle after the drop');

    // A new MediaRecorder session starts a new WebM stream with its own init segment.
    const before = viewer.frames.filter((f) => f.binary).length;
    const second = await connectPublisher(room, H264_TYPE);
    await publish(second.socket, h264.sizes, 0, h264);
    await until(() => viewer.frames.filter((f) => f.binary).length > before + 20, 'media after reconnect');
    expect(types().filter((type) => type === 'media_reset')).toHaveLength(2);
    expect((await streamOf(room)).isActive).toBe(true);
    second.socket.close();
    await endStream(room);
    const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay');
    const text = await (await fetch(`${http(base)}${vodUrl}`)).text();
    expect(text.match(/#EXT-X-MAP/g)?.length).toBe(2);
    const seconds = [...text.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(seconds).toBeGreaterThan(4);
    expect((await probe(`${http(base)}${vodUrl}`)).codecs).toEqual(['aac', 'h264']);
    viewer.socket.close();
  });

  /** A second instance on the same database, publishing a new live room's H.264 clip. */
  async function publishingInstance() {
    const instance = await buildTestApp(
      { sessionSecret: t.config.sessionSecret },
      { database: t.database, autoEnd: false, viewerSampling: false },
    );
    const on = await listenOnLoopback(instance.app);
    const room = await liveRoom();
    const publisher = await connectPublisher(room, H264_TYPE, on);
    await publish(publisher.socket, h264.sizes, 0, h264);
    return { instance, on, room };
  }

  it('makes the replay of a stream whose publisher’s instance stopped before its end, on another instance', async () => {
    const { instance: first, room } = await publishingInstance();
    // Asked in-process: a keep-alive HTTP connection would hold up the close below.
    const stored = async () =>
      (await first.app.inject({ url: `/media/hls/${room}/live.m3u8` })).body
        .split('\n')
        .filter((line) => line.endsWith('.m4s')).length;
    await eventually('two stored segments', stored, (n) => n >= 2, { timeoutMs: 15_000, intervalMs: 100 });
    // Another instance on the same storage runs on (its sweep made quick for the test); this one
    // stops while live, closing its part and letting go of the publisher.
    const other = await buildTestApp(
      { dataDir: first.config.dataDir, sessionSecret: t.config.sessionSecret },
      { database: t.database, autoEnd: false, viewerSampling: false, replaySweepMs: 200 },
    );
    await first.app.close();
    try {
      expect((await streamOf(room, other.app)).isActive).toBe(true);
      await endStream(room); // ended elsewhere (another instance, or the plan's limit)
      const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay', other.app);
      const text = (await other.app.inject({ url: vodUrl })).body;
      expect(text).toContain('#EXT-X-ENDLIST');
      expect(text.split('\n').filter((line) => line.endsWith('.m4s')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await other.close();
      await first.close();
    }
  });

  it('tells the viewers on an instance that missed the end on the bus, and makes the replay once', async () => {
    // Two instances on one database and one storage, each with a bus of its own: nothing of the
    // end reaches the second one's bus.
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const a = await buildTestApp(
      { sessionSecret: t.config.sessionSecret, logLevel: 'info' },
      { database: t.database, autoEnd: false, viewerSampling: false, replaySweepMs: 300, logStream },
    );
    const b = await buildTestApp(
      { dataDir: a.config.dataDir, sessionSecret: t.config.sessionSecret, logLevel: 'info' },
      { database: t.database, autoEnd: false, viewerSampling: false, replaySweepMs: 300, logStream },
    );
    try {
      const onA = await listenOnLoopback(a.app);
      const onB = await listenOnLoopback(b.app);
      const room = await liveRoom();
      const viewerOnB = open(`/ws/media?room=${room}`, undefined, onB);
      await until(() => viewerOnB.frames.some((f) => textOf(f)?.type === 'media_idle'), 'idle on B');
      const publisher = await connectPublisher(room, H264_TYPE, onA);
      await publish(publisher.socket, h264.sizes, 0, h264);
      await endStream(room, a.app);
      await until(
        () => viewerOnB.frames.some((f) => textOf(f)?.type === 'stream_ended'),
        'stream_ended on B',
      );
      const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay', b.app);
      expect((await probe(`${http(onB)}${vodUrl}`)).codecs).toEqual(['aac', 'h264']);
      // Both instances looked for it; one made it.
      await new Promise((r) => setTimeout(r, 1000));
      const made = lines.filter((line) => line.includes('"replay ready"') && line.includes(room));
      expect(made).toHaveLength(1);
      publisher.socket.close();
      viewerOnB.socket.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('joins the parts of a publisher that moved to another instance while the first one ran on', async () => {
    const bus = memoryBus(); // one bus: the instances hear each other
    const deps = { database: t.database, autoEnd: false, viewerSampling: false, bus };
    const a = await buildTestApp({ sessionSecret: t.config.sessionSecret }, deps);
    const b = await buildTestApp({ dataDir: a.config.dataDir, sessionSecret: t.config.sessionSecret }, deps);
    try {
      const onA = await listenOnLoopback(a.app);
      const onB = await listenOnLoopback(b.app);
      const room = await liveRoom();
      const parts = async () =>
        (
          await t.database.pool.query<{ closed: boolean }>(
            `select p.closed_at is not null as closed from stream_parts p join streams s on s.id = p.stream_id
             where s.room_name = $1 order by p.started_at`,
            [room],
          )
        ).rows.map((row) => row.closed);
      const first = await connectPublisher(room, H264_TYPE, onA);
      await publish(first.socket, h264.sizes, 0, h264);
      await untilSegments(`/media/hls/${room}/live.m3u8`, 1, onA);
      // The publisher shows up on B (a reconnect through the load balancer) with A's socket still open.
      const second = await connectPublisher(room, H264_TYPE, onB);
      await publish(second.socket, h264.sizes, 0, h264);
      // A hears that B took over: it stores its last segments and closes its part; B's is open.
      await eventually('A’s part closed and B’s open', parts, (closed) => closed.join() === 'true,false', {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
      await endStream(room, b.app);
      const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay', b.app);
      const text = (await b.app.inject({ url: vodUrl })).body;
      expect(text.match(/#EXT-X-MAP/g)).toHaveLength(2);
      expect(text.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1);
      expect(await parts()).toEqual([true, true]);
      first.socket.close();
      second.socket.close();
    } finally {
      await a.close();
      await b.close();
      await bus.close();
    }
  });

  it('publishes the replay of a stream that ends while its instance shuts down', async () => {
    const { instance: first, on, room } = await publishingInstance();
    await waitForStream(room, (s) => (s.hlsUrl ? s.hlsUrl : null), 'the live playlist', first.app);
    await untilSegments(`/media/hls/${room}/live.m3u8`, 2, on);
    // The end and the shutdown at once: the close waits for the end to publish the replay.
    await endStream(room, first.app);
    await first.app.close();
    try {
      expect((await streamOf(room)).vodUrl).toMatch(/index\.m3u8$/);
    } finally {
      await first.close();
    }
  });
});

describe('shared storage (S3)', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('keeps segments, playlists and thumbnails in the bucket, served by an instance that never saw the stream', async () => {
    const storage = s3Storage(s3.settings);
    const a = await buildTestApp(
      { sessionSecret: t.config.sessionSecret },
      { database: t.database, autoEnd: false, viewerSampling: false, storage },
    );
    const b = await buildTestApp(
      { sessionSecret: t.config.sessionSecret },
      { database: t.database, autoEnd: false, viewerSampling: false, storage },
    );
    try {
      const onA = await listenOnLoopback(a.app);
      const onB = await listenOnLoopback(b.app);
      const room = await liveRoom();
      const publisher = await connectPublisher(room, H264_TYPE, onA);
      await publish(publisher.socket, h264.sizes, 0, h264);
      await untilSegments(`/media/hls/${room}/live.m3u8`, 2, onB);
      expect((await probe(`${http(onB)}/media/hls/${room}/live.m3u8`)).codecs).toEqual(['aac', 'h264']);
      publisher.socket.close();
      await endStream(room, a.app);
      const vodUrl = await waitForStream(room, (s) => s.vodUrl, 'the replay', b.app);
      expect((await probe(`${http(onB)}${vodUrl}`)).codecs).toEqual(['aac', 'h264']);
      expect((await storage.list(`hls/${room}/`)).some((key) => key.endsWith('.m4s'))).toBe(true);
      // Nothing of it is on either instance's disk.
      expect(existsSync(path.join(a.config.dataDir, 'media', 'hls', room))).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('two instances through Redis', () => {
  it('shows a viewer on one instance the broadcaster connected to another, joining mid-stream', async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    const instances = await Promise.all(
      [0, 1].map(() =>
        buildTestApp(
          { sessionSecret: t.config.sessionSecret },
          { database: t.database, autoEnd: false, bus: redisBus(redisUrl ?? '', prefix) },
        ),
      ),
    );
    try {
      const [a, b] = await Promise.all(instances.map((i) => listenOnLoopback(i.app)));
      const room = await liveRoom();
      const early = open(`/ws/media?room=${room}`, undefined, b);
      await until(
        () => early.frames.some((f) => (f.text as { type?: string })?.type === 'media_idle'),
        'idle',
      );

      const publisher = open(`/ws/publish?room=${room}`, owner.cookie, a);
      await until(
        () => publisher.frames.some((f) => (f.text as { type?: string })?.type === 'publish_ready'),
        'ready',
      );
      await publish(publisher.socket, h264.sizes.slice(0, 15), 0, h264);
      await until(() => early.frames.filter((f) => f.binary).length > 10, 'media on the other instance');

      // Joins instance B while B already follows the room; a third instance joins cold below.
      const late = open(`/ws/media?room=${room}`, undefined, b);
      await until(() => late.frames.filter((f) => f.binary).length > 2, 'late joiner media');

      const third = await buildTestApp(
        { sessionSecret: t.config.sessionSecret },
        { database: t.database, autoEnd: false, bus: redisBus(redisUrl ?? '', prefix) },
      );
      instances.push(third);
      const c = await listenOnLoopback(third.app);
      const cold = open(`/ws/media?room=${room}`, undefined, c);
      await until(() => cold.frames.some((f) => f.binary), 'snapshot on a cold instance');
      await new Promise((r) => setTimeout(r, 200));
      const fromSnapshot = cold.frames.filter((f) => f.binary).length;

      await publish(publisher.socket, h264.sizes.slice(15), 15, h264);
      await until(
        () => cold.frames.filter((f) => f.binary).length > fromSnapshot + 10,
        'live media after the snapshot',
      );
      for (const viewer of [late, cold]) {
        const bytes = Buffer.concat(viewer.frames.flatMap((f) => (f.binary ? [f.binary] : [])));
        expect(decodes(bytes)).toBe('');
      }
      // Ended on the publisher's instance: the viewers on the others are told on their video socket.
      await endStream(room, instances[0]?.app);
      for (const viewer of [late, cold]) {
        await until(() => viewer.frames.some((f) => textOf(f)?.type === 'stream_ended'), 'stream_ended');
      }
      for (const s of [early, late, cold, publisher]) s.socket.close();
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});
