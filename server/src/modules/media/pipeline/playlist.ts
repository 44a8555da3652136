/**
 * HLS media playlists (RFC 8216) of a stream's fMP4 segments: the one ffmpeg writes for each
 * part (one ffmpeg run), each part's own in storage, and the stream's, which joins every part with
 * a discontinuity between them. While live, viewers read a sliding window of it (`live.m3u8`);
 * when the stream ends, the whole of it (`index.m3u8`, type VOD) is the replay.
 */

export interface Segment {
  uri: string;
  /** Seconds, as in #EXTINF. */
  duration: number;
  /** The init segment (#EXT-X-MAP) this segment needs. */
  map: string;
  /** A new part starts here (timestamps and init segment may change). */
  discontinuity: boolean;
}

export interface Playlist {
  segments: Segment[];
  /** #EXT-X-ENDLIST: nothing will be added. */
  ended: boolean;
  /** The media sequence number of the first segment (older ones were dropped); 0 when absent. */
  sequence?: number;
  /** Discontinuities before the first segment (with older ones dropped); 0 when absent. */
  discontinuitySequence?: number;
  /**
   * An open part's playlist in storage lists only the segments after its sealed chunks
   * (`#EXT-X-STREAMSHOP-CHUNKS:<n>`, stored-parts.ts); 0 when absent.
   */
  chunks?: number;
}

/** Our own tag (players skip tags they do not know): the sealed chunks before an open part's segments. */
const CHUNKS_TAG = '#EXT-X-STREAMSHOP-CHUNKS:';

/** Segments kept in the live window: about 20 s at 1 s segments. */
export const LIVE_WINDOW_SEGMENTS = 20;

/**
 * Whether the bytes are a playlist as written, not one cut short: every playlist starts with
 * #EXTM3U and each of its lines ends with a newline.
 */
export function isWholePlaylist(bytes: Buffer): boolean {
  return bytes.subarray(0, 7).toString('latin1') === '#EXTM3U' && bytes.at(-1) === 0x0a;
}

/** Reads a media playlist; lines it does not know are skipped. */
export function parsePlaylist(text: string): Playlist {
  const segments: Segment[] = [];
  let map = '';
  let duration: number | undefined;
  let discontinuity = false;
  let ended = false;
  let sequence = 0;
  let discontinuitySequence = 0;
  let chunks = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
      sequence = Number.parseInt(line.slice('#EXT-X-MEDIA-SEQUENCE:'.length), 10) || 0;
    } else if (line.startsWith('#EXT-X-DISCONTINUITY-SEQUENCE:')) {
      discontinuitySequence = Number.parseInt(line.slice('#EXT-X-DISCONTINUITY-SEQUENCE:'.length), 10) || 0;
    } else if (line.startsWith(CHUNKS_TAG)) {
      chunks = Number.parseInt(line.slice(CHUNKS_TAG.length), 10) || 0;
    } else if (line.startsWith('#EXT-X-MAP:')) {
      map = /URI="([^"]*)"/.exec(line)?.[1] ?? map;
    } else if (line.startsWith('#EXTINF:')) {
      duration = Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line === '#EXT-X-DISCONTINUITY') {
      discontinuity = true;
    } else if (line === '#EXT-X-ENDLIST') {
      ended = true;
    } else if (line && !line.startsWith('#') && duration !== undefined && Number.isFinite(duration)) {
      segments.push({ uri: line, duration, map, discontinuity });
      duration = undefined;
      discontinuity = false;
    }
  }
  return {
    segments,
    ended,
    ...(sequence ? { sequence } : {}),
    ...(discontinuitySequence ? { discontinuitySequence } : {}),
    ...(chunks ? { chunks } : {}),
  };
}

/**
 * Drops the oldest segments so that at most `keep` remain, counting them in the media and
 * discontinuity sequence numbers, so the window rendered from what remains reads the same as
 * before. Returns the dropped segments.
 */
export function dropOldest(playlist: Playlist, keep: number): Segment[] {
  const count = playlist.segments.length - keep;
  if (count <= 0) return [];
  const dropped = playlist.segments.splice(0, count);
  const first = playlist.segments[0];
  // A window never shows its first segment's discontinuity: it is counted before it.
  const discontinuities =
    dropped.slice(1).filter((segment) => segment.discontinuity).length + (first?.discontinuity ? 1 : 0);
  playlist.sequence = (playlist.sequence ?? 0) + count;
  playlist.discontinuitySequence = (playlist.discontinuitySequence ?? 0) + discontinuities;
  return dropped;
}

const targetDuration = (segments: Segment[]) =>
  Math.max(1, ...segments.map((segment) => Math.round(segment.duration)));

/**
 * The playlist's text. `window` keeps only the last segments (a live playlist: media and
 * discontinuity sequence numbers count what was left out); without it, every segment is listed
 * and the type is EVENT while live, VOD once ended.
 */
export function renderPlaylist(playlist: Playlist, window?: number): string {
  const all = playlist.segments;
  const first = window === undefined ? 0 : Math.max(0, all.length - window);
  const shown = all.slice(first);
  const discontinuitiesBefore =
    (playlist.discontinuitySequence ?? 0) +
    all.slice(0, first + 1).filter((segment, index) => segment.discontinuity && index > 0).length;
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${targetDuration(all)}`,
    `#EXT-X-MEDIA-SEQUENCE:${(playlist.sequence ?? 0) + first}`,
  ];
  if (window === undefined) lines.push(`#EXT-X-PLAYLIST-TYPE:${playlist.ended ? 'VOD' : 'EVENT'}`);
  else lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuitiesBefore}`);
  if (playlist.chunks) lines.push(`${CHUNKS_TAG}${playlist.chunks}`);
  lines.push('#EXT-X-INDEPENDENT-SEGMENTS');
  let map = '';
  shown.forEach((segment, index) => {
    if (segment.discontinuity && index > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (segment.map !== map) {
      map = segment.map;
      lines.push(`#EXT-X-MAP:URI="${map}"`);
    }
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, segment.uri);
  });
  if (playlist.ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The playlist's length in seconds. */
export const playlistSeconds = (playlist: Playlist) =>
  playlist.segments.reduce((sum, segment) => sum + segment.duration, 0);
