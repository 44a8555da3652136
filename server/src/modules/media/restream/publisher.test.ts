import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup } from '../../../platform/egress.ts';
import { eventually } from '../../../test/eventually.ts';
import { freePort } from '../../../test/ports.ts';
import { type RtmpReceiver, startRtmpReceiver } from '../../../test/rtmp-receiver.ts';
import { FlvReader, type FlvTag } from '../containers/flv.ts';
import { decodeAmf0, encodeAmf0 } from '../rtmp-protocol/amf0.ts';
import { ChunkReader, encodeChunks, MessageType, type RtmpMessage } from '../rtmp-protocol/chunks.ts';
import { parseRtmpUrl, RtmpPublisher } from './publisher.ts';

function run(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

/** Codec and packet count of every stream in a media file, as ffprobe reads them. */
async function packetCounts(file: string): Promise<string[]> {
  const out = await run('ffprobe', [
    ...['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_name,nb_read_packets'],
    ...['-of', 'csv=p=0', file],
  ]);
  return out.toString().split('\n').filter(Boolean).sort();
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('close', (code) => resolve(code)));
}

let dir: string;
let sourceFile: string;
let sourceTags: FlvTag[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ss-rtmp-'));
  sourceFile = path.join(dir, 'source.flv');
  // Two seconds of H.264 (a keyframe a second) and AAC: what the restream's ffmpeg writes.
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-f', 'lavfi', '-i', 'sine'],
    ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-c:a', 'aac'],
    ...['-flvflags', 'no_duration_filesize', '-f', 'flv', sourceFile],
  ]);
  sourceTags = new FlvReader()
    .push(readFileSync(sourceFile))
    .flatMap((item) => (item.kind === 'tag' ? [item] : []));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('RtmpPublisher', () => {
  it("publishes every tag to ffmpeg's RTMP server, which records the same stream", async () => {
    const port = await freePort();
    const received = path.join(dir, 'received.flv');
    const listener = spawn(
      'ffmpeg',
      [
        ...['-v', 'error', '-listen', '1', '-timeout', '20', '-i', `rtmp://127.0.0.1:${port}/live/the-key`],
        ...['-c', 'copy', '-f', 'flv', '-y', received],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    listener.stderr.on('data', (text) => {
      stderr += text;
    });
    const done = exited(listener);
    const publisher = await connectWhenListening(`rtmp://127.0.0.1:${port}/live/the-key`);
    for (const tag of sourceTags) publisher.send(tag);
    await publisher.end();
    expect(await done, stderr).toBe(0);
    const sent = await packetCounts(sourceFile);
    expect(sent.find((line) => line.startsWith('h264'))).toBe('h264,60');
    expect(await packetCounts(received)).toEqual(sent);
  }, 60_000);

  describe('against node-media-server', () => {
    let receiver: RtmpReceiver;
    beforeAll(async () => {
      receiver = await startRtmpReceiver();
    });
    afterAll(() => receiver?.stop());

    it('reports the server dropping a second publisher of a taken stream name', async () => {
      const url = `rtmp://127.0.0.1:${receiver.port}/live/taken-key`;
      const first = await RtmpPublisher.publish(parseRtmpUrl(url));
      const firstClosed = new Promise((resolve) => first.once('close', resolve));
      // node-media-server answers Publish.Start, then closes a publish to a taken name.
      const second = await RtmpPublisher.publish(parseRtmpUrl(url)).catch((error: Error) => error);
      const reason =
        second instanceof Error
          ? second
          : await new Promise<Error | undefined>((resolve) => second.once('close', resolve));
      expect(reason?.message).toBe('the server closed the connection');
      await first.end();
      expect(await firstClosed).toBeUndefined();
      // The first publish was the one that counted, and it ended.
      expect(receiver.events('postPublish', '/live/taken-key')).toBe(2);
      await until(() => receiver.events('donePublish', '/live/taken-key') >= 1);
    });

    it("publishes over rtmps:// (TLS), checking the server's certificate", async () => {
      // A TLS front for the RTMP server, as ingest services put one (Facebook takes rtmps:// only).
      const key = path.join(dir, 'tls.key');
      const cert = path.join(dir, 'tls.crt');
      await run('openssl', [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ]);
      const front = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (socket) => {
        const upstream = connect(receiver.port, '127.0.0.1');
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      const url = `rtmps://127.0.0.1:${(front.address() as { port: number }).port}/live/over-tls`;
      try {
        await expect(RtmpPublisher.publish(parseRtmpUrl(url))).rejects.toThrow(/self-signed certificate/);
        const publisher = await RtmpPublisher.publish(parseRtmpUrl(url), { ca: readFileSync(cert) });
        for (const tag of sourceTags.slice(0, 20)) publisher.send(tag);
        expect(receiver.events('postPublish', '/live/over-tls')).toBe(1);
        await publisher.end();
      } finally {
        front.close();
      }
    });

    it('resolves the host through a guarded lookup: a private address is refused at connect time', async () => {
      // localhost resolves to loopback: refused unless the operator allowed it (RESTREAM_ALLOWED_HOSTS).
      const url = parseRtmpUrl(`rtmp://localhost:${receiver.port}/live/guarded`);
      await expect(RtmpPublisher.publish(url, { lookup: guardedLookup([]) })).rejects.toThrow(
        'host localhost is a private or local address, which is not allowed',
      );
      expect(receiver.events('prePublish', '/live/guarded')).toBe(0);
      for (const allowed of [['localhost'], ['127.0.0.0/8', '::1']]) {
        const publisher = await RtmpPublisher.publish(url, { lookup: guardedLookup(allowed) });
        await publisher.end();
      }
      await until(() => receiver.events('donePublish', '/live/guarded') >= 2);
    });

    it('reports a server that drops the connection mid-stream', async () => {
      const url = `rtmp://127.0.0.1:${receiver.port}/live/dropped`;
      const publisher = await RtmpPublisher.publish(parseRtmpUrl(url));
      const closed = new Promise<Error | undefined>((resolve) => publisher.once('close', resolve));
      await receiver.stop();
      expect((await closed)?.message).toBe('the server closed the connection');
      receiver = await startRtmpReceiver();
    });
  });

  it('fails to connect within its timeout, and on a refused connection', async () => {
    const silent: Server = createServer(() => {}); // accepts, never answers the handshake
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      await expect(
        RtmpPublisher.publish(parseRtmpUrl(`rtmp://127.0.0.1:${port}/live/k`), { timeoutMs: 300 }),
      ).rejects.toThrow('no progress for 300 ms');
    } finally {
      silent.close();
    }
    const closed = await freePort();
    await expect(RtmpPublisher.publish(parseRtmpUrl(`rtmp://127.0.0.1:${closed}/live/k`))).rejects.toThrow(
      'ECONNREFUSED',
    );
  });

  it('splits URLs the way OBS does: the app, then the key with its query', () => {
    expect(parseRtmpUrl('rtmps://live-api-s.facebook.com:443/rtmp/FB-1?s_bl=1&a=b')).toEqual({
      secure: true,
      host: 'live-api-s.facebook.com',
      port: 443,
      app: 'rtmp',
      streamKey: 'FB-1?s_bl=1&a=b',
      tcUrl: 'rtmps://live-api-s.facebook.com:443/rtmp',
    });
    expect(parseRtmpUrl('rtmp://a.rtmp.youtube.com/live2/abcd-efgh')).toMatchObject({
      port: 1935,
      app: 'live2',
      streamKey: 'abcd-efgh',
      tcUrl: 'rtmp://a.rtmp.youtube.com/live2',
    });
    expect(() => parseRtmpUrl('rtmp://host/only-app')).toThrow('no app and stream key');
    expect(() => parseRtmpUrl('http://host/app/key')).toThrow('not rtmp');
  });
});

const until = (check: () => boolean) => eventually('the condition', check, { intervalMs: 20 });

/** ffmpeg's listener takes a moment to bind its port. */
function connectWhenListening(url: string): Promise<RtmpPublisher> {
  return eventually(
    `ffmpeg listening at ${url}`,
    async () => {
      try {
        return await RtmpPublisher.publish(parseRtmpUrl(url));
      } catch (error) {
        // Refused: not listening yet. Any other error ends the wait at once.
        if (String(error).includes('ECONNREFUSED')) return undefined;
        throw error;
      }
    },
    15_000,
  );
}

describe('RTMP chunks', () => {
  it('reassembles messages cut into chunks and delivered in arbitrary pieces', () => {
    const messages: RtmpMessage[] = [
      { type: MessageType.commandAmf0, streamId: 0, timestamp: 0, payload: encodeAmf0('connect', 1, {}) },
      { type: MessageType.video, streamId: 1, timestamp: 40, payload: Buffer.alloc(1000, 7) },
      // Past 0xFFFFFF ms (4.6 hours) the timestamp moves to the extended field, in every chunk.
      { type: MessageType.audio, streamId: 1, timestamp: 0x1234_5678, payload: Buffer.alloc(300, 9) },
      { type: MessageType.video, streamId: 1, timestamp: 5, payload: Buffer.alloc(0) },
    ];
    const bytes = Buffer.concat(messages.map((m, i) => encodeChunks(3 + i, m, 128)));
    const reader = new ChunkReader();
    const out: RtmpMessage[] = [];
    for (let offset = 0, step = 1; offset < bytes.length; offset += step, step = (step * 7) % 97 || 1) {
      out.push(...reader.push(bytes.subarray(offset, offset + step)));
    }
    expect(out).toEqual(messages);
  });

  it("follows the peer's Set Chunk Size for the chunks after it", () => {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(4096);
    const setChunkSize = { type: MessageType.setChunkSize, streamId: 0, timestamp: 0, payload: size };
    const big = { type: MessageType.video, streamId: 1, timestamp: 1, payload: Buffer.alloc(3000, 1) };
    const reader = new ChunkReader();
    const out = reader.push(Buffer.concat([encodeChunks(2, setChunkSize, 128), encodeChunks(6, big, 4096)]));
    expect(out).toEqual([setChunkSize, big]);
    expect(reader.chunkSize).toBe(4096);
  });
});

describe('AMF0', () => {
  it('round-trips the values of RTMP commands', () => {
    const values = [
      'onStatus',
      0,
      null,
      { level: 'status', code: 'NetStream.Publish.Start', nested: { ok: true, list: [1, 'two'] } },
      undefined,
      'x'.repeat(70_000),
    ];
    expect(decodeAmf0(encodeAmf0(...values))).toEqual(values);
    expect(() => decodeAmf0(encodeAmf0('truncated').subarray(0, 4))).toThrow('truncated');
  });
});
