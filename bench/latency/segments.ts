/**
 * The pipeline's output as the HLS viewers get it: the live playlist's newest segments, their
 * video frames counted from the fMP4 boxes (the init's video track, the trun sample counts of
 * every fragment) per second of media (#EXTINF). A camera at 30 fps should come out at ~30.
 */

const LAST_SEGMENTS = 3;

/** The boxes [type, start of the body, end] directly inside bytes[from, to). */
function boxes(bytes: Buffer, from = 0, to = bytes.length): Array<[string, number, number]> {
  const found: Array<[string, number, number]> = [];
  let at = from;
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    found.push([type, at + header, at + size]);
    at += size;
  }
  return found;
}

const child = (bytes: Buffer, parent: [string, number, number], type: string) =>
  boxes(bytes, parent[1], parent[2]).filter((b) => b[0] === type);

/** The track id of the init segment's video track (hdlr 'vide'). */
function videoTrackId(init: Buffer): number | undefined {
  for (const moov of boxes(init).filter((b) => b[0] === 'moov'))
    for (const trak of child(init, moov, 'trak')) {
      const handler = child(init, trak, 'mdia').flatMap((mdia) => child(init, mdia, 'hdlr'))[0];
      const tkhd = child(init, trak, 'tkhd')[0];
      if (!handler || !tkhd || init.toString('latin1', handler[1] + 8, handler[1] + 12) !== 'vide') continue;
      const version = init.readUInt8(tkhd[1]);
      return init.readUInt32BE(tkhd[1] + (version === 1 ? 20 : 12));
    }
  return undefined;
}

/** The samples of one track in a media segment (every moof/traf/trun). */
function samplesOf(segment: Buffer, trackId: number): number {
  let count = 0;
  for (const moof of boxes(segment).filter((b) => b[0] === 'moof'))
    for (const traf of child(segment, moof, 'traf')) {
      const tfhd = child(segment, traf, 'tfhd')[0];
      if (!tfhd || segment.readUInt32BE(tfhd[1] + 4) !== trackId) continue;
      for (const trun of child(segment, traf, 'trun')) count += segment.readUInt32BE(trun[1] + 4);
    }
  return count;
}

export interface SegmentRate {
  segments: number;
  frames: number;
  /** Seconds of media (#EXTINF) and the video frames per second of media. */
  seconds: number;
  fps: number;
}

/** Video frames per second of media in the newest segments of a room's live playlist; undefined when unreadable. */
export async function liveSegmentRate(base: string, roomName: string): Promise<SegmentRate | undefined> {
  try {
    const playlistUrl = `${base}/media/hls/${roomName}/live.m3u8`;
    const get = async (url: string) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    };
    const entries: Array<{ uri: string; map: string; seconds: number }> = [];
    let map = '';
    let seconds = Number.NaN;
    for (const line of (await get(playlistUrl)).toString('utf8').split(/\r?\n/)) {
      if (line.startsWith('#EXT-X-MAP:')) map = /URI="([^"]*)"/.exec(line)?.[1] ?? map;
      else if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice('#EXTINF:'.length));
      else if (line && !line.startsWith('#')) entries.push({ uri: line, map, seconds });
    }
    const last = entries.slice(-LAST_SEGMENTS);
    let frames = 0;
    let total = 0;
    const inits = new Map<string, number | undefined>();
    for (const entry of last) {
      if (!inits.has(entry.map))
        inits.set(entry.map, videoTrackId(await get(new URL(entry.map, playlistUrl).href)));
      const trackId = inits.get(entry.map);
      if (trackId === undefined) return undefined;
      frames += samplesOf(await get(new URL(entry.uri, playlistUrl).href), trackId);
      total += entry.seconds;
    }
    return last.length ? { segments: last.length, frames, seconds: total, fps: frames / total } : undefined;
  } catch {
    return undefined;
  }
}
