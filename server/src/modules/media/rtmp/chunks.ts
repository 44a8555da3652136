/**
 * RTMP's chunk stream (the RTMP 1.0 specification, section 5.3): messages are cut into chunks of
 * at most the sender's chunk size, each with a header naming its chunk stream; the first chunk
 * of a message carries the message header (type, length, timestamp, message stream).
 */

/** Message types used here (section 5.4 and 7.1). */
export const MessageType = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAcknowledgementSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  dataAmf3: 15,
  commandAmf3: 17,
  dataAmf0: 18,
  commandAmf0: 20,
} as const;

export interface RtmpMessage {
  type: number;
  streamId: number;
  timestamp: number;
  payload: Buffer;
}

/** Before a peer says otherwise, chunks carry at most 128 bytes of payload. */
export const DEFAULT_CHUNK_SIZE = 128;
const EXTENDED = 0xffffff;

/** A message as chunks of `chunkSize`: a type-0 chunk, then type-3 continuations. */
export function encodeChunks(chunkStreamId: number, message: RtmpMessage, chunkSize: number): Buffer {
  if (chunkStreamId < 2 || chunkStreamId > 63) throw new Error('chunk stream ids here are 2..63');
  const timestamp = message.timestamp >>> 0;
  const extended = timestamp >= EXTENDED;
  const header = Buffer.alloc(12 + (extended ? 4 : 0));
  header[0] = chunkStreamId; // format 0
  header.writeUIntBE(extended ? EXTENDED : timestamp, 1, 3);
  header.writeUIntBE(message.payload.length, 4, 3);
  header[7] = message.type;
  header.writeUInt32LE(message.streamId, 8);
  if (extended) header.writeUInt32BE(timestamp, 12);
  const continuation = Buffer.alloc(1 + (extended ? 4 : 0));
  continuation[0] = 0xc0 | chunkStreamId; // format 3
  if (extended) continuation.writeUInt32BE(timestamp, 1);

  const parts: Buffer[] = [header];
  for (let offset = 0; offset < message.payload.length; offset += chunkSize) {
    if (offset > 0) parts.push(continuation);
    parts.push(message.payload.subarray(offset, offset + chunkSize));
  }
  return Buffer.concat(parts);
}

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

/** Reassembles messages from a peer's chunks, fed in whatever pieces the socket delivers. */
export class ChunkReader {
  /** The peer's chunk size (its Set Chunk Size messages change it). */
  chunkSize = DEFAULT_CHUNK_SIZE;
  private pending: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, ChunkStreamState>();

  /** The messages completed by these bytes. Throws on a chunk that makes no sense. */
  push(bytes: Buffer): RtmpMessage[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const messages: RtmpMessage[] = [];
    for (;;) {
      const consumed = this.readChunk(messages);
      if (consumed === 0) break;
      this.pending = this.pending.subarray(consumed);
    }
    return messages;
  }

  /** Reads one chunk from the pending bytes: how many bytes it took, 0 when it is not all here. */
  private readChunk(messages: RtmpMessage[]): number {
    const data = this.pending;
    if (data.length < 1) return 0;
    const first = data.readUInt8(0);
    const format = first >> 6;
    let chunkStreamId = first & 0x3f;
    let offset = 1;
    if (chunkStreamId === 0) {
      if (data.length < 2) return 0;
      chunkStreamId = 64 + data.readUInt8(1);
      offset = 2;
    } else if (chunkStreamId === 1) {
      if (data.length < 3) return 0;
      chunkStreamId = 64 + data.readUInt8(1) + data.readUInt8(2) * 256;
      offset = 3;
    }
    const headerSize = [11, 7, 3, 0][format] ?? 0;
    if (data.length < offset + headerSize) return 0;
    const previous = this.streams.get(chunkStreamId);
    if (format !== 0 && !previous)
      throw new Error(`chunk stream ${chunkStreamId} starts without a full header`);
    const state: ChunkStreamState = previous ?? {
      timestamp: 0,
      delta: 0,
      length: 0,
      type: 0,
      streamId: 0,
      extended: false,
      parts: [],
      received: 0,
    };

    let stamp = 0;
    if (format <= 2) stamp = data.readUIntBE(offset, 3);
    if (format <= 1) {
      state.length = data.readUIntBE(offset + 3, 3);
      state.type = data.readUInt8(offset + 6);
    }
    if (format === 0) state.streamId = data.readUInt32LE(offset + 7);
    offset += headerSize;
    const extended = format <= 2 ? stamp === EXTENDED : state.extended;
    if (extended) {
      if (data.length < offset + 4) return 0;
      stamp = data.readUInt32BE(offset);
      offset += 4;
    }
    const startsMessage = state.received === 0;
    const take = Math.min(this.chunkSize, state.length - state.received);
    if (data.length < offset + take) return 0;

    // Only now, with the whole chunk here, does the state change.
    state.extended = extended;
    if (startsMessage) {
      if (format === 0) state.timestamp = stamp;
      else {
        if (format <= 2) state.delta = stamp;
        state.timestamp = (state.timestamp + state.delta) >>> 0;
      }
    }
    state.parts.push(data.subarray(offset, offset + take));
    state.received += take;
    this.streams.set(chunkStreamId, state);
    if (state.received >= state.length) {
      const payload = Buffer.concat(state.parts);
      state.parts = [];
      state.received = 0;
      messages.push({ type: state.type, streamId: state.streamId, timestamp: state.timestamp, payload });
      if (state.type === MessageType.setChunkSize && payload.length >= 4) {
        // Applies to the very next chunk.
        const size = payload.readUInt32BE(0) & 0x7fffffff;
        if (size < 1) throw new Error('the peer set a chunk size of 0');
        this.chunkSize = size;
      }
    }
    return offset + take;
  }
}
