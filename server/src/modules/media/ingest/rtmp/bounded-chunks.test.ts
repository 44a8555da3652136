import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ChunkReader, encodeChunks, MessageType, type RtmpMessage } from '../../rtmp-protocol/chunks.ts';
import { BoundedChunkReader, RtmpLimitError } from './bounded-chunks.ts';

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

  it('caps the chunk streams in use, the messages in flight and the bytes they will hold', () => {
    const begun = (stream: number, length: number) =>
      chunksOf(
        stream,
        { type: 9, streamId: 1, timestamp: 0, payload: randomBytes(length) },
        128,
      )[0] as Buffer;
    // Nine messages begun on nine chunk streams: too many streams.
    const streams = new BoundedChunkReader(LIMITS);
    expect(() => {
      for (let stream = 3; stream < 12; stream += 1) streams.push(begun(stream, 200));
    }).toThrow(/more than 8 chunk streams/);
    // Five messages begun where four may be in flight.
    const inFlight = new BoundedChunkReader({ ...LIMITS, maxMessagesInFlight: 4 });
    expect(() => {
      for (let stream = 3; stream < 8; stream += 1) inFlight.push(begun(stream, 200));
    }).toThrow(/^more than 4 messages in flight$/);
    // Three messages under the limit begun: more to hold than one message and its slack, refused
    // from the third header, before its bytes (or those of the first two) have arrived.
    const held = new BoundedChunkReader(LIMITS);
    held.push(begun(3, 60 * 1024));
    held.push(begun(4, 60 * 1024));
    expect(held.buffered).toEqual({ bytes: 120 * 1024, buffers: 2, messages: 2 });
    expect(() => held.push(begun(5, 60 * 1024))).toThrow(
      `partial messages would hold ${180 * 1024} bytes (the limit is ${128 * 1024})`,
    );
  });

  it('refuses a chunk size under 128 (Set Chunk Size 1 would cost a chunk header per byte)', () => {
    for (const size of [1, 127]) {
      expect(() => new BoundedChunkReader(LIMITS).push(setChunkSize(size))).toThrow(RtmpLimitError);
      expect(() => new BoundedChunkReader(LIMITS).push(setChunkSize(size))).toThrow(
        `a chunk size of ${size} (the least is 128)`,
      );
    }
    const reader = new BoundedChunkReader(LIMITS);
    reader.push(setChunkSize(128));
    expect(reader.chunkSize).toBe(128);
  });

  it('reassembles a message in one buffer: a 2 MB message in 128-byte chunks keeps no buffer per chunk', () => {
    const payload = randomBytes(2 * 1024 * 1024);
    const bytes = encodeChunks(4, { type: MessageType.dataAmf0, streamId: 0, timestamp: 0, payload }, 128);
    for (const step of [7, 1000, 64 * 1024]) {
      const reader = new BoundedChunkReader({ ...LIMITS, maxMessageBytes: 4 * 1024 * 1024 });
      const most = { bytes: 0, buffers: 0, messages: 0 };
      const out: RtmpMessage[] = [];
      for (let offset = 0; offset < bytes.length; offset += step) {
        out.push(...reader.push(bytes.subarray(offset, offset + step)));
        const { bytes: held, buffers, messages } = reader.buffered;
        most.bytes = Math.max(most.bytes, held);
        most.buffers = Math.max(most.buffers, buffers);
        most.messages = Math.max(most.messages, messages);
      }
      // The message's own buffer, and at most a chunk header's few bytes not parsed yet.
      expect(most.buffers).toBeLessThanOrEqual(2);
      expect(most.bytes).toBeLessThanOrEqual(payload.length + 17);
      expect(most.messages).toBe(1);
      expect(reader.buffered).toEqual({ bytes: 0, buffers: 0, messages: 0 });
      expect(out).toHaveLength(1);
      expect(out[0]?.payload.equals(payload)).toBe(true);
    }
  });

  it('copies what arrives a bounded number of times: no re-concatenation of what waits', () => {
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      // A 4 MB chunk arriving in 4 KB reads, then 1 MB of 128-byte chunks in one read.
      const big = Buffer.concat([
        setChunkSize(4 * 1024 * 1024),
        encodeChunks(
          6,
          { type: 9, streamId: 1, timestamp: 0, payload: randomBytes(4 * 1024 * 1024) },
          4 << 20,
        ),
      ]);
      const small = encodeChunks(
        6,
        { type: 9, streamId: 1, timestamp: 0, payload: randomBytes(1 << 20) },
        128,
      );
      const reader = new BoundedChunkReader({ ...LIMITS, maxMessageBytes: 8 * 1024 * 1024 });
      concat.mockClear();
      expect(feed(reader, big, 4096)).toHaveLength(2);
      const reader2 = new BoundedChunkReader({ ...LIMITS, maxMessageBytes: 8 * 1024 * 1024 });
      expect(reader2.push(small)).toHaveLength(1);
      const copied = concat.mock.results.reduce(
        (sum, result) => sum + (result.type === 'return' ? (result.value as Buffer).length : 0),
        0,
      );
      expect(copied).toBeLessThanOrEqual(2 * (big.length + small.length));
    } finally {
      concat.mockRestore();
    }
  });

  it('throws on a chunk stream that starts without a full header', () => {
    expect(() => new BoundedChunkReader(LIMITS).push(Buffer.of(0xc5, 1, 2, 3))).toThrow(
      /without a full header/,
    );
  });
});
