import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Live video's queries: where a stream restreams to, and its replay. */

/**
 * What a publisher's start needs to know of a live stream: its restream URL and its owner's plan
 * (restreaming is a Pro feature; the plan caps the picture).
 */
export async function publishTargetOf(
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

/**
 * Streams that ended in the last 7 days, at least `endedSecondsAgo` ago, without a replay (their
 * segments may be in storage).
 */
export async function endedWithoutReplay(db: Db, endedSecondsAgo: number): Promise<string[]> {
  const result = await db.execute<{ room_name: string }>(sql`
    select room_name from streams where ended_at is not null and vod_url is null
    and ended_at > now() - interval '7 days'
    and ended_at <= now() - make_interval(secs => ${endedSecondsAgo})`);
  return result.rows.map((row) => row.room_name);
}

/**
 * The demo's always-live room, owned by `ownerHandle`: live from now on with no end, its lineup
 * the owner's three newest products in stock with the first pinned. False when the owner is not
 * there (the demo data was not seeded).
 */
export async function upsertDemoLiveStream(
  db: Db,
  s: { roomName: string; ownerHandle: string; title: string; description: string },
): Promise<boolean> {
  const result = await db.execute<{ id: string }>(sql`
    insert into streams (owner_id, room_name, title, description, duration_sec, is_active, started_at)
    select id, ${s.roomName}, ${s.title}, ${s.description}, 0, true, now() from users where handle = ${s.ownerHandle}
    on conflict (room_name) do update set is_active = true, ended_at = null, ends_at = null, vod_url = null
    returning id`);
  const streamId = result.rows[0]?.id;
  if (!streamId) return false;
  await db.execute(sql`
    with picked as (
      select p.id, row_number() over (order by p.created_at desc, p.id) - 1 as n
      from products p join users u on u.id = p.seller_id
      where u.handle = ${s.ownerHandle} and p.stock > 0 order by p.created_at desc, p.id limit 3
    ), lineup as (
      insert into stream_products (stream_id, product_id, position)
      select ${streamId}, id, n from picked
      on conflict do nothing
    )
    insert into stream_pins (stream_id, product_id)
    select ${streamId}, id from picked
    where n = 0 and not exists (select 1 from stream_pins where stream_id = ${streamId} and unpinned_at is null)`);
  return true;
}
