import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryStorage, type Storage } from '../../../platform/storage.ts';
import { HlsRecorder } from '../pipeline/hls-recorder.ts';
import { parsePlaylist } from '../pipeline/playlist.ts';
import {
  CHUNK_SEGMENTS,
  hlsKey,
  partChunkName,
  partPlaylistName,
  storedPlaylist,
} from '../pipeline/stored-parts.ts';
import { joinParts } from './replays.ts';

/**
 * Issue 30: a long part's playlist is stored as sealed chunks and a short tail, not rewritten
 * whole every second. The recorder moves the segments of a working folder written as ffmpeg
 * writes it (segment files, then `index.m3u8` replaced) into a directory storage; another
 * instance (its own storage object on the same files) joins the parts into the replay.
 */

const ROOM = `chunks-${randomBytes(4).toString('hex')}`;
const segmentName = (n: number) => `seg-${String(n).padStart(5, '0')}.m4s`;
const partId = () => `${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

/** One ffmpeg run's working folder, as ffmpeg writes it: each segment, then the playlist listing it. */
class FakeRun {
  private count = 0;
  readonly dir: string;

  constructor(
    root: string,
    readonly id: string,
  ) {
    this.dir = path.join(root, 'live', id);
  }

  async write(segments: number): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    if (this.count === 0) await writeFile(path.join(this.dir, 'init.mp4'), `init ${this.id}`);
    for (let i = 0; i < segments; i++) {
      await writeFile(path.join(this.dir, segmentName(this.count)), `segment ${this.count} of ${this.id}`);
      this.count += 1;
    }
    const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:1', '#EXT-X-MAP:URI="init.mp4"'];
    for (let n = 0; n < this.count; n++) lines.push('#EXTINF:1.000000,', segmentName(n));
    await writeFile(path.join(this.dir, 'index.m3u8.tmp'), `${lines.join('\n')}\n`);
    await rename(path.join(this.dir, 'index.m3u8.tmp'), path.join(this.dir, 'index.m3u8'));
  }

  /** The part's segments as named in storage, in order. */
  stored(from: number, to: number): string[] {
    return Array.from({ length: to - from }, (_, i) => `${this.id}-${segmentName(from + i)}`);
  }
}

describe('a long part in storage: sealed chunks and a short tail', () => {
  let root: string;
  let storage: Storage;
  /** What the recorder put, key and text, in order. */
  const puts: Array<{ key: string; text: string }> = [];
  const warnings: string[] = [];
  const opened: string[] = [];
  const closed: string[] = [];
  let recorder: HlsRecorder;
  /** The recorder of the next part: another instance the publisher moved to. */
  let next: HlsRecorder;
  const open = { run: undefined as unknown as FakeRun };
  const ended = { run: undefined as unknown as FakeRun };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'part-chunks-'));
    const files = directoryStorage(path.join(root, 'media'));
    storage = {
      ...files,
      put: async (key, body, type) => {
        puts.push({ key, text: body.toString('utf8') });
        await files.put(key, body, type);
      },
    };
    const recorderOn = () =>
      new HlsRecorder({
        roomName: ROOM,
        storage,
        // No ffmpeg here: a thumbnail fails at once and is only logged.
        ffmpegPath: path.join(root, 'no-ffmpeg'),
        log: { warn: (_, message) => warnings.push(message) },
        onThumbnail: () => {},
        parts: {
          opened: async (id) => void opened.push(id),
          closed: async (id) => void closed.push(id),
        },
      });
    recorder = recorderOn();
    next = recorderOn();
    open.run = new FakeRun(root, partId());
    ended.run = new FakeRun(root, partId());
  });

  afterAll(async () => {
    await Promise.all([recorder?.close(), next?.close()]);
    await rm(root, { recursive: true, force: true });
  });

  /** Another instance's view of the same storage. */
  const elsewhere = () => directoryStorage(path.join(root, 'media'));
  const partKey = (id: string) => hlsKey(ROOM, partPlaylistName(id));

  it('seals a chunk every 60 segments and rewrites only the tail after it', async () => {
    const { run } = open;
    recorder.addPart({ id: run.id, dir: run.dir });
    await run.write(CHUNK_SEGMENTS + 1);
    await recorder.flush();
    const chunk = await storedPlaylist(elsewhere(), hlsKey(ROOM, partChunkName(run.id, 0)));
    expect(chunk?.ended).toBe(true);
    expect(chunk?.segments.map((s) => s.uri)).toEqual(run.stored(0, CHUNK_SEGMENTS));
    const tail = await storedPlaylist(elsewhere(), partKey(run.id));
    expect(tail).toMatchObject({ ended: false, chunks: 1, sequence: CHUNK_SEGMENTS });
    expect(tail?.segments.map((s) => s.uri)).toEqual(run.stored(CHUNK_SEGMENTS, CHUNK_SEGMENTS + 1));

    // A few seconds at a time, as the recorder sees them, to 150 segments.
    for (let written = CHUNK_SEGMENTS + 1; written < 150; written += 8) {
      await run.write(Math.min(8, 150 - written));
      await recorder.flush();
    }
    expect(opened).toEqual([run.id]);
    const partWrites = puts
      .filter((put) => put.key === partKey(run.id))
      .map((put) => parsePlaylist(put.text));
    expect(partWrites.length).toBeGreaterThan(10);
    expect(Math.max(...partWrites.map((playlist) => playlist.segments.length))).toBeLessThanOrEqual(
      CHUNK_SEGMENTS,
    );
    expect(partWrites.every((playlist) => !playlist.ended)).toBe(true);
    const chunkWrites = puts.filter((put) => put.key.startsWith(hlsKey(ROOM, `part-${run.id}-c`)));
    expect(chunkWrites.map((put) => put.key)).toEqual(
      [0, 1].map((k) => hlsKey(ROOM, partChunkName(run.id, k))),
    );
    const last = await storedPlaylist(elsewhere(), partKey(run.id));
    expect(last).toMatchObject({ chunks: 2, sequence: 2 * CHUNK_SEGMENTS });
    expect(last?.segments).toHaveLength(150 - 2 * CHUNK_SEGMENTS);
  });

  it('gives another instance every segment of the open part, in order, once its recorder is gone', async () => {
    // Its instance killed: nothing more is written, the part stays open.
    await recorder.close();
    const replay = await joinParts(elsewhere(), ROOM, [{ id: open.run.id, closed: false }]);
    expect(replay?.segments.map((s) => s.uri)).toEqual(open.run.stored(0, 150));
    expect(replay?.segments.some((s) => s.discontinuity)).toBe(false);
    for (const uri of [`${open.run.id}-${segmentName(0)}`, `${open.run.id}-${segmentName(149)}`]) {
      expect(await elsewhere().get(hlsKey(ROOM, uri))).toBeDefined();
    }
  });

  it('writes a closed part’s playlist whole, then deletes its chunks', async () => {
    const { run } = ended;
    next.addPart({ id: run.id, dir: run.dir });
    for (let written = 0; written < 130; written += 10) {
      await run.write(10);
      await next.flush();
    }
    expect(await elsewhere().get(hlsKey(ROOM, partChunkName(run.id, 1)))).toBeDefined();
    await next.endPart({ id: run.id, dir: run.dir });
    expect(closed).toEqual([run.id]);
    const whole = await storedPlaylist(elsewhere(), partKey(run.id));
    expect(whole).toEqual({ ended: true, segments: expect.any(Array) });
    expect(whole?.segments.map((s) => s.uri)).toEqual(run.stored(0, 130));
    expect(await elsewhere().list(hlsKey(ROOM, `part-${run.id}`))).toEqual([partKey(run.id)]);

    const replay = await joinParts(elsewhere(), ROOM, [
      { id: open.run.id, closed: false },
      { id: run.id, closed: true },
    ]);
    expect(replay?.segments.map((s) => s.uri)).toEqual([...open.run.stored(0, 150), ...run.stored(0, 130)]);
    expect(replay?.segments.flatMap((s, i) => (s.discontinuity ? [i] : []))).toEqual([150]);
    expect(warnings.filter((message) => !message.startsWith('making a thumbnail failed'))).toEqual([]);
  });

  it('makes no replay without a chunk the open part’s tail counts', async () => {
    await elsewhere().delete(hlsKey(ROOM, partChunkName(open.run.id, 0)));
    await expect(joinParts(elsewhere(), ROOM, [{ id: open.run.id, closed: false }])).rejects.toThrow(
      `chunk 0 of part ${open.run.id} is not in storage`,
    );
  });
});
