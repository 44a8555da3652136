import type { Stream } from '@streamshop/contract/catalog.ts';
import { PLAN_STREAM_SECONDS, type Plan } from '@streamshop/contract/constants.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import type { StreamRecord } from './repo.ts';
import {
  liveStreamRecords,
  liveStreamRecordsOfOwners,
  setPlanOfUnstartedStreams,
  streamRecordsOfOwner,
  streamRecordsStartedWithin,
} from './repo.ts';
import { toStream } from './stream-view.ts';

/** The room an owner is live in now (the product page's seller). */
export { liveRoomOfOwner } from './live-room.ts';
/** What other modules may use of the stream records. */
export { findStreamByRoom, forgetStreamsOfOwner, type StreamRecord } from './repo.ts';
/** Going live and ending, for whoever acts for the owner (an encoder publishing with their key). */
/** A new room for a seller (a scheduled show going live). */
export { createRoom, endStream, startStream } from './rooms.ts';
export { toStream } from './stream-view.ts';

/**
 * The owner's plan changed: streams they created but have not started follow it (length, restream);
 * a live stream keeps the limits it started with until it ends.
 */
export function applyPlanToUnstartedStreams(tx: Tx, ownerId: string, plan: Plan): Promise<void> {
  return setPlanOfUnstartedStreams(tx, ownerId, plan, PLAN_STREAM_SECONDS[plan]);
}

/**
 * The live list is read on every explore page; a couple of seconds of staleness is invisible next
 * to the client's 30 s refresh, and saves a query per page view.
 */
const LIVE_LIST_TTL_MS = 2000;
const liveListCache = new WeakMap<Db, { at: number; value: Promise<Stream[]> }>();

export function listLiveStreamsCached(db: Db): Promise<Stream[]> {
  const hit = liveListCache.get(db);
  if (hit && Date.now() - hit.at < LIVE_LIST_TTL_MS) return hit.value;
  const value = listLiveStreams(db);
  liveListCache.set(db, { at: Date.now(), value });
  value.catch(() => liveListCache.delete(db));
  return value;
}

/** Streams live right now (active and not past their plan's end), most watched first. */
export async function listLiveStreams(db: Db, limit = 48): Promise<Stream[]> {
  return (await liveStreamRecords(db, limit)).map(toStream);
}

/** The rooms live now of these owners (the Following view). */
export async function liveStreamsOfOwners(db: Db, ownerIds: string[]): Promise<Stream[]> {
  return (await liveStreamRecordsOfOwners(db, ownerIds)).map(toStream);
}

/** Streams that went live within the last `withinSec` seconds and are still live. */
export function streamsStartedWithin(db: Db, withinSec: number): Promise<StreamRecord[]> {
  return streamRecordsStartedWithin(db, withinSec);
}

/** GET /api/streams/mine lists at most this many, newest first. */
export const MY_STREAMS_LIMIT = 200;

export async function listStreamsOfOwner(db: Db, ownerId: string, onlyWithVod = false): Promise<Stream[]> {
  return (await streamRecordsOfOwner(db, ownerId, onlyWithVod, MY_STREAMS_LIMIT)).map(toStream);
}

/** The bus channel on which an instance names the streams it ended by itself (the plan's limit, a publisher gone). */
const STREAMS_ENDED_CHANNEL = 'streams-ended';

export function announceStreamsEnded(bus: Bus, roomNames: string[]): Promise<void> {
  return bus.publish(STREAMS_ENDED_CHANNEL, JSON.stringify(roomNames));
}

/** Hears the streams ended by auto-end on any instance; returns the function that stops listening. */
export function onStreamsEnded(
  bus: Bus,
  listener: (roomNames: string[]) => void,
): Promise<() => Promise<void>> {
  return bus.subscribe(STREAMS_ENDED_CHANNEL, (payload) => listener(JSON.parse(payload) as string[]));
}
