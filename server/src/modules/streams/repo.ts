import type { Plan } from '@streamshop/contract/constants.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

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
  thumbnail_url: string | null;
  owner_handle: string;
};

/** The columns every stream query selects (stream + owner's handle), matching StreamRecord. */
export const STREAM_COLUMNS = sql.raw(`s.id, s.owner_id, s.room_name, s.title, s.description, s.view_count,
  s.duration_sec, s.is_active, s.created_at, s.started_at, s.ends_at, s.ended_at, s.vod_url,
  s.thumbnail_url, u.handle as owner_handle`);

/** The stream of a room; none once its owner deleted their account (their rooms are gone with it). */
export async function findStreamByRoom(db: Db | Tx, roomName: string): Promise<StreamRecord | undefined> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.room_name = ${roomName} and u.deleted_at is null`);
  return result.rows[0];
}

/**
 * A deleted account's streams keep no replay or picture: no replay is made of them any more (an
 * 'empty' replay is never claimed, and a build under way cannot finish). Answers their rooms.
 */
export async function forgetStreamsOfOwner(tx: Db | Tx, ownerId: string): Promise<string[]> {
  const result = await tx.execute<{ room_name: string }>(sql`
    update streams set vod_url = null, thumbnail_url = null, replay_state = 'empty', replay_lease_until = null
    where owner_id = ${ownerId} returning room_name`);
  return result.rows.map((row) => row.room_name);
}

/** Streams live right now (active and not past their plan's end), most watched first. */
export async function liveStreamRecords(db: Db, limit: number): Promise<StreamRecord[]> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.is_active and (s.ends_at is null or s.ends_at > now())
    order by s.view_count desc, s.created_at desc limit ${limit}`);
  return result.rows;
}

