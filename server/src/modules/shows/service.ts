import type { Show } from '@streamshop/contract/shows.ts';
import type { Db } from '../../db/client.ts';
import { type ShowRow, showIdOfStream, showRowsStartingWithin, upcomingShowRows } from './repo.ts';
import { toShows } from './shows.ts';

/**
 * What other modules may use of shows: the upcoming shows of some sellers (the Following view),
 * those whose reminders are due, a stream's show and the people reminded (the notifications).
 */
export { remindedAfter } from './repo.ts';
export type { ShowRow };

/** How many upcoming shows the Following view lists. */
const FOLLOWING_UPCOMING_LIMIT = 24;

export async function upcomingShowsOfSellers(db: Db, sellerIds: string[], viewerId: string): Promise<Show[]> {
  return toShows(db, await upcomingShowRows(db, { sellerIds, viewerId, limit: FOLLOWING_UPCOMING_LIMIT }));
}

/** Scheduled shows that start within `minutes`. */
export function showsStartingWithin(db: Db, minutes: number): Promise<ShowRow[]> {
  return showRowsStartingWithin(db, minutes);
}

/** The show a stream was started from, if any. */
export function showOfStream(db: Db, streamId: string): Promise<string | undefined> {
  return showIdOfStream(db, streamId);
}
