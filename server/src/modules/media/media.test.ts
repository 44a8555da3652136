import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { redisBus } from '../../platform/bus.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';

const fixture = readFileSync(new URL('./fixtures/mediarecorder-vp8-opus.webm', import.meta.url));
const chunkSizes: number[] = JSON.parse(
  readFileSync(new URL('./fixtures/mediarecorder-vp8-opus.chunks.json', import.meta.url), 'utf8'),
);

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

/** ffmpeg's complaints about a WebM stream; '' when it decodes cleanly. */
function decodes(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ss-media-')), 'seen.webm');
  writeFileSync(file, bytes);
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends the fixture's chunks in MediaRecorder's sizes, from the chunk numbered `from`. */
async function publish(socket: WebSocket, chunks = chunkSizes, from = 0) {
  let offset = chunkSizes.slice(0, from).reduce((sum, size) => sum + size, 0);
  for (const size of chunks) {
    socket.send(fixture.subarray(offset, offset + size));
    offset += size;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('live video relay', () => {
  it('relays the owner’s stream to a viewer and turns the recording into a seekable replay', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    await until(
      () => viewer.frames.some((f) => (f.text as { type?: string })?.type === 'media_idle'),
      'idle',
    );

    const publisher = open(
      `/ws/publish?room=${room}&mimeType=${encodeURIComponent('video/webm;codecs=vp8,opus')}`,
      owner.cookie,
    );
    await publisher.opened;
    await until(
      () => publisher.frames.some((f) => (f.text as { type?: string })?.type === 'publish_ready'),
      'ready',
    );
    await publish(publisher.socket);
    await until(() => viewer.frames.filter((f) => f.binary).length > 20, 'media');
    expect(viewer.frames.find((f) => (f.text as { type?: string })?.type === 'media_reset')?.text).toEqual({
      type: 'media_reset',
      mimeType: 'video/webm;codecs=vp8,opus',
    });

    // The recording in progress is kept outside the public media folder.
    const part = path.join(t.config.dataDir, 'recordings', room, 'part-0000.webm');
    await until(() => existsSync(part), 'the recording');
    expect((await t.app.inject({ url: `/media/recordings/${room}/part-0000.webm` })).statusCode).toBe(404);

    const ended = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/end`,
      headers: { cookie: owner.cookie },
    });
    expect(ended.statusCode).toBe(200);
    await until(
      () => viewer.frames.some((f) => (f.text as { type?: string })?.type === 'stream_ended'),
      'ended',
    );
    let vodUrl: string | null = null;
    await until(() => {
      void t.app.inject({ url: `/api/streams/${room}` }).then((r) => {
        vodUrl = r.json().vodUrl;
      });
      return vodUrl !== null;
    }, 'the replay');
    expect(vodUrl).toBe(`/media/vods/${room}.webm`);
    const partial = await t.app.inject({ url: vodUrl ?? '', headers: { range: 'bytes=0-99' } });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.length).toBe(100);
    viewer.socket.close();
    publisher.socket.close();
  });

  it('moves a recording an earlier version left in the public folder out of it, and finishes its replay', async () => {
    const room = await liveRoom();
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/end`,
      headers: { cookie: owner.cookie },
    });
    const other = await buildTestApp({}, { database: t.database, autoEnd: false, viewerSampling: false });
    try {
      const legacy = path.join(other.config.dataDir, 'media', 'recordings', room);
      mkdirSync(legacy, { recursive: true });
      writeFileSync(path.join(legacy, 'part-0000.webm'), fixture);
      const restarted = await buildTestApp(
        { dataDir: other.config.dataDir },
        { database: t.database, autoEnd: false, viewerSampling: false },
      );
      try {
        let vodUrl: string | null = null;
        await until(() => {
          void restarted.app.inject({ url: `/api/streams/${room}` }).then((r) => {
            vodUrl = r.json().vodUrl;
          });
          return vodUrl !== null;
        }, 'the replay');
        expect((await restarted.app.inject({ url: vodUrl ?? '' })).statusCode).toBe(200);
        expect(existsSync(path.join(other.config.dataDir, 'media', 'recordings'))).toBe(false);
      } finally {
        await restarted.app.close();
      }
    } finally {
      await other.close();
    }
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

  it('closes a publisher that sends something other than WebM', async () => {
    const room = await liveRoom();
    const publisher = open(`/ws/publish?room=${room}`, owner.cookie);
    await publisher.opened;
    publisher.socket.send(Buffer.from('this is not a video'));
    expect((await publisher.closed).code).toBe(4400);
  });
});

describe('publisher reconnect', () => {
  it('continues the same stream for viewers when the broadcaster reconnects', async () => {
    const room = await liveRoom();
    const viewer = open(`/ws/media?room=${room}`);
    await viewer.opened;
    const types = () =>
      viewer.frames.map((f) => (f.text as { type?: string } | undefined)?.type).filter(Boolean);
    const connectPublisher = async () => {
      const publisher = open(`/ws/publish?room=${room}`, owner.cookie);
      await until(
        () => publisher.frames.some((f) => (f.text as { type?: string })?.type === 'publish_ready'),
        'ready',
      );
      return publisher;
    };
    const first = await connectPublisher();
    await publish(first.socket, chunkSizes.slice(0, 15));
    await until(() => viewer.frames.filter((f) => f.binary).length > 5, 'media before the drop');
    first.socket.close();
    await until(() => types().filter((t) => t === 'media_idle').length >= 2, 'idle after the drop');

    // A new MediaRecorder session starts a new WebM stream with its own init segment.
    const before = viewer.frames.filter((f) => f.binary).length;
    const second = await connectPublisher();
    await publish(second.socket);
    await until(() => viewer.frames.filter((f) => f.binary).length > before + 20, 'media after reconnect');
    expect(types().filter((t) => t === 'media_reset')).toHaveLength(2);
    const stream = await t.app.inject({ url: `/api/streams/${room}` });
    expect(stream.json().isActive).toBe(true);
    viewer.socket.close();
    second.socket.close();
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
      await publish(publisher.socket, chunkSizes.slice(0, 25));
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

      await publish(publisher.socket, chunkSizes.slice(25), 25);
      await until(() => cold.frames.filter((f) => f.binary).length > 20, 'live media after the snapshot');
      for (const viewer of [late, cold]) {
        const bytes = Buffer.concat(viewer.frames.flatMap((f) => (f.binary ? [f.binary] : [])));
        expect(decodes(bytes)).toBe('');
      }
      for (const s of [early, late, cold, publisher]) s.socket.close();
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});
