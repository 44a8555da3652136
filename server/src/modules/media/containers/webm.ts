/**
 * An incremental WebM (EBML) reader for live MediaRecorder output: just enough structure to relay
 * a live stream. It finds the init segment (EBML header, Segment header, Info, Tracks: everything
 * before the first Cluster), the start of each Cluster (sizes are usually "unknown" in live
 * output), and for each SimpleBlock its track and keyframe flag. Bytes are passed through
 * unchanged, in order, each in exactly one event.
 */

export const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Cluster: 0x1f43b675,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  ReferenceBlock: 0xfb,
} as const;

/** Children of Segment: meeting one of these inside an unknown-size Cluster ends that Cluster. */
const SEGMENT_CHILDREN = new Set([
  0x114d9b74, // SeekHead
  0x1549a966, // Info
  0x1654ae6b, // Tracks
  0x1f43b675, // Cluster
  0x1c53bb6b, // Cues
  0x1941a469, // Attachments
  0x1043a770, // Chapters
  0x1254c367, // Tags
]);

export type WebmEvent =
  /** Everything before the first Cluster; videoTrack is the number of the video track, if any. */
  | { kind: 'init'; bytes: Buffer; videoTrack: number | undefined }
  | { kind: 'cluster'; bytes: Buffer }
  | { kind: 'block'; bytes: Buffer; track: number; keyframe: boolean }
  /** Any other element inside a Cluster (Timecode, ...) or after the init (Cues, Tags, ...). */
  | { kind: 'other'; bytes: Buffer };

export class WebmError extends Error {}

interface Header {
  id: number;
  /** undefined: unknown size. */
  size: number | undefined;
  headerLength: number;
}

/** Reads an element ID (marker bits kept) and size at `offset`; undefined if more bytes are needed. */
export function readHeader(buffer: Buffer, offset: number): Header | undefined {
  if (offset >= buffer.length) return undefined;
  const first = buffer[offset] as number;
  const idLength = Math.clz32(first) - 23;
  if (idLength < 1 || idLength > 4) throw new WebmError(`invalid element id at ${offset}`);
  if (offset + idLength >= buffer.length) return undefined;
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + (buffer[offset + i] as number);
  const sizeFirst = buffer[offset + idLength] as number;
  const sizeLength = Math.clz32(sizeFirst) - 23;
  if (sizeLength < 1 || sizeLength > 8) throw new WebmError(`invalid element size at ${offset + idLength}`);
  if (offset + idLength + sizeLength > buffer.length) return undefined;
  let size = sizeFirst & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const byte = buffer[offset + idLength + i] as number;
    size = size * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { id, size: allOnes ? undefined : size, headerLength: idLength + sizeLength };
}

function readVint(buffer: Buffer, offset: number): { value: number; length: number } {
  const first = buffer[offset] as number;
  const length = Math.clz32(first) - 23;
  if (length < 1 || length > 8) throw new WebmError('invalid variable-length integer');
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + (buffer[offset + i] as number);
  return { value, length };
}

/** An EBML unsigned integer element's value (big-endian, any length). */
export function readUint(buffer: Buffer): number {
  let value = 0;
  for (const byte of buffer) value = value * 256 + byte;
  return value;
}

/** Finds the video track's number in a Tracks element's body. */
function videoTrackIn(tracks: Buffer): number | undefined {
  for (let offset = 0; offset < tracks.length; ) {
    const entry = readHeader(tracks, offset);
    if (!entry || entry.size === undefined) return undefined;
    const body = tracks.subarray(offset + entry.headerLength, offset + entry.headerLength + entry.size);
    if (entry.id === ID.TrackEntry) {
      let number: number | undefined;
      let type: number | undefined;
      for (let o = 0; o < body.length; ) {
        const child = readHeader(body, o);
        if (!child || child.size === undefined) break;
        const value = body.subarray(o + child.headerLength, o + child.headerLength + child.size);
        if (child.id === ID.TrackNumber) number = readUint(value);
        if (child.id === ID.TrackType) type = readUint(value);
        o += child.headerLength + child.size;
      }
      if (type === 1) return number;
    }
    offset += entry.headerLength + entry.size;
  }
  return undefined;
}

