import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';

/** One viewer sample per stream per this many seconds (the seller's average counts these slots). */
export const VIEWER_SAMPLE_SEC = 5;

export interface RoomViewers {
  roomName: string;
  viewers: number;
}

/**
 * Records each active stream's viewers in the current 5-second slot, on the database's clock so
 * every instance picks the same slot. Each instance sees the total across instances, so they all
 * write much the same figure; the highest wins and a repeat is harmless. Returns the rows written.
 * `at` stands in for now() (tests).
 */
export async function recordViewerSamples(db: Db, rooms: RoomViewers[], at?: Date): Promise<number> {
  const watched = rooms.filter((room) => room.viewers > 0);
  if (watched.length === 0) return 0;
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

/** The viewers of every room this instance has sockets in, as the hub counts them. */
export function watchedRooms(hub: RoomHub): RoomViewers[] {
  return hub.openRooms().map((roomName) => ({ roomName, viewers: hub.viewerCount(roomName) }));
}

/** Milliseconds until the middle of the next slot, so clock jitter does not skip or double one. */
function untilMidSlot(now: number): number {
  const slotMs = VIEWER_SAMPLE_SEC * 1000;
  return slotMs - ((now + slotMs / 2) % slotMs);
}

/** Samples viewers every 5 s on this instance until the returned function is called. */
export function startViewerSampling(db: Db, hub: RoomHub, log: FastifyBaseLogger): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, untilMidSlot(Date.now()));
    timer.unref();
  };
  const tick = async () => {
    try {
      await recordViewerSamples(db, watchedRooms(hub));
    } catch (error) {
      log.warn({ err: error }, 'recording viewer samples failed');
    } finally {
      schedule();
    }
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
