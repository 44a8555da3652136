import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually.ts';
import { isH264Init, LivePipeline, type PipelinePart } from '../pipeline/pipeline.ts';
import type { RelayEvent } from '../relay-events.ts';
import {
  encodeFlvHeader,
  encodeFlvTag,
  FLV_HAS_VIDEO,
  FlvError,
  FlvReader,
  FlvTagType,
  videoTagInfo,
} from './flv.ts';
import { FlvSplitter } from './flv-splitter.ts';

function ffmpeg(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(
      'ffmpeg',
      ['-v', 'error', ...args, '-f', 'flv', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 30_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

/** A small deterministic PRNG, so a failing split can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function pushAll(bytes: Buffer, sizes: () => number): RelayEvent[] {
  const splitter = new FlvSplitter();
  const events: RelayEvent[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const size = sizes();
    events.push(...splitter.push(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return events;
}

function bytesOf(event: RelayEvent): Buffer {
  if (event.kind === 'init' || event.kind === 'append') return event.bytes;
  if (event.kind === 'group') return Buffer.concat([...event.start, event.keyframe]);
  throw new Error(`unexpected ${event.kind}`);
}

function tagsOf(bytes: Buffer) {
  return new FlvReader().push(bytes).flatMap((item) => (item.kind === 'tag' ? [item] : []));
}

let dir: string;
let h264: Buffer;
let sorenson: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ss-flv-'));
  // Three seconds of H.264 with a keyframe a second, and AAC: what OBS sends, as FLV.
  [h264, sorenson] = await Promise.all([
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine', '-t', '3'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', '-c:a', 'aac'],
    ]),
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30', '-t', '1', '-c:v', 'flv1']),
  ]);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FlvSplitter', () => {
  it('makes an init of the header, metadata and sequence headers, and a group at each keyframe', () => {
    const events = new FlvSplitter().push(h264);
    expect(events[0]?.kind).toBe('init');
    expect(events.slice(1).every((event) => event.kind === 'group' || event.kind === 'append')).toBe(true);
    // Nothing is lost or reordered: the events are the stream.
    expect(Buffer.concat(events.map(bytesOf)).equals(h264)).toBe(true);

    const init = bytesOf(events[0] as RelayEvent);
    expect(init.toString('latin1', 0, 3)).toBe('FLV');
    const initTags = tagsOf(init);
    expect(initTags.map((tag) => tag.type)).toEqual([18, 9, 8]);
    expect(initTags[0]?.data.includes('onMetaData')).toBe(true);
    expect(videoTagInfo(initTags[1]?.data as Buffer)).toMatchObject({ codecId: 7, avcPacketType: 0 });

    const groups = events.filter((event) => event.kind === 'group');
    expect(groups).toHaveLength(3); // 0 s, 1 s, 2 s
    const keyframeTimes = groups.map((group) => {
      const tag = tagsOf(Buffer.concat([init, group.keyframe])).at(-1);
      expect(tag?.type).toBe(FlvTagType.video);
      expect(videoTagInfo(tag?.data as Buffer)).toMatchObject({ frameType: 1, codecId: 7, avcPacketType: 1 });
      return tag?.timestamp;
    });
    expect(keyframeTimes).toEqual([0, 1000, 2000]);
  });

  it('gives the same events whatever sizes the bytes arrive in', () => {
    const whole = new FlvSplitter().push(h264);
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const split = pushAll(h264, () => 1 + Math.floor(next() * (seed === 1 ? 16 : 20_000)));
      expect(split.map((event) => event.kind)).toEqual(whole.map((event) => event.kind));
      expect(split.every((event, i) => bytesOf(event).equals(bytesOf(whole[i] as RelayEvent)))).toBe(true);
    }
  });

  it('throws FlvError on bytes that are not FLV', () => {
    const webm = readFileSync(new URL('./fixtures/mediarecorder-vp8-opus.webm', import.meta.url));
    expect(() => new FlvSplitter().push(webm.subarray(0, 1))).toThrow(FlvError);
    expect(() => new FlvSplitter().push(Buffer.from('GET / HTTP/1.1\r\n'))).toThrow(FlvError);
    // A header, then a tag whose type is not audio, video or script data.
    const badType = Buffer.concat([h264.subarray(0, 13), Buffer.from([0x07, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])]);
    expect(() => new FlvSplitter().push(badType)).toThrow(/not an FLV tag/);
    // A tag whose previous tag size is not its size.
    const tampered = Buffer.from(h264);
    const firstTagSize = tampered.readUIntBE(14, 3);
    tampered.writeUInt32BE(1, 13 + 11 + firstTagSize);
    expect(() => new FlvSplitter().push(tampered)).toThrow(FlvError);
    // Enhanced RTMP (here an HEVC keyframe, FourCC hvc1) is refused by name.
    const hevc = Buffer.concat([Buffer.of(0x90), Buffer.from('hvc1'), Buffer.alloc(8)]);
    const tag = Buffer.alloc(11);
    tag[0] = 9;
    tag.writeUIntBE(hevc.length, 1, 3);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(11 + hevc.length);
    expect(() => new FlvSplitter().push(Buffer.concat([h264.subarray(0, 13), tag, hevc, size]))).toThrow(
      /enhanced RTMP/,
    );
  });
});

describe('FlvReader', () => {
  it('reads 32-bit timestamps (the extended byte) and refuses filtered (encrypted) tags', () => {
    const frame = Buffer.of(0x27, 1, 0, 0, 0, 9);
    const stream = Buffer.concat([
      encodeFlvHeader(FLV_HAS_VIDEO),
      encodeFlvTag(FlvTagType.video, 0x1234567, frame),
      encodeFlvTag(FlvTagType.video, 0xfedcba98, frame),
    ]);
    const items = new FlvReader().push(stream);
    expect(items.map((item) => item.kind)).toEqual(['header', 'tag', 'tag']);
    const tags = items.flatMap((item) => (item.kind === 'tag' ? [item] : []));
    expect(tags.map(({ type, timestamp }) => ({ type, timestamp }))).toEqual([
      { type: 9, timestamp: 0x1234567 },
      { type: 9, timestamp: 0xfedcba98 },
    ]);
    expect(tags[0]?.data.equals(frame)).toBe(true);
    // The type is the byte's low 5 bits; the filter bit (0x20) marks an encrypted tag.
    const filtered = encodeFlvTag(FlvTagType.video, 0, frame);
    filtered[0] = 0x20 | FlvTagType.video;
    expect(() => new FlvReader().push(Buffer.concat([encodeFlvHeader(FLV_HAS_VIDEO), filtered]))).toThrow(
      /encrypted/,
    );
  });
});

describe('isH264Init', () => {
  it('is true for an FLV init of AVC video and false for other FLV video', () => {
    const [avcInit] = new FlvSplitter().push(h264);
    const [sorensonInit] = new FlvSplitter().push(sorenson);
    expect(avcInit?.kind).toBe('init');
    expect(sorensonInit?.kind).toBe('init');
    expect(isH264Init(bytesOf(avcInit as RelayEvent))).toBe(true);
    expect(isH264Init(bytesOf(sorensonInit as RelayEvent))).toBe(false);
  });

  it('lets the live pipeline copy the H.264 of an FLV publisher', async () => {
    const outputs: RelayEvent[] = [];
    const parts: PipelinePart[] = [];
    const pipeline = new LivePipeline({
      roomName: 'flv-test',
      stagingDir: path.join(dir, 'staging'),
      log: { info: () => {}, warn: () => {} },
      onOutput: (event) => outputs.push(event),
      onPart: (part) => parts.push(part),
      onPartEnd: () => {},
      onFailed: () => {},
    });
    try {
      for (const event of new FlvSplitter().push(h264)) pipeline.write(event);
      expect(pipeline.process?.spawnargs.join(' ')).toContain('-c:v copy');
      await eventually(
        'three groups from ffmpeg',
        () => outputs.filter((event) => event.kind === 'group').length >= 3,
        15_000,
      );
    } finally {
      await pipeline.stop();
    }
    expect(outputs[0]).toEqual({ kind: 'reset', mimeType: expect.stringMatching(/avc1\..*mp4a\.40\.2/) });
    expect(outputs.filter((event) => event.kind === 'group').length).toBeGreaterThanOrEqual(3);
    expect(parts).toHaveLength(1);
  });
});