/** The rooms live now of any of `ownerIds`, newest first. */
export async function liveStreamRecordsOfOwners(db: Db, ownerIds: string[]): Promise<StreamRecord[]> {
  if (ownerIds.length === 0) return [];
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.owner_id in (${sql.join(
      ownerIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and s.is_active and (s.ends_at is null or s.ends_at > now()) and u.deleted_at is null
    order by s.started_at desc limit 48`);
  return result.rows;
}

/** Streams that went live in the last `withinSec` seconds and are live still (the go-live notifications). */
export async function streamRecordsStartedWithin(db: Db, withinSec: number): Promise<StreamRecord[]> {
  const result = await db.execute<StreamRecord>(sql`
    select ${STREAM_COLUMNS} from streams s join users u on u.id = s.owner_id
    where s.started_at > now() - make_interval(secs => ${withinSec}) and s.ended_at is null
      and u.deleted_at is null
    order by s.started_at limit 500`);
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
  db: Db | Tx,
  stream: {
    ownerId: string;
    roomName: string;
    title: string;
    description: string | null;
    rtmpUrl: string | null;
    durationSec: number;
    plan: Plan;
  },
): Promise<void> {
  await db.execute(sql`
    insert into streams (owner_id, room_name, title, description, rtmp_url, duration_sec, plan)
    values (${stream.ownerId}, ${stream.roomName}, ${stream.title}, ${stream.description}, ${stream.rtmpUrl},
            ${stream.durationSec}, ${stream.plan})`);
}

/**
 * Puts the owner's streams that have not started on `plan`: its length, and no restream on free.
 * Streams that are live or ended keep theirs.
 */
export async function setPlanOfUnstartedStreams(
  tx: Tx,
  ownerId: string,
  plan: Plan,
  durationSec: number,
): Promise<void> {
  await tx.execute(sql`
    update streams set plan = ${plan}, duration_sec = ${durationSec},
      rtmp_url = case when ${plan}::text = 'pro' then rtmp_url end
    where owner_id = ${ownerId} and started_at is null and ended_at is null`);
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

/**
 * Ends every live stream past its plan's limit (ended at the limit), or whose publisher has been
 * gone for `graceSec` (ended now). The media module renews `publisher_seen_at` every
 * `heartbeatSec` while a publisher is connected and sets it when one leaves: a lease not renewed
 * and not released (its instance died) counts from a heartbeat later. Atomic per row, so several
 * instances running this at once end each stream once.
 */
export async function endStreamsDue(
  db: Db,
  { graceSec, heartbeatSec }: { graceSec: number; heartbeatSec: number },
): Promise<Array<{ roomName: string; reason: 'limit' | 'publisher-gone' }>> {
  const result = await db.execute<{ room_name: string; at_limit: boolean }>(sql`
    update streams set is_active = false,
      ended_at = case when ends_at <= now() then ends_at else now() end
    where is_active and (ends_at <= now() or publisher_seen_at < now() - make_interval(secs =>
      case when publisher_instance is null then ${graceSec}::float8 else ${graceSec + heartbeatSec}::float8 end))
    returning room_name, ended_at = ends_at as at_limit`);
  return result.rows.map((row) => ({
    roomName: row.room_name,
    reason: row.at_limit ? 'limit' : 'publisher-gone',
  }));
}

/** One viewer sample per stream per this many seconds (the seller's average counts these slots). */
export const VIEWER_SAMPLE_SEC = 5;

/**
 * Each active stream's viewers in the sample slot of `at` (default: the database's now), the highest
 * figure winning. Returns the rows written.
 */
export async function insertViewerSamples(
  db: Db,
  watched: Array<{ roomName: string; viewers: number }>,
  at?: Date,
): Promise<number> {
  const epoch = at ? sql`${at.getTime() / 1000}::float8` : sql`extract(epoch from now())`;
  const result = await db.execute(sql`
    insert into stream_viewer_samples (stream_id, at, viewers)
    select s.id, to_timestamp(floor(${epoch} / ${VIEWER_SAMPLE_SEC}) * ${VIEWER_SAMPLE_SEC}), r.viewers
    from unnest(${sql.param(watched.map((room) => room.roomName))}::text[],
                ${sql.param(watched.map((room) => room.viewers))}::int[]) as r(room_name, viewers)
    join streams s on s.room_name = r.room_name and s.is_active
    on conflict (stream_id, at)
      do update set viewers = greatest(stream_viewer_samples.viewers, excluded.viewers)`);
  return result.rowCount ?? 0;
}

export type StreamStatsRow = {
  stream_id: string;
  peak_viewers: number;
  viewer_sum: number;
  viewer_slots: number;
  chat_messages: number;
  live_purchases: number;
  live_revenue: number;
  replay_purchases: number;
  replay_revenue: number;
  auctions: number;
  auctions_sold: number;
  auction_bids: number;
  auction_bidders: number;
  sold_start_cents: number;
  sold_for_cents: number;
};

/**
 * The figures of an owner's streams (or of one of them, by room name). The average divides the viewers
 * summed over the samples by the number of 5-second slots the stream was live for (or the number
 * of samples, if higher), since a slot without a sample is one nobody watched.
 */
export async function streamStatsRows(
  db: Db,
  of: { ownerId: string; roomName?: string },
  limit: number,
): Promise<StreamStatsRow[]> {
  const where = of.roomName
    ? sql`s.room_name = ${of.roomName} and s.owner_id = ${of.ownerId}`
    : sql`s.owner_id = ${of.ownerId}`;
  const result = await db.execute<StreamStatsRow>(sql`
    select s.id as stream_id,
      coalesce(v.peak, 0)::int as peak_viewers,
      coalesce(v.total, 0)::float8 as viewer_sum,
      greatest(v.samples, case when s.started_at is null then 0 else
        round(extract(epoch from coalesce(s.ended_at, now()) - s.started_at) / ${VIEWER_SAMPLE_SEC}) end)::float8
        as viewer_slots,
      c.messages::int as chat_messages,
      o.live_purchases::int as live_purchases,
      o.live_revenue::float8 as live_revenue,
      o.replay_purchases::int as replay_purchases,
      o.replay_revenue::float8 as replay_revenue,
      au.auctions::int as auctions, au.sold::int as auctions_sold, au.bids::int as auction_bids,
      ab.bidders::int as auction_bidders, au.sold_start::float8 as sold_start_cents,
      au.sold_for::float8 as sold_for_cents
    from streams s
    cross join lateral (
      select max(viewers) as peak, sum(viewers) as total, count(*) as samples
      from stream_viewer_samples where stream_id = s.id) v
    cross join lateral (
      select count(*) as messages from chat_messages where stream_id = s.id and kind = 'user') c
    cross join lateral (
      select count(*) filter (where during_live) as live_purchases,
        coalesce(sum(amount_cents) filter (where during_live), 0) as live_revenue,
        count(*) filter (where not during_live) as replay_purchases,
        coalesce(sum(amount_cents) filter (where not during_live), 0) as replay_revenue
      from orders where stream_id = s.id and status in ('paid', 'shipped', 'delivered')) o
    -- The auctions module's table (issue 28): its figures belong with the stream's others.
    cross join lateral (
      select count(*) as auctions, count(*) filter (where winner_id is not null) as sold,
        coalesce(sum(bid_count), 0) as bids,
        coalesce(sum(starting_bid_cents) filter (where winner_id is not null), 0) as sold_start,
        coalesce(sum(price_cents) filter (where winner_id is not null), 0) as sold_for
      from auctions where stream_id = s.id) au
    cross join lateral (
      select count(distinct b.bidder_id) as bidders from auction_bids b join auctions a on a.id = b.auction_id
      where a.stream_id = s.id) ab
    where ${where}
    order by s.created_at desc limit ${limit}`);
  return result.rows;
}
