import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { insertViewerSamples, VIEWER_SAMPLE_SEC } from './repo.ts';

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
  return insertViewerSamples(db, watched, at);
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
