/**
 * FLV (Adobe's Video File Format specification, version 10.1, annex E) as a byte stream: the
 * file header, then tags (audio, video or script data), each followed by the size of the tag it
 * ends (its "previous tag size"). Read here strictly enough to refuse bytes that are not FLV,
 * and written here for what an RTMP publisher sends (the same tags, one per RTMP message).
 */

export class FlvError extends Error {
  override name = 'FlvError';
}

export const FlvTagType = { audio: 8, video: 9, scriptData: 18 } as const;

/** The header's flags. */
export const FLV_HAS_AUDIO = 0x04;
export const FLV_HAS_VIDEO = 0x01;

const HEADER_SIZE = 9;
const TAG_HEADER_SIZE = 11;
const PREVIOUS_TAG_SIZE = 4;
/** No tag this large comes from an encoder (a 4K keyframe is a few MB): the stream is corrupt. */
const MAX_TAG_DATA = 8 * 1024 * 1024;

/** One tag's content, as an RTMP message carries it. */
export interface FlvTag {
  /** 8 audio, 9 video, 18 script data (FlvTagType). */
  type: number;
  /** Milliseconds (32 bits: the tag's 24 bits and its extended byte). */
  timestamp: number;
  data: Buffer;
}

export type FlvItem =
  /** The file header and the first previous tag size (always 0). */
  | { kind: 'header'; flags: number; bytes: Buffer }
  /** One tag, with its previous tag size: `bytes` is the tag as it was in the stream. */
  | ({ kind: 'tag'; bytes: Buffer } & FlvTag);

/** The FLV header (version 1) and the first previous tag size. */
export function encodeFlvHeader(flags: number): Buffer {
  const out = Buffer.alloc(HEADER_SIZE + PREVIOUS_TAG_SIZE);
  out.write('FLV', 0, 'latin1');
  out[3] = 1;
  out[4] = flags & (FLV_HAS_AUDIO | FLV_HAS_VIDEO);
  out.writeUInt32BE(HEADER_SIZE, 5);
  return out;
}

/** One tag and its previous tag size; `timestamp` in milliseconds (32 bits, as FLV splits them). */
export function encodeFlvTag(type: number, timestamp: number, data: Buffer): Buffer {
  const head = Buffer.alloc(TAG_HEADER_SIZE);
  const stamp = timestamp >>> 0;
  head[0] = type;
  head.writeUIntBE(data.length, 1, 3);
  head.writeUIntBE(stamp & 0xffffff, 4, 3);
  head[7] = stamp >>> 24;
  // Bytes 8..10: the stream id, always 0.
  const size = Buffer.alloc(PREVIOUS_TAG_SIZE);
  size.writeUInt32BE(TAG_HEADER_SIZE + data.length);
  return Buffer.concat([head, data, size]);
}

/** Reads an FLV stream as it arrives, in pieces of any size. */
export class FlvReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;

  /** The header and tags these bytes complete. Throws FlvError when the bytes are not FLV. */
  push(bytes: Buffer): FlvItem[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const items: FlvItem[] = [];
    if (!this.headerRead) {
      const header = this.readHeader();
      if (!header) return items;
      items.push(header);
    }
    for (;;) {
      const tag = this.readTag();
      if (!tag) return items;
      items.push(tag);
    }
  }

  private readHeader(): FlvItem | undefined {
    const data = this.pending;
    // Refuse at once what cannot become FLV, before a whole header is here.
    const signature = data.toString('latin1', 0, Math.min(3, data.length));
    if (!'FLV'.startsWith(signature)) throw new FlvError('the bytes are not FLV (no FLV signature)');
    if (data.length < HEADER_SIZE) return undefined;
    if (data[3] !== 1) throw new FlvError(`unknown FLV version ${data[3]}`);
    const headerSize = data.readUInt32BE(5);
    if (headerSize < HEADER_SIZE || headerSize > 1024) throw new FlvError('the FLV header size is wrong');
    const total = headerSize + PREVIOUS_TAG_SIZE;
    if (data.length < total) return undefined;
    const bytes = data.subarray(0, total);
    this.pending = data.subarray(total);
    this.headerRead = true;
    return { kind: 'header', flags: data[4] as number, bytes };
  }

  private readTag(): FlvItem | undefined {
    const data = this.pending;
    if (data.length < TAG_HEADER_SIZE) return undefined;
    const first = data[0] as number;
    const type = first & 0x1f;
    if (first & 0xc0 || (type !== 8 && type !== 9 && type !== 18))
      throw new FlvError(`not an FLV tag (type byte ${first})`);
    if (first & 0x20) throw new FlvError('encrypted FLV tags are not supported');
    const size = data.readUIntBE(1, 3);
    if (size > MAX_TAG_DATA) throw new FlvError(`an FLV tag of ${size} bytes is too large`);
    const total = TAG_HEADER_SIZE + size + PREVIOUS_TAG_SIZE;
    if (data.length < total) return undefined;
    const previous = data.readUInt32BE(TAG_HEADER_SIZE + size);
    if (previous !== TAG_HEADER_SIZE + size)
      throw new FlvError(`the FLV tag size ${previous} does not match its tag (${TAG_HEADER_SIZE + size})`);
    const timestamp = (data.readUIntBE(4, 3) | ((data[7] as number) << 24)) >>> 0;
    const bytes = data.subarray(0, total);
    this.pending = data.subarray(total);
    return {
      kind: 'tag',
      type,
      timestamp,
      data: bytes.subarray(TAG_HEADER_SIZE, TAG_HEADER_SIZE + size),
      bytes,
    };
  }
}

/** What a video tag's first bytes say (legacy FLV; enhanced RTMP sets the top bit). */
export interface VideoTagInfo {
  /** Enhanced RTMP (a FourCC codec: HEVC, AV1, VP9…), which this code does not read. */
  enhanced: boolean;
  /** 1 keyframe, 2 inter frame, 3 disposable, 4 generated keyframe, 5 video info/command. */
  frameType: number;
  /** 7 is AVC (H.264). */
  codecId: number;
  /** For AVC: 0 sequence header, 1 NAL units, 2 end of sequence. */
  avcPacketType: number | undefined;
}

export function videoTagInfo(data: Buffer): VideoTagInfo {
  const first = data[0] ?? 0;
  const codecId = first & 0x0f;
  return {
    enhanced: (first & 0x80) !== 0,
    frameType: (first >> 4) & 0x07,
    codecId,
    avcPacketType: codecId === 7 ? data[1] : undefined,
  };
}

/** An AAC sequence header (the AudioSpecificConfig), not a frame. */
export function isAacSequenceHeader(data: Buffer): boolean {
  return data.length >= 2 && (data[0] as number) >> 4 === 10 && data[1] === 0;
}

/** Whether an FLV init (header, script data, sequence headers) has AVC video. */
export function isFlvAvcInit(init: Buffer): boolean {
  if (init.toString('latin1', 0, 3) !== 'FLV') return false;
  try {
    return new FlvReader()
      .push(init)
      .some((item) => item.kind === 'tag' && item.type === FlvTagType.video && isLegacyAvc(item.data));
  } catch {
    return false;
  }
}

function isLegacyAvc(data: Buffer): boolean {
  const info = videoTagInfo(data);
  return !info.enhanced && info.codecId === 7;
}
