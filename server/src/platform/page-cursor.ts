import { type SQL, sql } from 'drizzle-orm';
import { badRequest } from './errors.ts';

/**
 * Keyset paging, newest first (GET /api/orders?role=…, GET /api/payouts/ledger): the cursor is the
 * last row's (created_at to the microsecond, id), opaque base64url to clients. Queries order by
 * `created_at desc, id desc`, select `cursorAt(created_at) as cursor_at` and filter with `afterCursor`.
 */
export type PageCursor = { createdAt: string; id: string };

/**
 * created_at as ISO 8601 (UTC) with its microseconds: a cursor cut to milliseconds would skip the
 * rows of the next page written within the same millisecond as its last.
 */
export const cursorAt = (createdAt: SQL) =>
  sql`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The rows after the cursor's (created_at, id); nothing on the first page. */
export const afterCursor = (createdAt: SQL, id: SQL, after: PageCursor | undefined) =>
  after ? sql`and (${createdAt}, ${id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;

function encodeCursor(row: { cursor_at: string; id: string }): string {
  return Buffer.from(`${row.cursor_at}|${row.id}`).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The query's cursor, or a 400 on `cursor` when this server did not make it. */
export function decodeCursor(cursor: string | undefined): PageCursor | undefined {
  if (cursor === undefined) return undefined;
  const [createdAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!UUID.test(id) || Number.isNaN(Date.parse(createdAt))) {
    throw badRequest('Invalid cursor in querystring', { cursor: 'is not one this server gave' });
  }
  return { createdAt, id };
}

/** A page from `size + 1` rows fetched: the first `size`, and the cursor after them when more follow. */
export function pageOf<Row extends { cursor_at: string; id: string }>(
  rows: Row[],
  size: number,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > size && last ? encodeCursor(last) : null };
}
