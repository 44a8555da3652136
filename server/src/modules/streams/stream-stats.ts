import type { MyStreamStats, StreamStats } from '@streamshop/contract/stream-stats.ts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { MY_STREAMS_LIMIT } from './service.ts';
import { VIEWER_SAMPLE_SEC } from './viewer-samples.ts';

type StreamStatsRow = {
  stream_id: string;
  peak_viewers: number;
  viewer_sum: number;
  viewer_slots: number;
  chat_messages: number;
  live_purchases: number;
  live_revenue: number;
  replay_purchases: number;
  replay_revenue: number;
};

/**
 * The figures of the streams `where` picks (over `streams s`). The average divides the viewers
 * summed over the samples by the number of 5-second slots the stream was live for (or the number
 * of samples, if higher), since a slot without a sample is one nobody watched.
 */
async function queryStreamStats(db: Db, where: SQL, limit: number): Promise<StreamStatsRow[]> {
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
      o.replay_revenue::float8 as replay_revenue
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
      from orders where stream_id = s.id and status = 'completed') o
    where ${where}
    order by s.created_at desc limit ${limit}`);
  return result.rows;
}

function toStreamStats(row: StreamStatsRow): StreamStats {
  const slots = Number(row.viewer_slots);
  return {
    peakViewers: Number(row.peak_viewers),
    averageViewers: slots > 0 ? Math.round((Number(row.viewer_sum) / slots) * 10) / 10 : 0,
    chatMessages: Number(row.chat_messages),
    live: { purchases: Number(row.live_purchases), revenueCents: Number(row.live_revenue) },
    replay: { purchases: Number(row.replay_purchases), revenueCents: Number(row.replay_revenue) },
  };
}

/** One stream's figures, for its owner only: anyone else gets the same 404 as an unknown room. */
export async function getStreamStats(db: Db, ownerId: string, roomName: string): Promise<StreamStats> {
  const [row] = await queryStreamStats(db, sql`s.room_name = ${roomName} and s.owner_id = ${ownerId}`, 1);
  if (!row) throw notFound('Stream not found');
  return toStreamStats(row);
}

/** The figures of the streams GET /api/streams/mine lists, by stream id. */
export async function listStreamStatsOfOwner(db: Db, ownerId: string): Promise<MyStreamStats> {
  const rows = await queryStreamStats(db, sql`s.owner_id = ${ownerId}`, MY_STREAMS_LIMIT);
  return Object.fromEntries(rows.map((row) => [row.stream_id, toStreamStats(row)]));
}