/** Largest element the reader buffers whole (a video frame is far smaller). */
const MAX_ELEMENT_BYTES = 16 * 1024 * 1024;

export class WebmReader {
  private buffer: Buffer = Buffer.alloc(0);
  private state: 'ebml' | 'segment' | 'top' | 'cluster' = 'ebml';
  private init: Buffer[] = [];
  private initDone = false;
  private videoTrack: number | undefined;
  /** Bytes left in a Cluster of known size; undefined for unknown size. */
  private clusterLeft: number | undefined;

  /** Feeds bytes; returns the events they complete. Throws WebmError on a malformed stream. */
  push(chunk: Buffer): WebmEvent[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const events: WebmEvent[] = [];
    let offset = 0;
    for (;;) {
      const header = readHeader(this.buffer, offset);
      if (!header) break;
      const start = offset;
      if (this.state === 'ebml') {
        if (header.id !== ID.EBML) throw new WebmError('stream does not start with an EBML header');
        if (header.size === undefined) throw new WebmError('EBML header of unknown size');
        const end = start + header.headerLength + header.size;
        if (end > this.buffer.length) break;
        this.init.push(this.buffer.subarray(start, end));
        this.state = 'segment';
        offset = end;
        continue;
      }
      if (this.state === 'segment') {
        if (header.id !== ID.Segment) throw new WebmError('expected a Segment');
        this.init.push(this.buffer.subarray(start, start + header.headerLength));
        this.state = 'top';
        offset = start + header.headerLength;
        continue;
      }
      if (this.state === 'cluster') {
        const endsCluster =
          (this.clusterLeft === undefined && SEGMENT_CHILDREN.has(header.id)) || this.clusterLeft === 0;
        if (endsCluster) {
          this.state = 'top';
          continue;
        }
      }
      if (this.state === 'top' && header.id === ID.Cluster) {
        if (!this.initDone) {
          this.initDone = true;
          events.push({ kind: 'init', bytes: Buffer.concat(this.init), videoTrack: this.videoTrack });
          this.init = [];
        }
        events.push({
          kind: 'cluster',
          bytes: Buffer.from(this.buffer.subarray(start, start + header.headerLength)),
        });
        this.clusterLeft = header.size;
        this.state = 'cluster';
        offset = start + header.headerLength;
        continue;
      }
      // A whole element: a child of the Cluster, or of the Segment (Info, Tracks, Cues, ...).
      if (header.size === undefined)
        throw new WebmError(`element 0x${header.id.toString(16)} of unknown size`);
      if (header.size > MAX_ELEMENT_BYTES) throw new WebmError('element too large');
      const end = start + header.headerLength + header.size;
      if (end > this.buffer.length) break;
      const bytes = Buffer.from(this.buffer.subarray(start, end));
      offset = end;
      if (this.state === 'cluster') {
        if (this.clusterLeft !== undefined) this.clusterLeft -= bytes.length;
        if (header.id === ID.SimpleBlock) {
          const body = bytes.subarray(header.headerLength);
          const track = readVint(body, 0);
          const flags = body[track.length + 2] ?? 0;
          events.push({ kind: 'block', bytes, track: track.value, keyframe: (flags & 0x80) !== 0 });
        } else {
          events.push({ kind: 'other', bytes });
        }
      } else if (!this.initDone) {
        if (header.id === ID.Tracks) this.videoTrack = videoTrackIn(bytes.subarray(header.headerLength));
        this.init.push(bytes);
      } else {
        events.push({ kind: 'other', bytes });
      }
    }
    this.buffer = offset < this.buffer.length ? Buffer.from(this.buffer.subarray(offset)) : Buffer.alloc(0);
    if (this.buffer.length > MAX_ELEMENT_BYTES + 64) throw new WebmError('element too large');
    return events;
  }
}
