/**
 * An incremental reader of fragmented MP4 (CMAF) as ffmpeg or Safari's MediaRecorder write it:
 * the init segment (everything up to and including `moov`), then fragments (`moof` + `mdat`, with
 * any `styp`/`prft`/`free` before them). It reads just enough to relay a live stream: whether a
 * fragment starts with a video sync sample, how long it plays (for the HLS parts cut from it:
 * pipeline/segmenter.ts), and the RFC 6381 codecs string for MediaSource.
 * Bytes pass through unchanged, in order, each in exactly one event (except a closing `mfra`).
 */

export type Fmp4Event =
  | { kind: 'init'; bytes: Buffer; codecs: string[] }
  /**
   * A `moof` and its `mdat`; `keyframe` when its video track's first sample is a sync sample.
   * `seconds`: how long its samples of the stream's clock track (video, else audio) play; 0 when
   * it has none of them (an audio fragment of a stream with video).
   */
  | { kind: 'fragment'; bytes: Buffer; keyframe: boolean; seconds: number };

export class Fmp4Error extends Error {}

/** A top-level box larger than this is not live media (a fragment is a few hundred kB at most). */
const MAX_BOX_BYTES = 32 * 1024 * 1024;
const INIT_BOXES = new Set(['ftyp', 'moov', 'free', 'skip', 'uuid', 'pdin']);
const FRAGMENT_PREFIX_BOXES = new Set(['styp', 'prft', 'free', 'skip', 'sidx', 'emsg', 'uuid']);

export interface Box {
  type: string;
  /** Where the payload starts and the box ends, in the buffer given. */
  start: number;
  end: number;
}

