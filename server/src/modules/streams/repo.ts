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
