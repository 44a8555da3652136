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
  /** The message being reassembled: allocated at its first chunk, each chunk copied in. */
  payload: Buffer | undefined;
  received: number;
}

/** The chunk whose payload is arriving: how much of it is still to come. */
interface ChunkInProgress {
  state: ChunkStreamState;
  remaining: number;
}

const MESSAGE_HEADER_SIZES = [11, 7, 3, 0];
const EMPTY = Buffer.alloc(0);

/** What a ChunkReader holds: bytes, Buffers, and messages begun and not finished. */
export interface ChunkReaderHeld {
  /** Bytes not parsed yet (at most a chunk header) and the buffers of unfinished messages. */
  bytes: number;
  buffers: number;
  messages: number;
}

/**
 * Reassembles messages from a peer's chunks, fed in whatever pieces the socket delivers. Each
 * message gets one buffer of its length when its first chunk header arrives; chunk payloads are
 * copied into it as they arrive, so what waits between two push() calls is at most a chunk
 * header's few bytes (never a chunk, nor a Buffer per chunk). Subclasses limit what a peer may
 * make it hold through the admit…() hooks, which throw to refuse.
 */
export class ChunkReader {
  /** The peer's chunk size (its Set Chunk Size messages change it). */
  chunkSize = DEFAULT_CHUNK_SIZE;
  private pending: Buffer = EMPTY;
  private readonly streams = new Map<number, ChunkStreamState>();
  private chunk: ChunkInProgress | undefined;
  /** Bytes allocated for messages begun and not finished, and how many they are. */
  private partialBytes = 0;
  private partialMessages = 0;

  /** What this reader holds now. */
  get buffered(): ChunkReaderHeld {
    return {
      bytes: this.pending.length + this.partialBytes,
      buffers: this.partialMessages + (this.pending.length ? 1 : 0),
      messages: this.partialMessages,
    };
  }

  /** The messages completed by these bytes. Throws on a chunk that makes no sense. */
  push(bytes: Buffer): RtmpMessage[] {
    // What waits is less than a chunk header (18 bytes): each byte is joined to it once at most,
    // and every chunk after is read in place, so many tiny chunks in one read cost no copies.
    const data = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    this.pending = EMPTY;
    const messages: RtmpMessage[] = [];
    let offset = 0;
    for (;;) {
      const chunk = this.chunk;
      if (chunk) {
        const take = Math.min(chunk.remaining, data.length - offset);
        const { state } = chunk;
        if (take > 0) data.copy(state.payload as Buffer, state.received, offset, offset + take);
        offset += take;
        state.received += take;
        chunk.remaining -= take;
        if (chunk.remaining > 0) break;
        this.chunk = undefined;
        if (state.received >= state.length) this.complete(state, messages);
        continue;
      }
      const headerSize = this.readHeader(data, offset);
      if (headerSize === 0) break;
      offset += headerSize;
    }
    // A partial header: copied, so that the socket's buffer is not kept alive by it.
    if (offset < data.length) this.pending = Buffer.from(data.subarray(offset));
    return messages;
  }

  /** A chunk stream seen for the first time; `streams` are those in use before it. */
  protected admitChunkStream(_streams: number): void {}

  /** A message of `length` bytes begins (before its buffer is allocated). */
  protected admitMessage(_length: number): void {}

  /** The peer's Set Chunk Size. */
  protected admitChunkSize(size: number): void {
    if (size < 1) throw new Error('the peer set a chunk size of 0');
  }

  /**
   * Reads the chunk header at `offset`: how many bytes it took (0 when it is not all here), the
   * chunk it begins set up to receive its payload.
   */
  private readHeader(data: Buffer, start: number): number {
    const available = data.length - start;
    if (available < 1) return 0;
    const first = data[start] as number;
    const format = first >> 6;
    let chunkStreamId = first & 0x3f;
    let offset = start + 1;
    if (chunkStreamId === 0) {
      if (available < 2) return 0;
      chunkStreamId = 64 + (data[start + 1] as number);
      offset += 1;
    } else if (chunkStreamId === 1) {
      if (available < 3) return 0;
      chunkStreamId = 64 + (data[start + 1] as number) + (data[start + 2] as number) * 256;
      offset += 2;
    }
    const headerSize = MESSAGE_HEADER_SIZES[format] as number;
    if (data.length < offset + headerSize) return 0;
    const previous = this.streams.get(chunkStreamId);
    const extended = format <= 2 ? data.readUIntBE(offset, 3) === EXTENDED : (previous?.extended ?? false);
    if (data.length < offset + headerSize + (extended ? 4 : 0)) return 0;

    // The whole header is here: checked, then applied.
    if (!previous) {
      if (format !== 0) throw new Error(`chunk stream ${chunkStreamId} starts without a full header`);
      this.admitChunkStream(this.streams.size);
    }
    const state: ChunkStreamState = previous ?? {
      timestamp: 0,
      delta: 0,
      length: 0,
      type: 0,
      streamId: 0,
      extended: false,
      payload: undefined,
      received: 0,
    };
    const startsMessage = state.received === 0;
    if (format !== 3 && !startsMessage)
      throw new Error(`chunk stream ${chunkStreamId} starts a message inside another`);
    let stamp = format <= 2 ? data.readUIntBE(offset, 3) : 0;
    const length = format <= 1 ? data.readUIntBE(offset + 3, 3) : state.length;
    if (startsMessage) this.admitMessage(length);
    if (format <= 1) {
      state.length = length;
      state.type = data.readUInt8(offset + 6);
    }
    if (format === 0) state.streamId = data.readUInt32LE(offset + 7);
    offset += headerSize;
    if (extended) {
      stamp = data.readUInt32BE(offset);
      offset += 4;
    }
    state.extended = extended;
    if (!previous) this.streams.set(chunkStreamId, state);
    if (startsMessage) {
      if (format === 0) state.timestamp = stamp;
      else {
        if (format <= 2) state.delta = stamp;
        state.timestamp = (state.timestamp + state.delta) >>> 0;
      }
      state.payload = Buffer.allocUnsafe(state.length);
      this.partialBytes += state.length;
      this.partialMessages += 1;
    }
    this.chunk = { state, remaining: Math.min(this.chunkSize, state.length - state.received) };
    return offset - start;
  }

  private complete(state: ChunkStreamState, messages: RtmpMessage[]): void {
    const payload = state.payload as Buffer;
    state.payload = undefined;
    state.received = 0;
    this.partialBytes -= payload.length;
    this.partialMessages -= 1;
    messages.push({ type: state.type, streamId: state.streamId, timestamp: state.timestamp, payload });
    if (state.type === MessageType.setChunkSize && payload.length >= 4) {
      // Applies to the very next chunk.
      const size = payload.readUInt32BE(0) & 0x7fffffff;
      this.admitChunkSize(size);
      this.chunkSize = size;
    }
  }
}
