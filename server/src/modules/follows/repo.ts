import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The follows' queries (issue 29). */

export async function insertFollow(db: Db, followerId: string, sellerId: string): Promise<void> {
  await db.execute(sql`
    insert into follows (follower_id, seller_id) values (${followerId}, ${sellerId})
    on conflict do nothing`);
}

export async function deleteFollow(db: Db, followerId: string, sellerId: string): Promise<void> {
  await db.execute(sql`delete from follows where follower_id = ${followerId} and seller_id = ${sellerId}`);
}

export async function followState(
  db: Db,
  viewerId: string | undefined,
  sellerId: string,
): Promise<{ following: boolean; followers: number }> {
  const result = await db.execute<{ followers: number; following: boolean }>(sql`
    select count(*)::int as followers,
      coalesce(bool_or(follower_id = ${viewerId ?? null}::uuid), false) as following
    from follows where seller_id = ${sellerId}`);
  const row = result.rows[0];
  return { following: row?.following ?? false, followers: row?.followers ?? 0 };
}

export type FollowedSellerRow = {
  id: string;
  handle: string;
  name: string;
  followers: number;
  followed_at: Date | string;
};

/** The sellers `followerId` follows, most recently followed first. */
export async function followedSellers(
  db: Db,
  followerId: string,
  limit: number,
): Promise<FollowedSellerRow[]> {
  const result = await db.execute<FollowedSellerRow>(sql`
    select u.id, u.handle, coalesce(nullif(u.business_name, ''), u.first_name || ' ' || u.last_name) as name,
      (select count(*)::int from follows c where c.seller_id = u.id) as followers,
      f.created_at as followed_at
    from follows f join users u on u.id = f.seller_id
    where f.follower_id = ${followerId} and u.deleted_at is null
    order by f.created_at desc limit ${limit}`);
  return result.rows;
}

/** Up to `limit` followers of the seller with an id after `after`, in id order (the fan-out's batches). */
export async function followersAfter(
  db: Db,
  sellerId: string,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const result = await db.execute<{ follower_id: string }>(sql`
    select follower_id from follows
    where seller_id = ${sellerId} ${after ? sql`and follower_id > ${after}::uuid` : sql``}
    order by follower_id limit ${limit}`);
  return result.rows.map((row) => row.follower_id);
}

export async function isFollower(
  db: Pick<Db, 'execute'>,
  followerId: string,
  sellerId: string,
): Promise<boolean> {
  const found = await db.execute(
    sql`select 1 from follows where follower_id = ${followerId} and seller_id = ${sellerId}`,
  );
  return found.rows.length > 0;
}
