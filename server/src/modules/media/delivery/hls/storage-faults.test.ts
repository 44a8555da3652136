import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readObject,
  type S3Settings,
  StorageUnavailableError,
  s3Storage,
} from '../../../../platform/storage.ts';
import { freePort } from '../../../../test/ports.ts';
import { type S3Server, startS3Server } from '../../../../test/s3-server.ts';
import { buildTestApp, type TestApp } from '../../../../test/test-app.ts';
import { isWholePlaylist } from '../../pipeline/playlist.ts';

/**
 * Media files when storage misbehaves: S3 away, an answer broken off after its headers, an object
 * read while it is replaced. A viewer gets the file whole or a 503 to retry, never a 500, a cut
 * playlist or an error cached for a year.
 */

const ROOM = `faults-${randomUUID().slice(0, 8)}`;
const PLAYLIST = `#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:1\n#EXT-X-MAP:URI="init-1.mp4"\n${Array.from(
  { length: 40 },
  (_, i) => `#EXTINF:1.000,\nseg-1-${String(i).padStart(5, '0')}.m4s\n`,
).join('')}`;

/**
 * An HTTP server on 127.0.0.1 that answers every request with 200 and a Content-Length of 4,096,
 * sends `sent` of those bytes and drops the connection: an S3 that breaks off in an object.
 */
async function startBrokenS3(sent = ''): Promise<{ settings: S3Settings; stop(): Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', () => {
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 4096\r\n\r\n${sent}`,
      );
      setTimeout(() => socket.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    settings: {
      bucket: 'broken',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'BROKEN',
      secretAccessKey: 'BROKEN',
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function expectStorageUnavailable(response: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): { code: string; message: string };
}) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['retry-after']).toBe('1');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toEqual({
    code: 'SERVICE_UNAVAILABLE',
    message: 'Media storage is not answering. Please try again.',
  });
}

describe('media files when storage fails', () => {
  let s3: S3Server | undefined;
  let app: TestApp | undefined;
  let broken: Awaited<ReturnType<typeof startBrokenS3>> | undefined;
  let onBroken: TestApp | undefined;
  const upload = `uploads/${randomUUID()}.webp`;

  beforeAll(async () => {
    [s3, broken] = await Promise.all([startS3Server(), startBrokenS3()]);
    app = await buildTestApp({ s3: s3.settings });
    onBroken = await buildTestApp({ s3: broken.settings });
    const storage = s3Storage(s3.settings);
    await storage.put(`hls/${ROOM}/live.m3u8`, Buffer.from(PLAYLIST), 'application/vnd.apple.mpegurl');
    await storage.put(`hls/${ROOM}/seg-1-00000.m4s`, Buffer.alloc(2048, 7), 'video/iso.segment');
    await storage.put(upload, Buffer.alloc(512, 1), 'image/webp');
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([app?.close(), onBroken?.close()]);
    await Promise.allSettled([s3?.stop(), broken?.stop()]);
  });

  it('answers 503 with a JSON reason, not a 500, when S3 breaks off before an object’s first byte', async () => {
    for (const url of [
      `/media/hls/${ROOM}/live.m3u8`,
      `/media/hls/${ROOM}/seg-1-00000.m4s`,
      `/media/${upload}`,
    ]) {
      const response = await onBroken?.app.inject({ method: 'GET', url });
      if (!response) throw new Error('no app');
      expectStorageUnavailable(response);
    }
  });

  it('serves the playlist whole while it is replaced over and over', async () => {
    const storage = s3Storage(s3?.settings as S3Settings);
    const key = `hls/${ROOM}/busy.m3u8`;
    const version = (i: number) =>
      Buffer.from(PLAYLIST.replace('#EXT-X-VERSION:7', `#EXT-X-VERSION:7\n#V:${i}`));
    await storage.put(key, version(0), 'application/vnd.apple.mpegurl');
    let writing = true;
    const writer = (async () => {
      for (let i = 1; i <= 150; i++) {
        await storage.put(key, version(i), 'application/vnd.apple.mpegurl');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      writing = false;
    })();
    const outcomes: string[] = [];
    const readers = Array.from({ length: 3 }, async () => {
      while (writing) {
        const response = await app?.app.inject({ method: 'GET', url: `/media/hls/${ROOM}/busy.m3u8` });
        if (!response) throw new Error('no app');
        outcomes.push(
          response.statusCode !== 200
            ? `status ${response.statusCode}`
            : isWholePlaylist(response.rawPayload) &&
                response.body.split('\n').length === PLAYLIST.split('\n').length + 1
              ? 'whole'
              : 'cut short',
        );
      }
    });
    await Promise.all([writer, ...readers]);
    expect(outcomes.length).toBeGreaterThan(20);
    expect(outcomes.filter((outcome) => outcome !== 'whole')).toEqual([]);
  }, 60_000);

  it('serves what S3 has and 404s what it has not, then answers 503 once S3 is away', async () => {
    if (!s3 || !app) throw new Error('no app');
    const playlist = await app.app.inject({ method: 'GET', url: `/media/hls/${ROOM}/live.m3u8` });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.body).toBe(PLAYLIST);
    expect(playlist.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, must-revalidate');
    const segment = await app.app.inject({ method: 'GET', url: `/media/hls/${ROOM}/seg-1-00000.m4s` });
    expect([segment.statusCode, segment.rawPayload.length]).toEqual([200, 2048]);
    expect(segment.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await app.app.inject({ method: 'GET', url: `/media/hls/${ROOM}/gone.m3u8` });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'NOT_FOUND']);

    await s3.stop();
    for (const url of [
      `/media/hls/${ROOM}/live.m3u8`,
      `/media/hls/${ROOM}/seg-1-00000.m4s`,
      `/media/${upload}`,
    ]) {
      expectStorageUnavailable(await app.app.inject({ method: 'GET', url }));
    }
  }, 30_000);
});

describe('reading a whole object', () => {
  it('gives up with a storage error, not a cut object, when every read is cut short', async () => {
    const broken = await startBrokenS3('#EXTM3U\n#EXT-X-V');
    try {
      const failure = await readObject(s3Storage(broken.settings), 'hls/x/live.m3u8', isWholePlaylist).catch(
        (error: Error) => error,
      );
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      expect((failure as Error).message).toMatch(/^storage could not read hls\/x\/live\.m3u8: /);
    } finally {
      await broken.stop();
    }
  });
});
