import type { Stream } from '@streamshop/contract/catalog.ts';
import { hlsPath, LIVE_PLAYLIST } from '@streamshop/contract/live.ts';
import { iso } from '../../db/time.ts';
import type { StreamRecord } from './repo.ts';

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
