import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Fmp4Event } from '../containers/fmp4.ts';

/** The longest a part plays (#EXT-X-PART-INF:PART-TARGET); parts are cut at fragment boundaries below it. */
export const PART_TARGET_SEC = 0.3;
/** A segment ends at the first video keyframe after it has played this long (ffmpeg's hls_time). */
export const SEGMENT_MIN_SEC = 0.9;

/** A finished part: the fragments of up to PART_TARGET_SEC, in order. */
export interface CutPart {
  kind: 'part';
  /** The segment it belongs to, counted from 0 in this run. */
  segment: number;
  /** Its place in that segment, from 0. */
  index: number;
  /** The run's file name (`seg-00003-p2.m4s`). */
  name: string;
  seconds: number;
  /** It starts with a video keyframe (INDEPENDENT=YES). */
  independent: boolean;
  bytes: Buffer;
}

/** A finished segment: its parts joined, written to the run's folder as `name`. */
export interface CutSegment {
  kind: 'segment';
  segment: number;
  name: string;
  seconds: number;
}

export type Cut = CutPart | CutSegment | { kind: 'init'; bytes: Buffer };

export const segmentName = (segment: number) => `seg-${String(segment).padStart(5, '0')}.m4s`;
export const partName = (segment: number, index: number) =>
  `seg-${String(segment).padStart(5, '0')}-p${index}.m4s`;

/** Writes `bytes` whole or not at all (a reader never sees half a file). */
function writeWhole(file: string, bytes: Buffer | string) {
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}

/**
 * Cuts a run's fragmented MP4 (ffmpeg's live output: a fragment per packet) into low-latency HLS
 * parts and segments (ADR 0024). A part is whole fragments playing at most PART_TARGET_SEC; a
 * segment is the parts from one video keyframe to the first keyframe at least SEGMENT_MIN_SEC
 * later, so it is byte for byte its parts joined. Into `dir` it writes what ffmpeg's hls muxer
 * wrote there before: `init.mp4`, each finished segment, and `index.m3u8` listing them (the
 * recorder moves them to storage); each part and segment is also handed to `onCut` at once.
 */
export class Segmenter {
  private segment = 0;
  private segmentSeconds = 0;
  private parts = 0;
  private partFragments: Buffer[] = [];
  private partSeconds = 0;
  private partIndependent = false;
  private segmentBytes: Buffer[] = [];
  private readonly finished: { name: string; seconds: number }[] = [];
  private ended = false;

  constructor(
    private readonly dir: string,
    private readonly onCut: (cut: Cut) => void = () => {},
  ) {}

  push(event: Fmp4Event): void {
    if (this.ended) return;
    if (event.kind === 'init') {
      writeWhole(path.join(this.dir, 'init.mp4'), event.bytes);
      this.onCut({ kind: 'init', bytes: event.bytes });
      return;
    }
    const hasMedia = this.parts > 0 || this.partFragments.length > 0;
    if (event.keyframe && hasMedia && this.segmentSeconds + this.partSeconds >= SEGMENT_MIN_SEC) {
      this.closePart();
      this.closeSegment();
    }
    if (this.partFragments.length > 0 && this.partSeconds + event.seconds > PART_TARGET_SEC + 1e-6) {
      this.closePart();
    }
    if (this.partFragments.length === 0) this.partIndependent = event.keyframe;
    this.partFragments.push(event.bytes);
    this.partSeconds += event.seconds;
  }

  /** The run's output ended: the last part and segment are finished and the playlist closed. */
  end(): void {
    if (this.ended) return;
    this.closePart();
    this.closeSegment();
    this.ended = true;
    this.writePlaylist();
  }

  private closePart() {
    if (this.partFragments.length === 0) return;
    const bytes = Buffer.concat(this.partFragments);
    this.segmentBytes.push(bytes);
    this.onCut({
      kind: 'part',
      segment: this.segment,
      index: this.parts,
      name: partName(this.segment, this.parts),
      seconds: this.partSeconds,
      independent: this.partIndependent,
      bytes,
    });
    this.segmentSeconds += this.partSeconds;
    this.parts += 1;
    this.partFragments = [];
    this.partSeconds = 0;
  }

  private closeSegment() {
    if (this.parts === 0) return;
    const name = segmentName(this.segment);
    writeWhole(path.join(this.dir, name), Buffer.concat(this.segmentBytes));
    this.finished.push({ name, seconds: this.segmentSeconds });
    this.writePlaylist();
    this.onCut({ kind: 'segment', segment: this.segment, name, seconds: this.segmentSeconds });
    this.segment += 1;
    this.segmentSeconds = 0;
    this.parts = 0;
    this.segmentBytes = [];
  }

  private writePlaylist() {
    const target = Math.max(1, ...this.finished.map((segment) => Math.ceil(segment.seconds)));
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      `#EXT-X-TARGETDURATION:${target}`,
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:EVENT',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MAP:URI="init.mp4"',
      ...this.finished.flatMap((segment) => [`#EXTINF:${segment.seconds.toFixed(6)},`, segment.name]),
      ...(this.ended ? ['#EXT-X-ENDLIST'] : []),
    ];
    writeWhole(path.join(this.dir, 'index.m3u8'), `${lines.join('\n')}\n`);
  }
}
