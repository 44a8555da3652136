import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Live video's queries: where a stream restreams to, and its replay. */

/** A live stream's restream URL and its owner's plan (restreaming is a Pro feature). */
export async function restreamTargetOf(
  db: Db,
  roomName: string,
): Promise<{ rtmpUrl: string | null; plan: string } | undefined> {
  const result = await db.execute<{ rtmp_url: string | null; plan: string }>(sql`
    select s.rtmp_url, u.plan from streams s join users u on u.id = s.owner_id
    where s.room_name = ${roomName} and s.ended_at is null`);
  const row = result.rows[0];
  return row && { rtmpUrl: row.rtmp_url, plan: row.plan };
}

/** Sets the replay's URL; false when it was set already. */
export async function setReplayUrl(db: Db, roomName: string, vodUrl: string): Promise<boolean> {
  const result = await db.execute(sql`
    update streams set vod_url = ${vodUrl}
    where room_name = ${roomName} and vod_url is distinct from ${vodUrl}`);
  return (result.rowCount ?? 0) > 0;
}

export async function setThumbnailUrl(db: Db, roomName: string, thumbnailUrl: string): Promise<void> {
  await db.execute(sql`update streams set thumbnail_url = ${thumbnailUrl} where room_name = ${roomName}`);
}

/** Streams that ended in the last 7 days without a replay (their segments may be in storage). */
export async function endedWithoutReplay(db: Db): Promise<string[]> {
  const result = await db.execute<{ room_name: string }>(sql`
    select room_name from streams where ended_at is not null and vod_url is null
    and ended_at > now() - interval '7 days'`);
  return result.rows.map((row) => row.room_name);
}
