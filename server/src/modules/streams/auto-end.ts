import { PUBLISHER_GRACE_SEC } from '@streamshop/contract/ingest.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { endStreamsDue } from './repo.ts';

/** How often every instance looks for streams due to end: well inside the plan limit's ±2 s. */
export const AUTO_END_INTERVAL_MS = 1000;

export interface AutoEndOptions {
  /** How long a publisher may be gone before its stream ends (default PUBLISHER_GRACE_SEC). */
  publisherGraceMs?: number;
  /** How often the media module renews a connected publisher's lease. */
  publisherHeartbeatMs: number;
  /** Streams this instance just ended (their replay may be made here at once). */
  onEnded?: (roomNames: string[]) => void;
}

/**
 * Ends streams whose time is up, or whose publisher has been gone for the grace, and tells their
 * viewers. State lives in the database (ends_at, the publisher's lease), so this works after a
 * restart and on any instance, whichever instance held the publisher; the UPDATE ends each stream
 * exactly once even when instances race, and that instance tells every viewer.
 */
async function endDue(db: Db, hub: RoomHub, options: AutoEndOptions) {
  const ended = await endStreamsDue(db, {
    graceSec: (options.publisherGraceMs ?? PUBLISHER_GRACE_SEC * 1000) / 1000,
    heartbeatSec: options.publisherHeartbeatMs / 1000,
  });
  await Promise.all(ended.map((stream) => hub.publish(stream.roomName, { type: 'stream_ended' })));
  return ended;
}

/** endDue once; returns the room names it ended. */
export async function endExpired(
  db: Db,
  hub: RoomHub,
  options: AutoEndOptions = { publisherHeartbeatMs: 5000 },
): Promise<string[]> {
  return (await endDue(db, hub, options)).map((stream) => stream.roomName);
}

/** endDue every AUTO_END_INTERVAL_MS; returns the function that stops it. */
export function startAutoEnd(
  db: Db,
  hub: RoomHub,
  log: FastifyBaseLogger,
  options: AutoEndOptions,
): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const ended = await endDue(db, hub, options);
      for (const reason of ['limit', 'publisher-gone'] as const) {
        const rooms = ended.filter((stream) => stream.reason === reason).map((stream) => stream.roomName);
        if (rooms.length === 0) continue;
        const message =
          reason === 'limit' ? 'ended streams at their plan limit' : 'ended streams whose publisher is gone';
        log.info({ rooms }, message);
      }
      if (ended.length > 0) options.onEnded?.(ended.map((stream) => stream.roomName));
    } catch (error) {
      log.warn({ err: error }, 'auto-end check failed');
    } finally {
      running = false;
    }
  }, AUTO_END_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
