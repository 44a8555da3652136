import { ChunkReader, type RtmpMessage } from './chunks.ts';

/**
 * ChunkReader with limits, for bytes from anyone on the internet: it reads each chunk's header
 * before the chunk's payload has arrived, refuses a message longer than `maxMessageBytes` as soon
 * as its header says so, and caps what partial messages may hold in memory and how many chunk
 * streams a peer may use. Whole chunks are then handed to ChunkReader, which reassembles them
 * (so its chunk size, changed by the peer's Set Chunk Size, is always the one in force).
 */

export class RtmpLimitError extends Error {
  override name = 'RtmpLimitError';
}

export interface ChunkLimits {
  /** The longest message accepted (the header's length field allows 16 MB). */
  maxMessageBytes: number;
  /** Chunk streams in use at once (publishers use about five). */
  maxChunkStreams: number;
}

interface StreamState {
  length: number;
  received: number;
  extended: boolean;
}

const EXTENDED = 0xffffff;
const MESSAGE_HEADER_SIZES = [11, 7, 3, 0];
/** Room for audio and data messages begun while the longest video message is arriving. */
const INTERLEAVED_SLACK = 64 * 1024;

export class BoundedChunkReader {
  private readonly reader = new ChunkReader();
  private pending: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, StreamState>();
  /** Bytes of messages begun and not finished, over every chunk stream. */
  private partial = 0;

  constructor(private readonly limits: ChunkLimits) {}

  /** The peer's chunk size. */
  get chunkSize(): number {
    return this.reader.chunkSize;
  }

  /** The messages these bytes complete. Throws RtmpLimitError past a limit, Error on nonsense. */
  push(bytes: Buffer): RtmpMessage[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const messages: RtmpMessage[] = [];
    for (;;) {
      const size = this.nextChunk();
      if (size === 0) break;
      const chunk = this.pending.subarray(0, size);
      this.pending = this.pending.subarray(size);
      for (const message of this.reader.push(chunk)) messages.push(message);
    }
    return messages;
  }

  /** The size of the next chunk once it has all arrived (0 before), its limits checked. */
  private nextChunk(): number {
    const data = this.pending;
    if (data.length < 1) return 0;
    const first = data[0] as number;
    const format = first >> 6;
    let chunkStreamId = first & 0x3f;
    let offset = 1;
    if (chunkStreamId === 0) {
      if (data.length < 2) return 0;
      chunkStreamId = 64 + (data[1] as number);
      offset = 2;
    } else if (chunkStreamId === 1) {
      if (data.length < 3) return 0;
      chunkStreamId = 64 + (data[1] as number) + (data[2] as number) * 256;
      offset = 3;
    }
    const headerSize = MESSAGE_HEADER_SIZES[format] as number;
    if (data.length < offset + headerSize) return 0;
    let state = this.streams.get(chunkStreamId);
    if (!state) {
      if (format !== 0) throw new Error(`chunk stream ${chunkStreamId} starts without a full header`);
      if (this.streams.size >= this.limits.maxChunkStreams)
        throw new RtmpLimitError(`more than ${this.limits.maxChunkStreams} chunk streams`);
      state = { length: 0, received: 0, extended: false };
      this.streams.set(chunkStreamId, state);
    }
    if (format !== 3 && state.received > 0)
      throw new Error(`chunk stream ${chunkStreamId} starts a message inside another`);
    let length = state.length;
    if (format <= 1) {
      length = data.readUIntBE(offset + 3, 3);
      if (length > this.limits.maxMessageBytes)
        throw new RtmpLimitError(
          `a message of ${length} bytes (the limit is ${this.limits.maxMessageBytes})`,
        );
    }
    const extended = format <= 2 ? data.readUIntBE(offset, 3) === EXTENDED : state.extended;
    offset += headerSize + (extended ? 4 : 0);
    const take = Math.min(this.reader.chunkSize, length - state.received);
    if (data.length < offset + take) return 0;

    state.length = length;
    state.extended = extended;
    state.received += take;
    this.partial += take;
    if (state.received >= state.length) {
      this.partial -= state.received;
      state.received = 0;
    } else if (this.partial > this.limits.maxMessageBytes + INTERLEAVED_SLACK) {
      throw new RtmpLimitError(`partial messages hold over ${this.partial} bytes`);
    }
    return offset + take;
  }
}
