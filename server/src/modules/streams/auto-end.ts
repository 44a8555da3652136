import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { endExpiredStreams } from './rooms.ts';

/** How often every instance looks for streams past their plan's limit: well inside the ±2 s. */
export const AUTO_END_INTERVAL_MS = 1000;

/**
 * Ends streams whose time is up. State lives in the database (ends_at), so this works after a
 * restart and on any instance; the UPDATE ends each stream exactly once even when instances race.
 */
export async function endExpired(db: Db, hub: RoomHub): Promise<string[]> {
  const ended = await endExpiredStreams(db);
  await Promise.all(ended.map((roomName) => hub.publish(roomName, { type: 'stream_ended' })));
  return ended;
}

export function startAutoEnd(db: Db, hub: RoomHub, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const ended = await endExpired(db, hub);
      if (ended.length) log.info({ rooms: ended }, 'ended streams at their plan limit');
    } catch (error) {
      log.warn({ err: error }, 'auto-end check failed');
    } finally {
      running = false;
    }
  }, AUTO_END_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
