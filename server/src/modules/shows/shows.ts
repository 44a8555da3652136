import type { User } from '@streamshop/contract/auth.ts';
import {
  type createShowBodySchema,
  type ReminderResponse,
  SHOW_MAX_DAYS_AHEAD,
  SHOW_MAX_SCHEDULED,
  type Show,
  type updateShowBodySchema,
} from '@streamshop/contract/shows.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { assertOwnUpload } from '../catalog/service.ts';
import {
  countOwnProducts,
  countScheduledShows,
  deleteReminder,
  deleteShowRow,
  findShowRow,
  insertReminder,
  insertShow,
  lockShow,
  replaceShowProducts,
  type ShowRow,
  showProductRows,
  showRowsOfSeller,
  upcomingShowRows,
  updateShowFields,
} from './repo.ts';
import { toShow } from './view.ts';

export type CreateShowInput = z.output<typeof createShowBodySchema>;
export type UpdateShowInput = z.output<typeof updateShowBodySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A show's time must be ahead, and not more than a year ahead: 400 on startsAt otherwise. */
function assertStartsAt(startsAt: Date): void {
  const ahead = startsAt.getTime() - Date.now();
  if (ahead <= 0)
    throw badRequest('Invalid startsAt: must be in the future', { startsAt: 'must be in the future' });
  if (ahead > SHOW_MAX_DAYS_AHEAD * DAY_MS) {
    throw badRequest(`Invalid startsAt: must be within ${SHOW_MAX_DAYS_AHEAD} days`, {
      startsAt: `must be within ${SHOW_MAX_DAYS_AHEAD} days`,
    });
  }
}

async function assertOwnProducts(db: Pick<Db, 'execute'>, sellerId: string, productIds: string[]) {
  if ((await countOwnProducts(db, sellerId, productIds)) !== productIds.length) {
    throw notFound('No such product in this seller’s catalogue');
  }
}

/** Rows as shows, each with its lineup (one query for every lineup). */
export async function toShows(db: Pick<Db, 'execute'>, rows: ShowRow[]): Promise<Show[]> {
  const lineups = await showProductRows(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toShow(row, lineups.get(row.id) ?? []));
}

export async function getShow(db: Db, id: string, viewerId?: string): Promise<Show> {
  const row = await findShowRow(db, id, viewerId);
  if (!row) throw notFound('Show not found');
  const [show] = await toShows(db, [row]);
  if (!show) throw notFound('Show not found');
  return show;
}

export async function createShow(
  db: Db,
  seller: User,
  input: CreateShowInput,
  publicUrl: string,
): Promise<Show> {
  assertStartsAt(input.startsAt);
  await assertOwnUpload(db, seller.id, input.coverUrl, { publicUrl, field: 'coverUrl' });
  const id = await db.transaction(async (tx) => {
    await assertOwnProducts(tx, seller.id, input.productIds);
    if ((await countScheduledShows(tx, seller.id)) >= SHOW_MAX_SCHEDULED) {
      throw conflict(
        'CONFLICT',
        `You have ${SHOW_MAX_SCHEDULED} shows scheduled: delete one or wait until one has started.`,
      );
    }
    const showId = await insertShow(tx, seller.id, input);
    await replaceShowProducts(tx, showId, input.productIds);
    return showId;
  });
  return getShow(db, id, seller.id);
}

/** The seller's own show, locked for a change that only a scheduled show takes. */
async function lockOwnScheduled(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  id: string,
  sellerId: string,
) {
  const show = await lockShow(tx, id);
  if (!show) throw notFound('Show not found');
  if (show.seller_id !== sellerId) throw forbidden('Only the show’s seller can do that');
  return show;
}

export async function updateShow(
  db: Db,
  seller: User,
  id: string,
  input: UpdateShowInput,
  publicUrl: string,
): Promise<Show> {
  const current = await findShowRow(db, id);
  if (!current) throw notFound('Show not found');
  if (current.seller_id !== seller.id) throw forbidden('Only the show’s seller can do that');
  if (input.startsAt) assertStartsAt(input.startsAt);
  if (input.coverUrl !== undefined) {
    await assertOwnUpload(db, seller.id, input.coverUrl, {
      publicUrl,
      field: 'coverUrl',
      current: current.cover_url,
    });
  }
  await db.transaction(async (tx) => {
    const show = await lockOwnScheduled(tx, id, seller.id);
    if (show.status !== 'scheduled') {
      throw conflict('CONFLICT', 'This show has started or was missed; it can no longer be changed.');
    }
    if (input.productIds) await assertOwnProducts(tx, seller.id, input.productIds);
    await updateShowFields(tx, id, input);
    if (input.productIds) await replaceShowProducts(tx, id, input.productIds);
  });
  return getShow(db, id, seller.id);
}

/** A scheduled or missed show may be deleted; a show that went live stays with its room. */
export async function deleteShow(db: Db, sellerId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const show = await lockOwnScheduled(tx, id, sellerId);
    if (show.status === 'live') throw conflict('CONFLICT', 'This show went live; it stays with its replay.');
    await deleteShowRow(tx, id);
  });
}

export async function listUpcomingShows(
  db: Db,
  options: { sellerId?: string; viewerId?: string; limit: number },
): Promise<Show[]> {
  return toShows(
    db,
    await upcomingShowRows(db, {
      ...(options.sellerId ? { sellerIds: [options.sellerId] } : {}),
      viewerId: options.viewerId,
      limit: options.limit,
    }),
  );
}

export async function listShowsOfSeller(db: Db, sellerId: string, limit: number): Promise<Show[]> {
  return toShows(db, await showRowsOfSeller(db, sellerId, limit));
}

/** "Remind me" (asking twice is one reminder); not for one's own show, nor a show that began. */
export async function remind(db: Db, userId: string, id: string): Promise<ReminderResponse> {
  const show = await findShowRow(db, id, userId);
  if (!show) throw notFound('Show not found');
  if (show.seller_id === userId) throw badRequest('This is your own show', { id: 'is your own show' });
  if (show.status !== 'scheduled') throw conflict('CONFLICT', 'This show has already started or was missed.');
  await insertReminder(db, id, userId);
  return reminderState(db, id, userId);
}

export async function forget(db: Db, userId: string, id: string): Promise<ReminderResponse> {
  const show = await findShowRow(db, id, userId);
  if (!show) throw notFound('Show not found');
  await deleteReminder(db, id, userId);
  return reminderState(db, id, userId);
}

async function reminderState(db: Db, id: string, userId: string): Promise<ReminderResponse> {
  const show = await findShowRow(db, id, userId);
  return { reminded: show?.reminded === true, reminders: Number(show?.reminders ?? 0) };
}
