import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BoundedChunkReader, RtmpLimitError } from './bounded-chunks.ts';
import { ChunkReader, encodeChunks, MessageType, type RtmpMessage } from './chunks.ts';

const LIMITS = { maxMessageBytes: 64 * 1024, maxChunkStreams: 8 };

/** A message's chunks, one Buffer each (format 0 then format 3, no extended timestamp). */
function chunksOf(chunkStream: number, message: RtmpMessage, chunkSize: number): Buffer[] {
  const bytes = encodeChunks(chunkStream, message, chunkSize);
  const parts: Buffer[] = [];
  let offset = 0;
  for (let sent = 0; sent < message.payload.length || parts.length === 0; ) {
    const take = Math.min(chunkSize, message.payload.length - sent);
    const size = (parts.length === 0 ? 12 : 1) + take;
    parts.push(bytes.subarray(offset, offset + size));
    offset += size;
    sent += take;
  }
  return parts;
}

function setChunkSize(size: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size);
  return encodeChunks(2, { type: MessageType.setChunkSize, streamId: 0, timestamp: 0, payload }, 128);
}

function feed(reader: { push(bytes: Buffer): RtmpMessage[] }, bytes: Buffer, step: number): RtmpMessage[] {
  const out: RtmpMessage[] = [];
  for (let offset = 0; offset < bytes.length; offset += step)
    out.push(...reader.push(bytes.subarray(offset, offset + step)));
  return out;
}

describe('BoundedChunkReader', () => {
  it('reads what ChunkReader reads: interleaved chunk streams, a chunk size change, extended timestamps', () => {
    const video = { type: MessageType.video, streamId: 1, timestamp: 40, payload: randomBytes(5000) };
    const audio = { type: MessageType.audio, streamId: 1, timestamp: 45, payload: randomBytes(700) };
    const late = { type: MessageType.video, streamId: 1, timestamp: 0x1234567, payload: randomBytes(9000) };
    const videoChunks = chunksOf(6, video, 128);
    const audioChunks = chunksOf(4, audio, 128);
    const interleaved: Buffer[] = [];
    for (let i = 0; i < Math.max(videoChunks.length, audioChunks.length); i += 1)
      interleaved.push(
        ...[videoChunks[i], audioChunks[i]].filter((part): part is Buffer => part !== undefined),
      );
    const bytes = Buffer.concat([...interleaved, setChunkSize(4096), encodeChunks(6, late, 4096)]);

    const expected = new ChunkReader().push(bytes);
    expect(expected.map((message) => message.type)).toEqual([8, 9, 1, 9]);
    for (const step of [1, 7, 128, 1000, bytes.length]) {
      const reader = new BoundedChunkReader(LIMITS);
      expect(feed(reader, bytes, step)).toEqual(expected);
      expect(reader.chunkSize).toBe(4096);
    }
  });

  it('refuses a message over the limit from its header, before its bytes arrive', () => {
    const big = encodeChunks(
      6,
      { type: 9, streamId: 1, timestamp: 0, payload: Buffer.alloc(64 * 1024 + 1) },
      128,
    );
    expect(() => new BoundedChunkReader(LIMITS).push(big.subarray(0, 12))).toThrow(RtmpLimitError);
  });

  it('caps the bytes held by unfinished messages and the chunk streams in use', () => {
    // Nine messages of 60 KB begun on nine chunk streams: too many streams.
    const reader = new BoundedChunkReader(LIMITS);
    const begun = (stream: number) =>
      chunksOf(
        stream,
        { type: 9, streamId: 1, timestamp: 0, payload: randomBytes(60 * 1024) },
        128,
      )[0] as Buffer;
    expect(() => {
      for (let stream = 3; stream < 12; stream += 1) reader.push(begun(stream));
    }).toThrow(/chunk streams/);
    // Three messages under the limit, most of each sent: more held than one message and its slack.
    const held = new BoundedChunkReader(LIMITS);
    const message = { type: 9, streamId: 1, timestamp: 0, payload: randomBytes(60 * 1024) };
    const halves = [3, 4, 5].map((stream) => chunksOf(stream, message, 128).slice(0, 460));
    expect(() => {
      for (const half of halves) held.push(Buffer.concat(half));
    }).toThrow(/partial messages hold/);
  });

  it('throws on a chunk stream that starts without a full header', () => {
    expect(() => new BoundedChunkReader(LIMITS).push(Buffer.of(0xc5, 1, 2, 3))).toThrow(
      /without a full header/,
    );
  });
});
