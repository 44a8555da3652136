import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../../test/eventually.ts';
import { FlvReader, type FlvTag } from '../../containers/flv.ts';
import { parseRtmpUrl, RtmpPublisher } from '../../restream/publisher.ts';
import { encodeAmf0 } from '../../rtmp-protocol/amf0.ts';
import { encodeChunks, MessageType } from '../../rtmp-protocol/chunks.ts';
import type { RtmpIngestServerOptions } from './server.ts';
import { authorizeKeys, type IngestHarness as Harness, startIngestHarness } from './test-harness.ts';

const KEYS = ['good-key', 'other-key', 'bad-key', 'denied-key', 'broken-key'];
/** The stream each good key publishes (what authorize answers: an id, not the key). */
const STREAMS: Record<string, string> = { 'good-key': 'stream-1', 'other-key': 'stream-2' };

const harnesses: Harness[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const harness of harnesses.splice(0)) {
    await harness.server.close();
    // No log line, whatever the test did, names a key.
    for (const line of harness.logs) for (const key of KEYS) expect(line).not.toContain(key);
  }
});

const acceptKeys = authorizeKeys(STREAMS);

async function start(options: Partial<RtmpIngestServerOptions> = {}): Promise<Harness> {
  const harness = await startIngestHarness({
    authorize: async (app, key) => {
      if (key === 'denied-key') return { ok: false, code: 'Denied' };
      if (key === 'broken-key') throw new Error(`the database is down while looking up ${key}`);
      return acceptKeys(app, key);
    },
    handshakeTimeoutMs: 2000,
    ...options,
  });
  harnesses.push(harness);
  return harness;
}

const until = (check: () => boolean, what: string, timeoutMs = 5000) =>
  eventually(what, check, { timeoutMs, intervalMs: 10 });

function publish(port: number, key: string, app = 'live'): Promise<RtmpPublisher> {
  return RtmpPublisher.publish(parseRtmpUrl(`rtmp://127.0.0.1:${port}/${app}/${key}`), { timeoutMs: 5000 });
}

/** What an encoder sends: metadata, sequence headers, then frames (one past 24-bit timestamps). */
function encoderTags(): FlvTag[] {
  const metadata = encodeAmf0('onMetaData', { width: 640, height: 360, videocodecid: 7, audiocodecid: 10 });
  const tags: FlvTag[] = [
    { type: 18, timestamp: 0, data: metadata },
    { type: 9, timestamp: 0, data: Buffer.concat([Buffer.of(0x17, 0, 0, 0, 0), randomBytes(30)]) },
    { type: 8, timestamp: 0, data: Buffer.of(0xaf, 0, 0x12, 0x10) },
  ];
  for (let i = 0; i < 20; i += 1) {
    const keyframe = i % 10 === 0;
    const size = keyframe ? 100_000 : 2000 + i;
    tags.push({
      type: 9,
      timestamp: i * 33,
      data: Buffer.concat([Buffer.of(keyframe ? 0x17 : 0x27, 1, 0, 0, 0), randomBytes(size)]),
    });
    tags.push({
      type: 8,
      timestamp: i * 33 + 5,
      data: Buffer.concat([Buffer.of(0xaf, 1), randomBytes(200)]),
    });
  }
  tags.push({
    type: 9,
    timestamp: 0x1234567,
    data: Buffer.concat([Buffer.of(0x27, 1, 0, 0, 0), randomBytes(500)]),
  });
  return tags;
}

function raw(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  sockets.push(socket);
  return socket;
}

function closedWithin(socket: Socket, timeoutMs: number): Promise<number> {
  const started = Date.now();
  if (socket.destroyed) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the socket was still open after ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function read(socket: Socket, count: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let total = 0;
    const onData = (bytes: Buffer) => {
      parts.push(bytes);
      total += bytes.length;
      if (total >= count) {
        socket.off('data', onData);
        resolve(Buffer.concat(parts));
      }
    };
    socket.on('data', onData);
  });
}

