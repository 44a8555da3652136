import type { Stream } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../catalog/product-row.ts';

type StreamRow = {
  id: string;
  room_name: string;
  title: string;
  description: string | null;
  view_count: number;
  duration_sec: number;
  is_active: boolean;
  created_at: Date | string;
  started_at: Date | string | null;
  ends_at: Date | string | null;
  vod_url: string | null;
  owner_handle: string;
};

const STREAM_COLUMNS = sql.raw(`s.id, s.room_name, s.title, s.description, s.view_count, s.duration_sec,
  s.is_active, s.created_at, s.started_at, s.ends_at, s.vod_url, u.handle as owner_handle`);

export function toStream(row: StreamRow): Stream {
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
    owner: { handle: row.owner_handle },
  };
}

/** Streams live right now (active and not past their plan's end), most watched first. */
export async function listLiveStreams(db: Db, limit = 48): Promise<Stream[]> {
  const result = await db.execute<StreamRow>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.is_active and (s.ends_at is null or s.ends_at > now())
    order by s.view_count desc, s.created_at desc limit ${limit}`);
  return result.rows.map(toStream);
}

export async function listStreamsOfOwner(db: Db, ownerId: string, onlyWithVod = false): Promise<Stream[]> {
  const result = await db.execute<StreamRow>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.owner_id = ${ownerId} ${onlyWithVod ? sql`and s.vod_url is not null` : sql``}
    order by s.created_at desc limit 200`);
  return result.rows.map(toStream);
}
