import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The giveaways' queries (issue 29). */

type Executor = Pick<Db, 'execute'>;

export type GiveawayRow = {
  id: string;
  stream_id: string;
  room_name: string;
  seller_id: string;
  product_id: string;
  audience: 'everyone' | 'followers' | 'buyers';
  status: 'running' | 'drawn' | 'cancelled';
  seed: string;
  seed_hash: string;
  started_at: Date | string;
  ends_at: Date | string;
  winner_id: string | null;
  winner_handle: string | null;
  order_id: string | null;
  entry_count: number;
  server_now: Date | string;
  p_title: string;
  p_image_url: string | null;
  p_price_cents: number;
  p_stock: number;
  p_condition: string;
  p_fulfillment: 'ship' | 'digital' | 'pickup';
  p_shipping_cents: number;
};

const GIVEAWAY_SELECT = sql`
  select g.id, g.stream_id, s.room_name, g.seller_id, g.product_id, g.audience, g.status, g.seed, g.seed_hash,
    g.started_at, g.ends_at, g.winner_id, g.winner_handle, g.order_id, now() as server_now,
    (select count(*)::int from giveaway_entries e where e.giveaway_id = g.id) as entry_count,
    p.title as p_title, p.image_url as p_image_url, p.price_cents as p_price_cents, p.stock as p_stock,
    p.condition as p_condition, p.fulfillment as p_fulfillment, p.shipping_cents as p_shipping_cents
  from giveaways g join streams s on s.id = g.stream_id join products p on p.id = g.product_id`;

export async function findGiveaway(db: Executor, id: string): Promise<GiveawayRow | undefined> {
  const result = await db.execute<GiveawayRow>(sql`${GIVEAWAY_SELECT} where g.id = ${id}`);
  return result.rows[0];
}

/** The room's running giveaway, or its latest one drawn in the last minute. */
export async function currentGiveawayOf(db: Executor, streamId: string): Promise<GiveawayRow | undefined> {
  const result = await db.execute<GiveawayRow>(sql`${GIVEAWAY_SELECT}
    where g.stream_id = ${streamId}
      and (g.status = 'running' or (g.status = 'drawn' and g.drawn_at > now() - interval '60 seconds'))
    order by g.started_at desc limit 1`);
  return result.rows[0];
}

export async function insertGiveaway(
  tx: Tx,
  giveaway: {
    streamId: string;
    sellerId: string;
    productId: string;
    audience: string;
    durationSec: number;
    seed: string;
    seedHash: string;
  },
): Promise<string> {
  const result = await tx.execute<{ id: string }>(sql`
    insert into giveaways (stream_id, seller_id, product_id, audience, seed, seed_hash, ends_at)
    values (${giveaway.streamId}, ${giveaway.sellerId}, ${giveaway.productId}, ${giveaway.audience},
      ${giveaway.seed}, ${giveaway.seedHash}, now() + make_interval(secs => ${giveaway.durationSec}))
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) throw new Error('the giveaway was not written');
  return id;
}

export async function hasRunningGiveaway(tx: Executor, streamId: string): Promise<boolean> {
  const found = await tx.execute(
    sql`select 1 from giveaways where stream_id = ${streamId} and status = 'running'`,
  );
  return found.rows.length > 0;
}

/** Whether the user entered the giveaway. */
export async function hasEntered(db: Executor, giveawayId: string, userId: string): Promise<boolean> {
  const found = await db.execute(
    sql`select 1 from giveaway_entries where giveaway_id = ${giveawayId} and user_id = ${userId}`,
  );
  return found.rows.length > 0;
}

/** Enters the user while the giveaway runs (by the database's clock); false when already entered. */
export async function insertEntry(
  db: Executor,
  giveawayId: string,
  userId: string,
): Promise<'entered' | 'again' | 'ended'> {
  const result = await db.execute<{ user_id: string }>(sql`
    insert into giveaway_entries (giveaway_id, user_id, handle)
    select g.id, u.id, u.handle from giveaways g, users u
    where g.id = ${giveawayId} and g.status = 'running' and g.ends_at > now() and u.id = ${userId}
    on conflict do nothing returning user_id`);
  if (result.rows.length > 0) return 'entered';
  return (await hasEntered(db, giveawayId, userId)) ? 'again' : 'ended';
}

export async function entrantsOf(
  db: Executor,
  giveawayId: string,
): Promise<Array<{ user_id: string; handle: string }>> {
  const result = await db.execute<{ user_id: string; handle: string }>(
    sql`select user_id, handle from giveaway_entries where giveaway_id = ${giveawayId}`,
  );
  return result.rows;
}

/** Due giveaways (running past their end), oldest first. */
export async function dueGiveawayIds(db: Executor): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    select id from giveaways where status = 'running' and ends_at <= now() order by ends_at limit 20`);
  return result.rows.map((row) => row.id);
}

/** Locks a due giveaway for its draw; undefined when another instance has it or it is drawn. */
export async function lockDueGiveaway(
  tx: Tx,
  id: string,
): Promise<
  { id: string; stream_id: string; seller_id: string; product_id: string; seed: string } | undefined
> {
  const result = await tx.execute<{
    id: string;
    stream_id: string;
    seller_id: string;
    product_id: string;
    seed: string;
  }>(
    sql`select id, stream_id, seller_id, product_id, seed from giveaways
        where id = ${id} and status = 'running' and ends_at <= now() for update skip locked`,
  );
  return result.rows[0];
}

export async function markDrawn(
  tx: Tx,
  id: string,
  winner: { id: string; handle: string } | null,
  orderId: string | null,
): Promise<void> {
  await tx.execute(sql`
    update giveaways set status = 'drawn', drawn_at = now(), winner_id = ${winner?.id ?? null},
      winner_handle = ${winner?.handle ?? null}, order_id = ${orderId}
    where id = ${id}`);
}

/** The seller cancels a running giveaway: nobody wins, the unit is free again. */
export async function markCancelled(db: Executor, id: string, sellerId: string): Promise<boolean> {
  const result = await db.execute(sql`
    update giveaways set status = 'cancelled' where id = ${id} and seller_id = ${sellerId} and status = 'running'
    returning id`);
  return result.rows.length > 0;
}