/** A raw client past the handshake. */
async function handshaken(port: number): Promise<Socket> {
  const socket = raw(port);
  await once(socket, 'connect');
  const answer = read(socket, 1 + 2 * 1536);
  socket.write(Buffer.concat([Buffer.of(3), randomBytes(1536)]));
  expect((await answer)[0]).toBe(3);
  socket.write(randomBytes(1536));
  return socket;
}

function warnings(harness: Harness): Array<Record<string, unknown>> {
  return harness.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'warn');
}

describe('RtmpIngestServer: publishing', () => {
  it('gives the published stream as FLV: header, then every tag with its timestamp; unpublish ends it', async () => {
    const harness = await start();
    const publisher = await publish(harness.port, 'good-key');
    expect(harness.sessions).toHaveLength(1);
    const [entry] = harness.sessions;
    expect(entry?.session).toMatchObject({ id: 'stream-1', app: 'live', remoteAddress: '127.0.0.1' });
    expect(entry?.session.flashVer).toContain('FMLE/3.0');
    const tags = encoderTags();
    for (const tag of tags) publisher.send(tag);
    await publisher.end();
    await until(() => entry?.end !== undefined, 'the end');
    expect(entry?.end).toEqual({ reason: 'unpublished' });

    const items = new FlvReader().push(Buffer.concat(entry?.bytes ?? []));
    expect(items[0]).toMatchObject({ kind: 'header', flags: 5 });
    const received = items.flatMap((item) => (item.kind === 'tag' ? [item] : []));
    expect(received.map(({ type, timestamp }) => ({ type, timestamp }))).toEqual(
      tags.map(({ type, timestamp }) => ({ type, timestamp })),
    );
    // The @setDataFrame wrapper is gone: the script data is onMetaData as FLV stores it.
    expect(received.every((tag, i) => tag.data.equals(tags[i]?.data as Buffer))).toBe(true);
    expect(harness.server.sessions).toEqual([]);
  });

  it('refuses an unknown key (BadName), a denied one (Denied) and a failed authorization, with no session', async () => {
    const harness = await start();
    await expect(publish(harness.port, 'bad-key')).rejects.toThrow(/NetStream\.Publish\.BadName/);
    await expect(publish(harness.port, 'denied-key')).rejects.toThrow(/NetStream\.Publish\.Denied/);
    await expect(publish(harness.port, 'broken-key')).rejects.toThrow(/NetStream\.Publish\.Denied/);
    await expect(publish(harness.port, 'good-key', 'other-app')).rejects.toThrow(/BadName/);
    expect(harness.sessions).toEqual([]);
    // The authorizer's error is logged with the key taken out.
    expect(harness.logs.join('\n')).toContain('looking up [stream key]');
    expect(warnings(harness).filter((entry) => entry.message === 'rtmp publish refused')).toHaveLength(4);
    for (const entry of warnings(harness)) expect(entry).not.toHaveProperty('app');
  });

  it('lets authorize decide a second publisher for a live stream: taken over, or refused', async () => {
    let takeOver = true;
    const harness = await start({
      authorize: async (_app, key) => {
        const live = harness.server.sessions.find((session) => session.id === STREAMS[key]);
        if (live && !takeOver) return { ok: false, code: 'BadName' };
        live?.kick('taken over');
        return { ok: true, id: STREAMS[key] ?? 'unknown' };
      },
    });
    const first = await publish(harness.port, 'good-key');
    const firstClosed = once(first, 'close');
    const second = await publish(harness.port, 'good-key');
    expect(harness.sessions[0]?.end).toEqual({ reason: 'kicked', detail: 'taken over' });
    await firstClosed;
    takeOver = false;
    await expect(publish(harness.port, 'good-key')).rejects.toThrow(/BadName/);
    expect(harness.sessions).toHaveLength(2);
    expect(harness.server.sessions).toEqual([harness.sessions[1]?.session]);
    await second.end();
  });

  it('kick() drops the publisher; close() ends the sessions left', async () => {
    const harness = await start();
    const kicked = await publish(harness.port, 'good-key');
    const closed = once(kicked, 'close');
    harness.sessions[0]?.session.kick('key rotated');
    expect(harness.sessions[0]?.end).toEqual({ reason: 'kicked', detail: 'key rotated' });
    const [error] = await closed;
    expect(error).toBeInstanceOf(Error);

    await publish(harness.port, 'other-key');
    await harness.server.close();
    await until(() => harness.sessions[1]?.end !== undefined, 'the end');
    expect(harness.sessions[1]?.end).toEqual({ reason: 'server-closed' });
  });

  it('ends a publish that goes quiet after the idle timeout', async () => {
    const harness = await start({ idleTimeoutMs: 300 });
    await publish(harness.port, 'good-key');
    await until(() => harness.sessions[0]?.end !== undefined, 'the end');
    expect(harness.sessions[0]?.end?.reason).toBe('timeout');
  });
});

