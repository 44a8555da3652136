import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export type StreamRecord = {
  id: string;
  owner_id: string;
  room_name: string;
  title: string;
  description: string | null;
  view_count: number;
  duration_sec: number;
  is_active: boolean;
  created_at: Date | string;
  started_at: Date | string | null;
  ends_at: Date | string | null;
  ended_at: Date | string | null;
  vod_url: string | null;
  owner_handle: string;
};

/** The columns every stream query selects (stream + owner's handle), matching StreamRecord. */
export const STREAM_COLUMNS = sql.raw(`s.id, s.owner_id, s.room_name, s.title, s.description, s.view_count,
  s.duration_sec, s.is_active, s.created_at, s.started_at, s.ends_at, s.ended_at, s.vod_url,
  u.handle as owner_handle`);

export async function findStreamByRoom(db: Db, roomName: string): Promise<StreamRecord | undefined> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id where s.room_name = ${roomName}`);
  return result.rows[0];
}

/** Streams live right now (active and not past their plan's end), most watched first. */
export async function liveStreamRecords(db: Db, limit: number): Promise<StreamRecord[]> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.is_active and (s.ends_at is null or s.ends_at > now())
    order by s.view_count desc, s.created_at desc limit ${limit}`);
  return result.rows;
}

/** An owner's streams, newest first (only those with a replay, when asked). */
export async function streamRecordsOfOwner(
  db: Db,
  ownerId: string,
  onlyWithVod: boolean,
  limit: number,
): Promise<StreamRecord[]> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.owner_id = ${ownerId} ${onlyWithVod ? sql`and s.vod_url is not null` : sql``}
    order by s.created_at desc limit ${limit}`);
  return result.rows;
}

export async function insertStream(
  db: Db,
  stream: {
    ownerId: string;
    roomName: string;
    title: string;
    description: string | null;
    rtmpUrl: string | null;
    durationSec: number;
  },
): Promise<void> {
  await db.execute(sql`
    insert into streams (owner_id, room_name, title, description, rtmp_url, duration_sec)
    values (${stream.ownerId}, ${stream.roomName}, ${stream.title}, ${stream.description}, ${stream.rtmpUrl},
            ${stream.durationSec})`);
}

/** Goes live: the plan's clock starts now. A started or ended stream is left as it is. */
export async function markStarted(db: Db, streamId: string): Promise<void> {
  await db.execute(sql`
    update streams set is_active = true, started_at = now(),
      ends_at = now() + make_interval(secs => duration_sec)
    where id = ${streamId} and not is_active and ended_at is null`);
}

export async function markEnded(db: Db, streamId: string): Promise<void> {
  await db.execute(sql`
    update streams set is_active = false, ended_at = coalesce(ended_at, now()) where id = ${streamId}`);
}

/** Ends every live stream past its plan's limit; atomic per row. Returns their room names. */
export async function endStreamsPastTheirEnd(db: Db): Promise<string[]> {
  const result = await db.execute<{ room_name: string }>(sql`
    update streams set is_active = false, ended_at = ends_at
    where is_active and ends_at <= now()
    returning room_name`);
  return result.rows.map((row) => row.room_name);
}
