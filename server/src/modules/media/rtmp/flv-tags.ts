/**
 * FLV (Adobe's Video File Format specification, annex E) read as it streams in: the file header,
 * then tags of audio, video or script data, each one becoming one RTMP message of the same type.
 */
export interface FlvTag {
  /** 8 audio, 9 video, 18 script data. */
  type: number;
  /** Milliseconds. */
  timestamp: number;
  data: Buffer;
}

const TAG_HEADER = 11;
const PREVIOUS_TAG_SIZE = 4;

export class FlvTagReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;

  /** The tags completed by these bytes. Throws when the bytes are not FLV. */
  push(bytes: Buffer): FlvTag[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const tags: FlvTag[] = [];
    if (!this.headerRead) {
      if (this.pending.length < 9) return tags;
      if (this.pending.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV stream');
      const headerSize = this.pending.readUInt32BE(5);
      if (this.pending.length < headerSize + PREVIOUS_TAG_SIZE) return tags;
      this.pending = this.pending.subarray(headerSize + PREVIOUS_TAG_SIZE);
      this.headerRead = true;
    }
    while (this.pending.length >= TAG_HEADER) {
      const size = this.pending.readUIntBE(1, 3);
      const total = TAG_HEADER + size + PREVIOUS_TAG_SIZE;
      if (this.pending.length < total) break;
      const timestamp = (this.pending.readUIntBE(4, 3) | (this.pending.readUInt8(7) << 24)) >>> 0;
      tags.push({
        type: this.pending.readUInt8(0) & 0x1f, // the upper bits mark filtered (encrypted) tags
        timestamp,
        data: this.pending.subarray(TAG_HEADER, TAG_HEADER + size),
      });
      this.pending = this.pending.subarray(total);
    }
    return tags;
  }
}
