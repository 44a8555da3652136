import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Live video's queries: where a stream restreams to, who publishes it, its parts (the replay's
 * are in replays/repo.ts, the stream keys' in keys/repo.ts).
 */

/**
 * What a publisher's start needs to know of a live stream: its restream URL and its plan (the
 * owner's when it started: the plan caps the picture).
 */
export async function publishTargetOf(
  db: Db,
  roomName: string,
): Promise<{ rtmpUrl: string | null; plan: string } | undefined> {
  const result = await db.execute<{ rtmp_url: string | null; plan: string }>(sql`
    select s.rtmp_url, s.plan from streams s
    where s.room_name = ${roomName} and s.ended_at is null`);
  const row = result.rows[0];
  return row && { rtmpUrl: row.rtmp_url, plan: row.plan };
}

/**
 * A live stream's latest picture. An ended stream keeps the one it has; one that ended before its
 * first picture was made (a short stream, a slow ffmpeg) takes that picture; the streams of a
 * deleted account take none.
 */
export async function setThumbnailUrl(db: Db, roomName: string, thumbnailUrl: string): Promise<void> {
  await db.execute(sql`
    update streams s set thumbnail_url = ${thumbnailUrl}
    where s.room_name = ${roomName} and (s.ended_at is null or s.thumbnail_url is null)
      and not exists (select 1 from users u where u.id = s.owner_id and u.deleted_at is not null)`);
}

/** Whether the stream's owner deleted their account: its recordings are removed, not made a replay. */
export async function ownerDeleted(db: Db, roomName: string): Promise<boolean> {
  const result = await db.execute<{ deleted: boolean }>(sql`
    select u.deleted_at is not null as deleted from streams s join users u on u.id = s.owner_id
    where s.room_name = ${roomName}`);
  return result.rows[0]?.deleted === true;
}

/** Publishers and parts: leases in the stream rows, so that any instance can take over (ADR 0018). */

/** This instance holds these live streams' publishers: their lease is renewed now. */
export async function holdPublishers(db: Db, roomNames: string[], instanceId: string): Promise<void> {
  if (roomNames.length === 0) return;
  await db.execute(sql`
    update streams set publisher_instance = ${instanceId}, publisher_seen_at = now()
    where room_name = any(${sql.param(roomNames)}::text[]) and ended_at is null`);
}

/** The publisher left this instance: the grace starts now (unless another instance holds it already). */
export async function releasePublisher(db: Db, roomName: string, instanceId: string): Promise<void> {
  await db.execute(sql`
    update streams set publisher_instance = null, publisher_seen_at = now()
    where room_name = ${roomName} and publisher_instance = ${instanceId}`);
}

/** A part of the stream's recording, written by this instance from now on. */
export async function recordPart(
  db: Db,
  roomName: string,
  partId: string,
  instanceId: string,
): Promise<void> {
  await db.execute(sql`
    insert into stream_parts (stream_id, id, instance_id)
    select id, ${partId}, ${instanceId} from streams where room_name = ${roomName}
    on conflict (stream_id, id) do nothing`);
}

/** This instance still writes these parts. */
export async function renewParts(db: Db, partIds: string[], instanceId: string): Promise<void> {
  if (partIds.length === 0) return;
  await db.execute(sql`
    update stream_parts set seen_at = now()
    where instance_id = ${instanceId} and id = any(${sql.param(partIds)}::text[]) and closed_at is null`);
}

/** Every segment of the part, and its closed playlist, are in storage. */
export async function closePart(db: Db, roomName: string, partId: string): Promise<void> {
  await db.execute(sql`
    update stream_parts set closed_at = now(), seen_at = now()
    where id = ${partId} and stream_id = (select id from streams where room_name = ${roomName})`);
}

/** Which of these streams have ended. */
export async function endedAmong(db: Db, roomNames: string[]): Promise<string[]> {
  if (roomNames.length === 0) return [];
  const result = await db.execute<{ room_name: string }>(sql`
    select room_name from streams
    where room_name = any(${sql.param(roomNames)}::text[]) and ended_at is not null`);
  return result.rows.map((row) => row.room_name);
}

/**
 * The demo room's looper (ingest/demo-live.ts): this instance holds its publisher's lease now, if
 * the lease is free (released, or not renewed for `leaseSec`) or already this instance's. At most
 * one instance holds it: concurrent claims are serialised by the row's lock.
 */
export async function claimDemoPublisher(
  db: Db,
  roomName: string,
  instanceId: string,
  leaseSec: number,
): Promise<boolean> {
  const result = await db.execute(sql`
    update streams set publisher_instance = ${instanceId}, publisher_seen_at = now()
    where room_name = ${roomName} and ended_at is null
      and (publisher_instance is null or publisher_instance = ${instanceId}
        or publisher_seen_at < now() - make_interval(secs => ${leaseSec}::float8))
    returning 1`);
  return result.rows.length > 0;
}

/**
 * The demo's always-live room, owned by `ownerHandle`: live from now on with no end, its lineup
 * the owner's three newest products in stock with the first pinned. False when the owner is not
 * there (the demo data was not seeded). A live room's publisher lease renewed within `leaseSec`
 * is kept: another instance loops it (claimDemoPublisher).
 */
export async function upsertDemoLiveStream(
  db: Db,
  s: { roomName: string; ownerHandle: string; title: string; description: string },
  leaseSec: number,
): Promise<boolean> {
  const held = sql`streams.ended_at is null and streams.publisher_seen_at >= now() - make_interval(secs => ${leaseSec}::float8)`;
  const result = await db.execute<{ id: string }>(sql`
    insert into streams (owner_id, room_name, title, description, duration_sec, plan, is_active, started_at)
    select id, ${s.roomName}, ${s.title}, ${s.description}, 0, plan, true, now() from users where handle = ${s.ownerHandle}
    on conflict (room_name) do update set is_active = true, ended_at = null, ends_at = null, vod_url = null,
      replay_state = null,
      publisher_instance = case when ${held} then streams.publisher_instance end,
      publisher_seen_at = case when ${held} then streams.publisher_seen_at end
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