describe('RtmpIngestServer: robustness', () => {
  it('drops garbage, other protocols and other RTMP versions, and goes on', async () => {
    const harness = await start();
    const garbage = raw(harness.port);
    garbage.write(Buffer.concat([Buffer.of(0x16), randomBytes(64 * 1024 - 1)]));
    const http = raw(harness.port);
    http.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const rtmpe = raw(harness.port);
    rtmpe.write(Buffer.concat([Buffer.of(6), randomBytes(1536)]));
    for (const socket of [garbage, http, rtmpe]) expect(await closedWithin(socket, 1000)).toBeLessThan(1000);
    // Random bytes after a good handshake: dropped as soon as they make no sense, or at the timeout.
    const afterHandshake = await handshaken(harness.port);
    afterHandshake.write(randomBytes(64 * 1024));
    await closedWithin(afterHandshake, 3000);

    const reasons = warnings(harness).map((entry) => entry.detail);
    expect(reasons).toContain('the client asked for RTMP version 22');
    expect(reasons).toContain('the client asked for RTMP version 71');
    expect(reasons).toContain('the client asked for RTMP version 6');
    await (await publish(harness.port, 'good-key')).end();
    expect(harness.sessions).toHaveLength(1);
  });

  it('drops a client that stalls in the handshake or never publishes', async () => {
    const harness = await start({ handshakeTimeoutMs: 300 });
    const half = raw(harness.port);
    half.write(Buffer.concat([Buffer.of(3), randomBytes(100)]));
    const idle = await handshaken(harness.port);
    expect(await closedWithin(half, 2000)).toBeGreaterThan(200);
    await closedWithin(idle, 2000);
    expect(warnings(harness).map(({ reason, phase }) => ({ reason, phase }))).toEqual([
      { reason: 'timeout', phase: 'handshake' },
      { reason: 'timeout', phase: 'connect' },
    ]);
  });

  it('drops a message longer than the limit as soon as its header arrives', async () => {
    const harness = await start();
    const socket = await handshaken(harness.port);
    const header = encodeChunks(
      3,
      { type: MessageType.video, streamId: 1, timestamp: 0, payload: Buffer.alloc(0) },
      128,
    );
    header.writeUIntBE(9 * 1024 * 1024, 4, 3); // a 9 MB message
    socket.write(header);
    expect(await closedWithin(socket, 1000)).toBeLessThan(1000);
    expect(warnings(harness)[0]).toMatchObject({
      message: 'rtmp connection dropped',
      reason: 'error',
      detail: `a message of ${9 * 1024 * 1024} bytes (the limit is ${8 * 1024 * 1024})`,
    });
  });

  it('closes connections past maxConnections and takes new ones once others left', async () => {
    const harness = await start({ maxConnections: 2 });
    const [a, b] = [raw(harness.port), raw(harness.port)];
    await Promise.all([once(a, 'connect'), once(b, 'connect')]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server has accepted both
    const third = raw(harness.port);
    await closedWithin(third, 1000);
    expect(warnings(harness).map((entry) => entry.message)).toEqual([
      'rtmp connection refused: too many connections',
    ]);
    a.destroy();
    b.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await (await publish(harness.port, 'good-key')).end();
  });
});
