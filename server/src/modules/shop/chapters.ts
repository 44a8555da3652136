import type { ReplayChapters } from '@streamshop/contract/shop.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { toRoomProduct } from './room-shop.ts';

/** Every pin of the stream as a chapter of its replay: which product, from when to when. */
export async function replayChapters(db: Db, streamId: string): Promise<ReplayChapters['chapters']> {
  const result = await db.execute<{
    id: string;
    title: string;
    image_url: string | null;
    price_cents: number;
    stock: number;
    condition: string;
    start_sec: number;
    end_sec: number | null;
  }>(sql`
    select p.id, p.title, p.image_url, p.price_cents, p.stock, p.condition,
      greatest(0, extract(epoch from pin.pinned_at - coalesce(s.started_at, s.created_at)))::float8 as start_sec,
      case when coalesce(pin.unpinned_at, s.ended_at) is null then null
        else greatest(0, extract(epoch from coalesce(pin.unpinned_at, s.ended_at) - coalesce(s.started_at, s.created_at)))::float8
      end as end_sec
    from stream_pins pin
    join streams s on s.id = pin.stream_id
    join products p on p.id = pin.product_id
    where pin.stream_id = ${streamId}
    order by pin.pinned_at, pin.id`);
  const round = (n: number) => Math.round(n * 10) / 10;
  return result.rows.map((row) => ({
    product: toRoomProduct(row),
    startSec: round(Number(row.start_sec)),
    endSec: row.end_sec === null ? null : round(Number(row.end_sec)),
  }));
}

/** How many distinct products each replay features, for the storefront's VOD cards. */
export async function featuredProductCounts(db: Db, streamIds: string[]): Promise<Map<string, number>> {
  if (streamIds.length === 0) return new Map();
  const result = await db.execute<{ stream_id: string; n: number }>(sql`
    select stream_id, count(distinct product_id) as n from stream_pins
    where stream_id in ${streamIds} group by stream_id`);
  return new Map(result.rows.map((row) => [row.stream_id, Number(row.n)]));
}
