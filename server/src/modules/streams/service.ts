import type { Stream } from '@streamshop/contract/catalog.ts';
import { hlsPath, LIVE_PLAYLIST } from '@streamshop/contract/live.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { liveStreamRecords, type StreamRecord, streamRecordsOfOwner } from './repo.ts';

/** What other modules may use of the stream records. */
export { findStreamByRoom, type StreamRecord } from './repo.ts';

/** While live, the live playlist; after the end, the replay when it is HLS (older ones are WebM). */
function hlsUrlOf(row: StreamRecord): string | null {
  if (row.ended_at) return row.vod_url?.endsWith('.m3u8') ? row.vod_url : null;
  return row.is_active ? hlsPath(row.room_name, LIVE_PLAYLIST) : null;
}

export function toStream(row: StreamRecord): Stream {
  return {
    id: row.id,
    roomName: row.room_name,
    title: row.title,
    description: row.description,
    viewCount: row.view_count,
    durationSec: row.duration_sec,
    isActive: row.is_active,
    createdAt: iso(row.created_at),
    startedAt: row.started_at ? iso(row.started_at) : null,
    endsAt: row.ends_at ? iso(row.ends_at) : null,
    vodUrl: row.vod_url,
    hlsUrl: hlsUrlOf(row),
    thumbnailUrl: row.thumbnail_url,
    owner: { handle: row.owner_handle },
  };
}

/**
 * The live list is read on every explore page; a couple of seconds of staleness is invisible next
 * to the client's 30 s refresh, and saves a query per page view.
 */
const LIVE_LIST_TTL_MS = 2000;
const liveListCache = new WeakMap<Db, { at: number; value: Promise<Stream[]> }>();

export function listLiveStreamsCached(db: Db): Promise<Stream[]> {
  const hit = liveListCache.get(db);
  if (hit && Date.now() - hit.at < LIVE_LIST_TTL_MS) return hit.value;
  const value = listLiveStreams(db);
  liveListCache.set(db, { at: Date.now(), value });
  value.catch(() => liveListCache.delete(db));
  return value;
}

/** Streams live right now (active and not past their plan's end), most watched first. */
export async function listLiveStreams(db: Db, limit = 48): Promise<Stream[]> {
  return (await liveStreamRecords(db, limit)).map(toStream);
}

/** GET /api/streams/mine lists at most this many, newest first. */
export const MY_STREAMS_LIMIT = 200;

export async function listStreamsOfOwner(db: Db, ownerId: string, onlyWithVod = false): Promise<Stream[]> {
  return (await streamRecordsOfOwner(db, ownerId, onlyWithVod, MY_STREAMS_LIMIT)).map(toStream);
}
