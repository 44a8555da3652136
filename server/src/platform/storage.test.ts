import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Server, startS3Server } from '../test/s3-server.ts';
import { directoryStorage, isValidKey, type Storage, StorageUnavailableError, s3Storage } from './storage.ts';

let s3: S3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = mkdtempSync(path.join(tmpdir(), 'ss-storage-'));
}, 30_000);
afterAll(async () => {
  await s3?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const kinds: Array<[string, () => Storage]> = [
  ['a directory', () => directoryStorage(dir)],
  ['S3 (s3rver on 127.0.0.1)', () => s3Storage(s3.settings)],
];

describe.each(kinds)('storage in %s', (_name, make) => {
  it('stores, reads back, lists by prefix and deletes objects', async () => {
    const storage = make();
    await storage.put('uploads/a.webp', Buffer.from('first image'), 'image/webp');
    await storage.put('uploads/b.webp', Buffer.from('second'), 'image/webp');
    await storage.put('hls/s1/index.m3u8', Buffer.from('#EXTM3U\n'), 'application/vnd.apple.mpegurl');
    await storage.put('uploads/a.webp', Buffer.from('replaced image'), 'image/webp');

    const object = await storage.get('uploads/a.webp');
    expect(object?.contentType).toBe('image/webp');
    expect(object?.size).toBe('replaced image'.length);
    expect(object && (await text(object.body))).toBe('replaced image');

    expect((await storage.list('uploads/')).sort()).toEqual(['uploads/a.webp', 'uploads/b.webp']);
    expect(await storage.list('hls/s1/')).toEqual(['hls/s1/index.m3u8']);
    expect(await storage.list('nothing/')).toEqual([]);

    await storage.delete('uploads/a.webp');
    await storage.delete('uploads/a.webp'); // already gone: no error
    expect(await storage.get('uploads/a.webp')).toBeUndefined();
    expect(await storage.get('never/was.webp')).toBeUndefined();
  });

  it('deletes many objects at once, more than one S3 request takes, and missing ones are no error', async () => {
    const storage = make();
    // 1,001 keys: two DeleteObjects requests on S3 (at most 1,000 keys each).
    const keys = Array.from({ length: 1001 }, (_, i) => `hls/many/seg-${String(i).padStart(5, '0')}.m4s`);
    // One at a time: s3rver's file store races with itself on writes into one new folder.
    for (const key of keys) await storage.put(key, Buffer.from(key), 'video/iso.segment');
    await storage.put('hls/many/kept.m3u8', Buffer.from('#EXTM3U\n'), 'application/vnd.apple.mpegurl');
    // (Not listed here: s3rver cannot page a listing past 1,000 keys on OpenSSL 3.)
    for (const key of [keys[0], keys[1000]] as string[]) {
      const object = await storage.get(key);
      object?.body.destroy();
      expect(object?.size).toBe(key.length);
    }

    await storage.deleteMany([...keys, 'hls/many/never-was.m4s']);
    expect(await storage.list('hls/many/')).toEqual(['hls/many/kept.m3u8']);
    await storage.deleteMany([]);
    await expect(storage.deleteMany(['hls/many/kept.m3u8', '../escape'])).rejects.toThrow(
      'not a storage key',
    );
    // A bad key refuses the whole call before anything goes.
    expect(await storage.list('hls/many/')).toEqual(['hls/many/kept.m3u8']);
  }, 60_000);

  it('refuses keys that could leave its place', async () => {
    const storage = make();
    for (const key of ['../escape.webp', 'uploads/../../x', '/absolute', 'a//b', '', 'a\\b']) {
      await expect(storage.put(key, Buffer.from('x'), 'image/webp')).rejects.toThrow('not a storage key');
      await expect(storage.get(key)).rejects.toThrow('not a storage key');
    }
  });
});

describe('storage keys and places', () => {
  it('accepts plain relative keys only', () => {
    expect(isValidKey('uploads/1b2c.webp')).toBe(true);
    expect(isValidKey('hls/stream/seg-00001.m4s')).toBe(true);
    expect(isValidKey('./x')).toBe(false);
  });

  it('leaves no partial files behind in a directory', async () => {
    const storage = directoryStorage(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => storage.put('race/same.webp', Buffer.from(`v${i}`), 'image/webp')),
    );
    expect(readdirSync(path.join(dir, 'race'))).toEqual(['same.webp']);
  });

  it('gives up on an S3 that accepts connections and never answers, as storage unavailable', async () => {
    const sockets = new Set<Socket>();
    // Holds every socket open and says nothing.
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const storage = s3Storage({
        ...s3.settings,
        endpoint: `http://127.0.0.1:${port}`,
        timeouts: { connectMs: 500, idleMs: 500 },
      });
      const started = Date.now();
      await expect(storage.get('hls/s1/index.m3u8')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.put('uploads/x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow();
      // Three attempts of half a second each, and the SDK's backoff between them: not forever.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);

  it('is refused by S3 with wrong credentials, and names no secret', async () => {
    const storage = s3Storage({ ...s3.settings, secretAccessKey: 'wrong-secret-value' });
    const failure = await storage
      .put('uploads/x.webp', Buffer.from('x'), 'image/webp')
      .catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure)).not.toContain('wrong-secret-value');
  });
});
