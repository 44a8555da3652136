import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** A stream's advanced analytics (stream-analytics.ts): minute by minute, per pinned product, per person. */

export type AnalyticsStreamRow = { id: string; unique_viewers: number; buyers: number };
export type AnalyticsMinuteRow = { minute: number; peak_viewers: number; chat_messages: number };
export type PinnedProductRow = {
  product_id: string;
  title: string;
  pinned_seconds: number;
  purchases: number;
  revenue_cents: number;
};

/** The owner's stream with its people counts; undefined when it is not theirs (or not there). */
export async function analyticsStreamRow(
  db: Db,
  ownerId: string,
  roomName: string,
): Promise<AnalyticsStreamRow | undefined> {
  const result = await db.execute<AnalyticsStreamRow>(sql`
    select s.id,
      (select count(*) from stream_views where stream_id = s.id)::int as unique_viewers,
      (select count(distinct buyer_id) from orders where stream_id = s.id and status in ('paid', 'shipped', 'delivered'))::int as buyers
    from streams s where s.room_name = ${roomName} and s.owner_id = ${ownerId}`);
  return result.rows[0];
}

/**
 * Every minute from the stream's start to its end (or now while live), at most the last
 * `maxMinutes`: the peak of its 5-second viewer samples and the messages people wrote in it.
 * None before the stream started.
 */
export async function analyticsMinuteRows(
  db: Db,
  streamId: string,
  maxMinutes: number,
): Promise<AnalyticsMinuteRow[]> {
  const result = await db.execute<AnalyticsMinuteRow>(sql`
    with s as (
      select started_at, coalesce(ended_at, now()) as ended_at,
        floor(extract(epoch from coalesce(ended_at, now()) - started_at) / 60)::int as last_minute
      from streams where id = ${streamId} and started_at is not null
    ), minutes as (
      select generate_series(greatest(0, s.last_minute - ${maxMinutes} + 1), greatest(0, s.last_minute)) as minute
      from s
    ), viewers as (
      select floor(extract(epoch from v.at - s.started_at) / 60)::int as minute, max(v.viewers) as peak
      from stream_viewer_samples v, s where v.stream_id = ${streamId} group by 1
    ), chat as (
      select floor(extract(epoch from c.created_at - s.started_at) / 60)::int as minute, count(*) as messages
      from chat_messages c, s
      where c.stream_id = ${streamId} and c.kind = 'user' and c.created_at between s.started_at and s.ended_at
      group by 1
    )
    select m.minute, coalesce(viewers.peak, 0)::int as peak_viewers, coalesce(chat.messages, 0)::int as chat_messages
    from minutes m left join viewers using (minute) left join chat using (minute)
    order by m.minute`);
  return result.rows;
}

/** Each product pinned in the stream: how long in all, and what it sold from the stream. */
export async function pinnedProductRows(db: Db, streamId: string): Promise<PinnedProductRow[]> {
  const result = await db.execute<PinnedProductRow>(sql`
    with pins as (
      select p.product_id,
        sum(extract(epoch from coalesce(p.unpinned_at, s.ended_at, now()) - p.pinned_at)) as seconds
      from stream_pins p join streams s on s.id = p.stream_id
      where p.stream_id = ${streamId} group by p.product_id
    )
    select pins.product_id, pr.title, round(greatest(pins.seconds, 0))::int as pinned_seconds,
      count(o.id)::int as purchases, coalesce(sum(o.amount_cents), 0)::int as revenue_cents
    from pins
    join products pr on pr.id = pins.product_id
    left join orders o on o.stream_id = ${streamId} and o.product_id = pins.product_id and o.status in ('paid', 'shipped', 'delivered')
    group by pins.product_id, pr.title, pins.seconds
    order by revenue_cents desc, purchases desc, pinned_seconds desc, pr.title`);
  return result.rows;
}
