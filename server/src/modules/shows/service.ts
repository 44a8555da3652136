import type { Show } from '@streamshop/contract/shows.ts';
import type { Db } from '../../db/client.ts';
import {
  findShowRow,
  type ShowRow,
  showIdOfStream,
  showRowsStartingWithin,
  upcomingShowRows,
} from './repo.ts';
import { toShows } from './shows.ts';

/**
 * What other modules may use of shows: the upcoming shows of some sellers (the Following view),
 * those whose reminders are due, a stream's show and the people reminded (the notifications);
 * one show as anyone sees it (the show page's head, seo).
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

/** A show as a signed-out visitor reads it (GET /api/shows/:id), or undefined for no such show. */
export async function findShow(db: Db, id: string): Promise<Show | undefined> {
  const row = await findShowRow(db, id);
  if (!row) return undefined;
  const [show] = await toShows(db, [row]);
  return show;
}
