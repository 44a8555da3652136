import { SHOW_REMINDER_MINUTES } from '@streamshop/contract/shows.ts';
import type { Db } from '../../db/client.ts';
import { showOfStream, showsStartingWithin } from '../shows/service.ts';
import { streamsStartedWithin } from '../streams/service.ts';
import { existingEventKeys, type FanoutEvent, insertFanout } from './repo.ts';

/**
 * The events people are told about, read off the facts (ADR 0023): a stream that went live, a
 * show about to start. Every instance looks; the event's key makes the second look a no-op.
 */

/** A stream that went live longer ago than this is not announced any more (a long outage). */
const LIVE_EVENT_WINDOW_SEC = 10 * 60;

export async function recordDueEvents(db: Db, now = new Date()): Promise<number> {
  const events: FanoutEvent[] = [];
  const started = await streamsStartedWithin(db, LIVE_EVENT_WINDOW_SEC);
  const soon = await showsStartingWithin(db, SHOW_REMINDER_MINUTES);
  const known = await existingEventKeys(db, [
    ...started.map((stream) => `live:${stream.id}`),
    ...soon.map((show) => `reminder:${show.id}:${new Date(show.starts_at).getTime()}`),
  ]);
  for (const stream of started) {
    const eventKey = `live:${stream.id}`;
    if (known.has(eventKey)) continue;
    events.push({
      eventKey,
      sellerId: stream.owner_id,
      showId: (await showOfStream(db, stream.id)) ?? null,
      text: `@${stream.owner_handle} is live now: ${stream.title}`,
      link: `/room/${stream.room_name}`,
      subject: `@${stream.owner_handle} is live now`,
    });
  }
  for (const show of soon) {
    // The show's time is in the key: a show moved after its reminder went out is reminded of again.
    const eventKey = `reminder:${show.id}:${new Date(show.starts_at).getTime()}`;
    if (known.has(eventKey)) continue;
    const minutes = Math.max(1, Math.round((new Date(show.starts_at).getTime() - now.getTime()) / 60_000));
    const when = `starts in ${minutes} minute${minutes === 1 ? '' : 's'}`;
    events.push({
      eventKey,
      sellerId: show.seller_id,
      showId: show.id,
      text: `${show.title} with @${show.seller_handle} ${when}`,
      link: `/shows/${show.id}`,
      subject: `Reminder: ${show.title} ${when}`,
    });
  }
  for (const event of events) await insertFanout(db, event);
  return events.length;
}
