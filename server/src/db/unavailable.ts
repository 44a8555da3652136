import { DrizzleQueryError } from 'drizzle-orm/errors';
import { sqlState } from './query-errors.ts';

/**
 * Errors that mean "the database cannot answer now" (it is restarting, down or out of
 * connections), not "this request is wrong" nor "the code is wrong". A request that meets one is
 * told to try again (503), and a chat message is refused with the same words; the pool reconnects
 * by itself once PostgreSQL is back (docs/operations.md, "When PostgreSQL restarts").
 */

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Try again in a moment.';

/**
 * Errors of a connection, marked by the pool as it sees them: a failure to open one (refused,
 * reset, the server starting up) and the error a connection in use died of (reset, broken pipe),
 * which its queries then fail with. Raw socket errors are recognised only so: a refused
 * connection to the payment provider or S3 is not the database.
 */
const connectionErrors = new WeakSet<object>();

/** Marks an error of opening or keeping a database connection; returns it. */
export function markConnectionError<T>(error: T): T {
  if (typeof error === 'object' && error !== null) connectionErrors.add(error);
  return error;
}

/**
 * SQLSTATEs of a server that cannot serve: connection exceptions (class 08), admin_shutdown
 * (57P01, a fast shutdown or pg_terminate_backend), crash_shutdown (57P02), cannot_connect_now
 * (57P03, starting up or shutting down) and too_many_connections (53300).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres says of a connection that is gone (its own errors carry no SQLSTATE). */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  const inner = error instanceof DrizzleQueryError ? error.cause : error;
  if (!(inner instanceof Error)) return false;
  if (connectionErrors.has(inner)) return true;
  const state = sqlState(inner);
  if (state !== undefined) return state.startsWith('08') || UNAVAILABLE_STATES.has(state);
  return LOST_CONNECTION.test(inner.message);
}
