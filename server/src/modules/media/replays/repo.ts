import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';

/** The replay's queries: its claim (a lease in the stream's row, ADR 0018) and the parts it joins. */

/**
 * Claims the making of the ended stream's replay for `leaseSec`: true for exactly one caller while
 * the lease runs. Only once nothing more can come: no part still written by a live instance, and
 * no publisher still held by one (each is renewed every few seconds; `staleSec` without it means
 * its instance is gone).
 */
export async function claimReplay(
  db: Db,
  roomName: string,
  instanceId: string,
  { leaseSec, staleSec }: { leaseSec: number; staleSec: number },
): Promise<{ streamId: string } | undefined> {
  const result = await db.execute<{ id: string }>(sql`
    update streams s set replay_state = 'building', replay_builder = ${instanceId},
      replay_lease_until = now() + make_interval(secs => ${leaseSec})
    where s.room_name = ${roomName} and s.ended_at is not null and s.vod_url is null
      and (s.replay_state is null or (s.replay_state = 'building' and s.replay_lease_until < now()))
      and (s.publisher_instance is null or s.publisher_seen_at < now() - make_interval(secs => ${staleSec}))
      and not exists (
        select 1 from stream_parts p where p.stream_id = s.id and p.closed_at is null
          and p.seen_at >= now() - make_interval(secs => ${staleSec}))
    returning s.id`);
  const row = result.rows[0];
  return row && { streamId: row.id };
}

/**
 * The replay is made (`vodUrl`), or there is none to make (null: nothing was recorded). False when
 * this instance's claim lapsed and another took it over.
 */
export async function finishReplay(
  db: Db,
  streamId: string,
  instanceId: string,
  vodUrl: string | null,
): Promise<boolean> {
  const result = await db.execute(sql`
    update streams set vod_url = ${vodUrl}, replay_lease_until = null,
      replay_state = case when ${vodUrl}::text is null then 'empty' else 'ready' end
    where id = ${streamId} and replay_state = 'building' and replay_builder = ${instanceId}`);
  return (result.rowCount ?? 0) > 0;
}

/** This instance could not make the replay: another may try at once. */
export async function releaseReplay(db: Db, streamId: string, instanceId: string): Promise<void> {
  await db.execute(sql`
    update streams set replay_state = null, replay_lease_until = null
    where id = ${streamId} and replay_state = 'building' and replay_builder = ${instanceId}`);
}

/** The stream's parts in the order they started, and whether each is closed. */
export async function partsOf(db: Db, streamId: string): Promise<Array<{ id: string; closed: boolean }>> {
  const result = await db.execute<{ id: string; closed: boolean }>(sql`
    select id, closed_at is not null as closed from stream_parts where stream_id = ${streamId}
    order by started_at, id`);
  return result.rows;
}

/**
 * Ended streams (in the last 7 days) whose replay nobody has made or is making now: their claim is
 * open, or lapsed.
 */
export async function replaysToMake(db: Db, limit = 50): Promise<string[]> {
  const result = await db.execute<{ room_name: string }>(sql`
    select room_name from streams
    where ended_at is not null and vod_url is null and replay_state is distinct from 'empty'
      and (replay_state is null or replay_lease_until < now())
      and ended_at > now() - interval '7 days'
    order by ended_at limit ${limit}`);
  return result.rows.map((row) => row.room_name);
}

/** How long a finished stream's part rows stay (they say which instance recorded what). */
export const PARTS_KEPT_DAYS = 7;

/**
 * Deletes the part rows of streams whose replay was settled (made, or nothing to make) and which
 * ended over PARTS_KEPT_DAYS ago, at most `limit` at a time; answers how many went.
 */
export async function pruneStreamParts(db: Db, limit = 1000): Promise<number> {
  const result = await db.execute(sql`
    delete from stream_parts where (stream_id, id) in (
      select p.stream_id, p.id from stream_parts p join streams s on s.id = p.stream_id
      where s.replay_state in ('ready', 'empty')
        and s.ended_at < now() - make_interval(days => ${PARTS_KEPT_DAYS})
      limit ${limit})`);
  return result.rowCount ?? 0;
}