/** The boxes in `buffer` from `offset` to `end` (a box's payload); throws on a malformed size. */
export function* boxes(buffer: Buffer, offset: number, end: number): Generator<Box> {
  while (offset + 8 <= end) {
    let size = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) throw new Fmp4Error('truncated box header');
      size = Number(buffer.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) throw new Fmp4Error(`bad size of box ${JSON.stringify(type)}`);
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

function child(buffer: Buffer, parent: Box, type: string): Box | undefined {
  for (const box of boxes(buffer, parent.start, parent.end)) if (box.type === type) return box;
  return undefined;
}

function children(buffer: Buffer, parent: Box, type: string): Box[] {
  return [...boxes(buffer, parent.start, parent.end)].filter((box) => box.type === type);
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();

interface TrackInfo {
  id: number;
  handler: string;
  codec: string | undefined;
  /** trex's default sample flags, used when a fragment gives none. */
  defaultFlags: number;
  /** trex's default sample duration, used when a fragment gives none. */
  defaultDuration: number;
  /** mdhd's ticks per second (1 when unreadable). */
  timescale: number;
}

/** The tracks of a `moov`: id, handler (`vide`/`soun`) and codec string. */
function readTracks(buffer: Buffer, moov: Box): TrackInfo[] {
  const defaults = new Map<number, { flags: number; duration: number }>();
  const mvex = child(buffer, moov, 'mvex');
  if (mvex) {
    for (const trex of children(buffer, mvex, 'trex')) {
      if (trex.end - trex.start >= 24)
        defaults.set(buffer.readUInt32BE(trex.start + 4), {
          duration: buffer.readUInt32BE(trex.start + 12),
          flags: buffer.readUInt32BE(trex.start + 20),
        });
    }
  }
  const tracks: TrackInfo[] = [];
  for (const trak of children(buffer, moov, 'trak')) {
    const tkhd = child(buffer, trak, 'tkhd');
    const mdia = child(buffer, trak, 'mdia');
    if (!tkhd || !mdia) continue;
    const version = buffer[tkhd.start];
    const id = buffer.readUInt32BE(tkhd.start + (version === 1 ? 20 : 12));
    const hdlr = child(buffer, mdia, 'hdlr');
    const handler = hdlr ? buffer.toString('latin1', hdlr.start + 8, hdlr.start + 12) : '';
    const stsd = [child(buffer, mdia, 'minf')]
      .map((minf) => minf && child(buffer, minf, 'stbl'))
      .map((stbl) => stbl && child(buffer, stbl, 'stsd'))[0];
    let codec: string | undefined;
    if (stsd) {
      const [entry] = boxes(buffer, stsd.start + 8, stsd.end);
      if (entry?.type === 'avc1' || entry?.type === 'avc3') {
        // Sample entry (8) + visual sample entry (70), then avcC among the child boxes.
        const avcC = [...boxes(buffer, entry.start + 78, entry.end)].find((box) => box.type === 'avcC');
        codec = avcC
          ? `${entry.type}.${hex2(buffer[avcC.start + 1] ?? 0)}${hex2(buffer[avcC.start + 2] ?? 0)}${hex2(buffer[avcC.start + 3] ?? 0)}`
          : entry.type;
      } else if (entry?.type === 'mp4a') {
        codec = 'mp4a.40.2';
      } else if (entry) {
        codec = entry.type;
      }
    }
    const mdhd = child(buffer, mdia, 'mdhd');
    const timescale = mdhd ? buffer.readUInt32BE(mdhd.start + (buffer[mdhd.start] === 1 ? 20 : 12)) : 1;
    const trex = defaults.get(id);
    tracks.push({
      id,
      handler,
      codec,
      defaultFlags: trex?.flags ?? 0,
      defaultDuration: trex?.duration ?? 0,
      timescale: timescale || 1,
    });
  }
  return tracks;
}

const NON_SYNC = 0x10000;

/** The moof's track fragments of `track`, each with its sample defaults (tfhd's, else trex's). */
function* trackFragments(buffer: Buffer, moof: Box, track: TrackInfo) {
  for (const traf of children(buffer, moof, 'traf')) {
    const tfhd = child(buffer, traf, 'tfhd');
    if (!tfhd || buffer.readUInt32BE(tfhd.start + 4) !== track.id) continue;
    const tfhdFlags = buffer.readUInt32BE(tfhd.start) & 0xffffff;
    let at = tfhd.start + 8;
    if (tfhdFlags & 0x1) at += 8; // base data offset
    if (tfhdFlags & 0x2) at += 4; // sample description index
    const defaultDuration = tfhdFlags & 0x8 ? buffer.readUInt32BE(at) : track.defaultDuration;
    if (tfhdFlags & 0x8) at += 4;
    if (tfhdFlags & 0x10) at += 4; // default size
    const defaultFlags = tfhdFlags & 0x20 ? buffer.readUInt32BE(at) : track.defaultFlags;
    yield { traf, defaultDuration, defaultFlags };
  }
}

/** Whether the moof's first sample of `track` is a sync sample; undefined when it has none. */
function firstSampleIsSync(buffer: Buffer, moof: Box, track: TrackInfo): boolean | undefined {
  for (const { traf, defaultFlags } of trackFragments(buffer, moof, track)) {
    let flags = defaultFlags;
    const trun = child(buffer, traf, 'trun');
    if (!trun) return undefined;
    const trunFlags = buffer.readUInt32BE(trun.start) & 0xffffff;
    if (buffer.readUInt32BE(trun.start + 4) === 0) return undefined;
    let sample = trun.start + 8;
    if (trunFlags & 0x1) sample += 4; // data offset
    if (trunFlags & 0x4) {
      flags = buffer.readUInt32BE(sample);
    } else if (trunFlags & 0x400) {
      if (trunFlags & 0x100) sample += 4;
      if (trunFlags & 0x200) sample += 4;
      flags = buffer.readUInt32BE(sample);
    }
    return (flags & NON_SYNC) === 0;
  }
  return undefined;
}

/** How long the moof's samples of `track` play, in seconds (0 when it has none). */
function trackSeconds(buffer: Buffer, moof: Box, track: TrackInfo): number {
  let ticks = 0;
  for (const { traf, defaultDuration } of trackFragments(buffer, moof, track)) {
    for (const trun of children(buffer, traf, 'trun')) {
      const flags = buffer.readUInt32BE(trun.start) & 0xffffff;
      const count = buffer.readUInt32BE(trun.start + 4);
      let sample = trun.start + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      if (!(flags & 0x100)) {
        ticks += count * defaultDuration;
        continue;
      }
      const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length;
      for (let index = 0; index < count && sample + 4 <= trun.end; index += 1, sample += stride) {
        ticks += buffer.readUInt32BE(sample);
      }
    }
  }
  return ticks / track.timescale;
}

export class Fmp4Reader {
  private buffered: Buffer = Buffer.alloc(0);
  private init: Buffer[] = [];
  private prefix: Buffer[] = [];
  private moof: Buffer | undefined;
  private tracks: TrackInfo[] | undefined;

  /** Throws Fmp4Error when the bytes are not fragmented MP4. */
  push(chunk: Buffer): Fmp4Event[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const events: Fmp4Event[] = [];
    let offset = 0;
    while (this.buffered.length - offset >= 8) {
      let size = this.buffered.readUInt32BE(offset);
      const type = this.buffered.toString('latin1', offset + 4, offset + 8);
      if (!/^[a-zA-Z0-9 ©]{4}$/.test(type)) throw new Fmp4Error('not an MP4 box');
      if (size === 1) {
        if (this.buffered.length - offset < 16) break;
        size = Number(this.buffered.readBigUInt64BE(offset + 8));
      }
      if (size < 8 || size > MAX_BOX_BYTES) throw new Fmp4Error(`bad size of box ${JSON.stringify(type)}`);
      if (this.buffered.length - offset < size) break;
      const bytes = this.buffered.subarray(offset, offset + size);
      offset += size;
      const event = this.take(type, bytes);
      if (event) events.push(event);
    }
    this.buffered = offset ? Buffer.from(this.buffered.subarray(offset)) : this.buffered;
    return events;
  }

  private take(type: string, bytes: Buffer): Fmp4Event | undefined {
    if (!this.tracks) {
      if (!INIT_BOXES.has(type)) throw new Fmp4Error(`unexpected box ${JSON.stringify(type)} before moov`);
      this.init.push(bytes);
      if (type !== 'moov') return undefined;
      this.tracks = readTracks(bytes, { type, start: 8, end: bytes.length });
      const init = Buffer.concat(this.init);
      this.init = [];
      return { kind: 'init', bytes: init, codecs: this.tracks.flatMap((t) => (t.codec ? [t.codec] : [])) };
    }
    if (type === 'moof') {
      this.moof = bytes;
      return undefined;
    }
    if (type === 'mdat' && this.moof) {
      const moof = this.moof;
      this.moof = undefined;
      const video = this.tracks.find((track) => track.handler === 'vide');
      const box = { type: 'moof', start: 8, end: moof.length };
      const sync = video ? firstSampleIsSync(moof, box, video) : true;
      const clock = video ?? this.tracks.find((track) => track.handler === 'soun');
      const seconds = clock ? trackSeconds(moof, box, clock) : 0;
      const all = Buffer.concat([...this.prefix.splice(0), moof, bytes]);
      return { kind: 'fragment', bytes: all, keyframe: sync === true, seconds };
    }
    // The index ffmpeg writes when the stream ends: nothing a live reader needs.
    if (type === 'mfra') return undefined;
    if (FRAGMENT_PREFIX_BOXES.has(type)) {
      this.prefix.push(bytes);
      return undefined;
    }
    throw new Fmp4Error(`unexpected box ${JSON.stringify(type)}`);
  }
}
