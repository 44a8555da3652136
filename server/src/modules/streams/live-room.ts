import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The room an owner is live in now (the latest started, should there be two), or null. */
export async function liveRoomOfOwner(db: Db, ownerId: string): Promise<string | null> {
  const result = await db.execute<{ room_name: string }>(sql`
    select room_name from streams
    where owner_id = ${ownerId} and is_active and (ends_at is null or ends_at > now())
    order by started_at desc nulls last, created_at desc limit 1`);
  return result.rows[0]?.room_name ?? null;
}
