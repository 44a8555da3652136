import { ChunkReader } from '../../rtmp-protocol/chunks.ts';

/**
 * ChunkReader with limits, for bytes from anyone on the internet. ChunkReader allocates each
 * message's buffer when its first chunk header arrives, so the limits are checked there, before
 * anything is allocated: a message longer than `maxMessageBytes` is refused from its header, and
 * so is one that would take the buffers of unfinished messages past `maxBufferedBytes` or their
 * count past `maxMessagesInFlight`; a peer may use `maxChunkStreams` chunk streams, and may not
 * set a chunk size under `minChunkSize` (with 1-byte chunks, every payload byte costs a header
 * and a turn of the parser). What waits unparsed between reads is at most a chunk header.
 */

export class RtmpLimitError extends Error {
  override name = 'RtmpLimitError';
}

export interface ChunkLimits {
  /** The longest message accepted (the header's length field allows 16 MB). */
  maxMessageBytes: number;
  /** Chunk streams in use at once (publishers use about five). */
  maxChunkStreams: number;
  /** Messages begun and not finished, over every chunk stream. Default 16. */
  maxMessagesInFlight?: number;
  /**
   * Bytes the buffers of unfinished messages may take, with what waits unparsed. Default
   * `maxMessageBytes` and 64 KB: the longest video message while audio and data interleave.
   */
  maxBufferedBytes?: number;
  /** The least chunk size a peer may set. Default 128 (RTMP's own default; no encoder goes below). */
  minChunkSize?: number;
}

export const DEFAULT_MAX_MESSAGES_IN_FLIGHT = 16;
export const DEFAULT_MIN_CHUNK_SIZE = 128;
/** Room for audio and data messages begun while the longest video message is arriving. */
const INTERLEAVED_SLACK = 64 * 1024;

export class BoundedChunkReader extends ChunkReader {
  private readonly limits: Required<ChunkLimits>;

  constructor(limits: ChunkLimits) {
    super();
    this.limits = {
      maxMessageBytes: limits.maxMessageBytes,
      maxChunkStreams: limits.maxChunkStreams,
      maxMessagesInFlight: limits.maxMessagesInFlight ?? DEFAULT_MAX_MESSAGES_IN_FLIGHT,
      maxBufferedBytes: limits.maxBufferedBytes ?? limits.maxMessageBytes + INTERLEAVED_SLACK,
      minChunkSize: limits.minChunkSize ?? DEFAULT_MIN_CHUNK_SIZE,
    };
  }

  protected override admitChunkStream(streams: number): void {
    if (streams >= this.limits.maxChunkStreams)
      throw new RtmpLimitError(`more than ${this.limits.maxChunkStreams} chunk streams`);
  }

  protected override admitMessage(length: number): void {
    const { maxMessageBytes, maxMessagesInFlight, maxBufferedBytes } = this.limits;
    if (length > maxMessageBytes)
      throw new RtmpLimitError(`a message of ${length} bytes (the limit is ${maxMessageBytes})`);
    const held = this.buffered;
    if (held.messages >= maxMessagesInFlight)
      throw new RtmpLimitError(`more than ${maxMessagesInFlight} messages in flight`);
    if (held.bytes + length > maxBufferedBytes)
      throw new RtmpLimitError(
        `partial messages would hold ${held.bytes + length} bytes (the limit is ${maxBufferedBytes})`,
      );
  }

  protected override admitChunkSize(size: number): void {
    if (size < this.limits.minChunkSize)
      throw new RtmpLimitError(`a chunk size of ${size} (the least is ${this.limits.minChunkSize})`);
  }
}
