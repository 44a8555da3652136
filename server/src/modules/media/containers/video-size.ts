import { FlvReader, FlvTagType, videoTagInfo } from './flv.ts';
import { type Box, boxes } from './fmp4.ts';
import { ID, readHeader, readUint } from './webm.ts';

/**
 * The picture size a publisher's init segment declares (what the server holds against the
 * owner's plan): the Matroska Video element's PixelWidth/PixelHeight, the MP4 video track's
 * sample entry (or its `tkhd`), the FLV AVC sequence header's SPS (or onMetaData's width and
 * height). undefined when the init does not say (or cannot be read): callers let it through.
 */
export interface VideoSize {
  width: number;
  height: number;
}

export type InitKind = 'webm' | 'mp4' | 'flv';

export function videoSizeOf(init: Buffer, kind: InitKind): VideoSize | undefined {
  try {
    const size = kind === 'webm' ? webmSize(init) : kind === 'mp4' ? mp4Size(init) : flvSize(init);
    return size && size.width > 0 && size.height > 0 ? size : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- WebM

const WEBM_CONTAINERS = new Set<number>([ID.Segment, ID.Tracks, ID.TrackEntry, ID.Video]);

/** Walks into Segment, Tracks, TrackEntry and Video (skipping everything else) for the first video size. */
function webmSize(init: Buffer): VideoSize | undefined {
  let width: number | undefined;
  let height: number | undefined;
  for (let offset = 0; offset < init.length; ) {
    const header = readHeader(init, offset);
    if (!header) return undefined;
    const body = offset + header.headerLength;
    if (WEBM_CONTAINERS.has(header.id)) {
      offset = body;
      continue;
    }
    if (header.size === undefined || body + header.size > init.length) return undefined;
    if (header.id === ID.PixelWidth) width ??= readUint(init.subarray(body, body + header.size));
    if (header.id === ID.PixelHeight) height ??= readUint(init.subarray(body, body + header.size));
    if (width !== undefined && height !== undefined) return { width, height };
    offset = body + header.size;
  }
  return undefined;
}

// ---------------------------------------------------------------- MP4

function child(buffer: Buffer, parent: Box | undefined, type: string): Box | undefined {
  if (!parent) return undefined;
  for (const box of boxes(buffer, parent.start, parent.end)) if (box.type === type) return box;
  return undefined;
}

/** The first `vide` track's visual sample entry width/height (bytes 24-27 of its payload), else its tkhd's. */
function mp4Size(init: Buffer): VideoSize | undefined {
  const moov = [...boxes(init, 0, init.length)].find((box) => box.type === 'moov');
  if (!moov) return undefined;
  for (const trak of boxes(init, moov.start, moov.end)) {
    if (trak.type !== 'trak') continue;
    const mdia = child(init, trak, 'mdia');
    const hdlr = child(init, mdia, 'hdlr');
    if (!hdlr || init.toString('latin1', hdlr.start + 8, hdlr.start + 12) !== 'vide') continue;
    const stsd = child(init, child(init, child(init, mdia, 'minf'), 'stbl'), 'stsd');
    const [entry] = stsd ? boxes(init, stsd.start + 8, stsd.end) : [];
    if (entry && entry.end - entry.start >= 28) {
      const width = init.readUInt16BE(entry.start + 24);
      const height = init.readUInt16BE(entry.start + 26);
      if (width > 0 && height > 0) return { width, height };
    }
    const tkhd = child(init, trak, 'tkhd');
    if (tkhd && tkhd.end - tkhd.start >= 8) {
      // The last 8 bytes: width and height, 16.16 fixed point.
      return {
        width: init.readUInt32BE(tkhd.end - 8) >>> 16,
        height: init.readUInt32BE(tkhd.end - 4) >>> 16,
      };
    }
    return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- FLV

/** The AVC sequence header's SPS when there is one (what the decoder will show), else onMetaData. */
function flvSize(init: Buffer): VideoSize | undefined {
  let metadata: VideoSize | undefined;
  for (const item of new FlvReader().push(init)) {
    if (item.kind !== 'tag') continue;
    if (item.type === FlvTagType.video) {
      const info = videoTagInfo(item.data);
      if (!info.enhanced && info.codecId === 7 && info.avcPacketType === 0) {
        const size = avcConfigSize(item.data.subarray(5));
        if (size) return size;
      }
    } else if (item.type === FlvTagType.scriptData) {
      metadata ??= metadataSize(item.data);
    }
  }
  return metadata;
}

/** onMetaData's `width` and `height` (AMF0 numbers), found by their keys. */
function metadataSize(data: Buffer): VideoSize | undefined {
  const number = (key: string) => {
    const name = Buffer.concat([Buffer.of(0, key.length), Buffer.from(key, 'latin1')]);
    const at = data.indexOf(name);
    const value = at + name.length;
    if (at < 0 || data[value] !== 0 || value + 9 > data.length) return undefined;
    return Math.round(data.readDoubleBE(value + 1));
  };
  const width = number('width');
  const height = number('height');
  return width && height ? { width, height } : undefined;
}

/** An AVCDecoderConfigurationRecord's first SPS, read. */
function avcConfigSize(record: Buffer): VideoSize | undefined {
  if (record.length < 8 || ((record[5] as number) & 0x1f) === 0) return undefined;
  const length = record.readUInt16BE(6);
  if (8 + length > record.length) return undefined;
  return spsSize(record.subarray(8, 8 + length));
}

class Bits {
  private bit = 0;
  constructor(private readonly bytes: Buffer) {}
  u(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError('SPS ended early');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return value;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new RangeError('bad exp-Golomb code');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** The cropped picture size of an H.264 sequence parameter set (ITU-T H.264 7.3.2.1.1). */
function spsSize(nal: Buffer): VideoSize | undefined {
  // Without emulation prevention bytes (00 00 03 → 00 00).
  const rbsp: number[] = [];
  for (let i = 1; i < nal.length; i++) {
    if (i >= 3 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0 && rbsp.at(-1) === 0) continue;
    rbsp.push(nal[i] as number);
  }
  const bits = new Bits(Buffer.from(rbsp));
  const profile = bits.u(8);
  bits.u(16); // constraint flags, level
  bits.ue(); // seq_parameter_set_id
  let chroma = 1;
  if (HIGH_PROFILES.has(profile)) {
    chroma = bits.ue();
    if (chroma === 3) bits.u(1);
    bits.ue();
    bits.ue();
    bits.u(1);
    if (bits.u(1)) {
      for (let i = 0; i < (chroma === 3 ? 12 : 8); i++) {
        if (!bits.u(1)) continue;
        let last = 8;
        let next = 8;
        for (let j = 0; j < (i < 6 ? 16 : 64); j++) {
          if (next !== 0) next = (last + bits.se() + 256) % 256;
          last = next === 0 ? last : next;
        }
      }
    }
  }
  bits.ue(); // log2_max_frame_num_minus4
  const pocType = bits.ue();
  if (pocType === 0) bits.ue();
  else if (pocType === 1) {
    bits.u(1);
    bits.se();
    bits.se();
    const cycle = bits.ue();
    for (let i = 0; i < cycle; i++) bits.se();
  }
  bits.ue(); // max_num_ref_frames
  bits.u(1);
  const widthMbs = bits.ue() + 1;
  const heightUnits = bits.ue() + 1;
  const frameMbsOnly = bits.u(1);
  if (!frameMbsOnly) bits.u(1);
  bits.u(1);
  let [left, right, top, bottom] = [0, 0, 0, 0];
  if (bits.u(1)) [left, right, top, bottom] = [bits.ue(), bits.ue(), bits.ue(), bits.ue()];
  const cropX = chroma === 1 || chroma === 2 ? 2 : 1;
  const cropY = (chroma === 1 ? 2 : 1) * (2 - frameMbsOnly);
  return {
    width: widthMbs * 16 - cropX * (left + right),
    height: (2 - frameMbsOnly) * heightUnits * 16 - cropY * (top + bottom),
  };
}
