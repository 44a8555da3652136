import type { ProductShow } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

type ShowRow = {
  room_name: string;
  title: string;
  live: boolean;
  started_at: Date | string | null;
  thumbnail_url: string | null;
};

/**
 * The shows a product is in, for its page: those whose lineup has it (or that pinned it, so its
 * replay has the chapter) and that are live now or over with a replay. A show not started yet, or
 * over without a recording, has nothing to watch. Live ones first, then the newest.
 */
export async function showsOfProduct(db: Db, productId: string, limit: number): Promise<ProductShow[]> {
  const result = await db.execute<ShowRow>(sql`
    select s.room_name, s.title, s.started_at, s.thumbnail_url,
      (s.is_active and (s.ends_at is null or s.ends_at > now())) as live
    from streams s join users u on u.id = s.owner_id
    where u.deleted_at is null
      and (exists (select 1 from stream_products sp where sp.stream_id = s.id and sp.product_id = ${productId})
        or exists (select 1 from stream_pins pin where pin.stream_id = s.id and pin.product_id = ${productId}))
      and ((s.is_active and (s.ends_at is null or s.ends_at > now())) or s.vod_url is not null)
    order by live desc, coalesce(s.started_at, s.created_at) desc, s.id
    limit ${limit}`);
  return result.rows.map((row) => ({
    roomName: row.room_name,
    title: row.title,
    live: row.live,
    startedAt: row.started_at ? iso(row.started_at) : null,
    thumbnailUrl: row.thumbnail_url,
  }));
}
