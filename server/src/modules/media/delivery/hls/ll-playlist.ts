import type { Segment } from '../../pipeline/playlist.ts';
import { PART_TARGET_SEC } from '../../pipeline/segmenter.ts';

/**
 * The low-latency live playlist (ADR 0024) as data: what the publisher's instance knows of the
 * live edge, sent to the other instances over the bus, and rendered on request by any of them.
 */
export interface EdgePart {
  uri: string;
  seconds: number;
  /** Starts with a video keyframe. */
  independent: boolean;
}

export interface EdgeSegment extends Segment {
  /** Its parts, for the last few segments (a player near the edge loads these instead). */
  parts?: EdgePart[];
}

export interface EdgeModel {
  /** The media sequence number of the first segment listed. */
  sequence: number;
  discontinuitySequence: number;
  segments: EdgeSegment[];
  /** The segment being written (its media sequence number follows the last listed one). */
  open: { map: string; discontinuity: boolean; parts: EdgePart[] };
  /** The part expected next (#EXT-X-PRELOAD-HINT). */
  hint: string;
}

/** A player starts this far behind the last part (#EXT-X-SERVER-CONTROL:PART-HOLD-BACK): three parts. */
export const PART_HOLD_BACK_SEC = 3 * PART_TARGET_SEC;

/** The media sequence number of the segment being written. */
export const openSequence = (model: EdgeModel) => model.sequence + model.segments.length;

/** #EXT-X-TARGETDURATION: the longest segment, rounded (at least 1). */
export const targetDuration = (model: EdgeModel) =>
  Math.max(1, ...model.segments.map((segment) => Math.round(segment.duration)));

/** Whether the playlist holds segment `msn` whole, or (with `part`) that part of it. */
export function holds(model: EdgeModel, msn: number, part: number | undefined): boolean {
  const open = openSequence(model);
  if (msn < open) return true;
  return msn === open && part !== undefined && part < model.open.parts.length;
}

/**
 * How far ahead of the playlist a blocking request may ask (RFC 8216bis 6.2.5.2): a segment at
 * most two past the last whole one, a part at most this many past the last part.
 */
const ADVANCE_PART_LIMIT = Math.ceil(3 / PART_TARGET_SEC);

/** Whether a blocking request asks for more than the server may wait for: it gets 400. */
export function tooFarAhead(model: EdgeModel, msn: number, part: number | undefined): boolean {
  const lastWhole = openSequence(model) - 1;
  if (msn > lastWhole + 2) return true;
  if (part === undefined) return false;
  const partsBefore = (msn - openSequence(model)) * Math.ceil(targetDuration(model) / PART_TARGET_SEC);
  return partsBefore + part > model.open.parts.length - 1 + ADVANCE_PART_LIMIT;
}

const partLine = (part: EdgePart) =>
  `#EXT-X-PART:DURATION=${part.seconds.toFixed(5)},URI="${part.uri}"${part.independent ? ',INDEPENDENT=YES' : ''}`;

/** The playlist's text: the segments, the parts of the last ones and of the open one, and the hint. */
export function renderLowLatency(model: EdgeModel): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${targetDuration(model)}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${PART_HOLD_BACK_SEC.toFixed(3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${PART_TARGET_SEC.toFixed(3)}`,
    `#EXT-X-MEDIA-SEQUENCE:${model.sequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${model.discontinuitySequence}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  let map = '';
  const enter = (segment: { map: string; discontinuity: boolean }, first: boolean) => {
    // A window never shows its first segment's discontinuity: it is counted before it.
    if (segment.discontinuity && !first) lines.push('#EXT-X-DISCONTINUITY');
    if (segment.map !== map) {
      map = segment.map;
      lines.push(`#EXT-X-MAP:URI="${map}"`);
    }
  };
  model.segments.forEach((segment, index) => {
    enter(segment, index === 0);
    for (const part of segment.parts ?? []) lines.push(partLine(part));
    lines.push(`#EXTINF:${segment.duration.toFixed(5)},`, segment.uri);
  });
  enter(model.open, model.segments.length === 0);
  for (const part of model.open.parts) lines.push(partLine(part));
  lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${model.hint}"`);
  return `${lines.join('\n')}\n`;
}
