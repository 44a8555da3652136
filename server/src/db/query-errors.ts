import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * What a failed query may put in the log. Drizzle's DrizzleQueryError carries the bound
 * parameters (in `params` and in its message), and PostgreSQL's error carries row values in
 * `detail` ('Key (email)=(…) already exists', 'Failing row contains (…, $argon2id$…)') and
 * `where` ('unnamed portal parameter $1 = …'): password hashes, emails, addresses. The log gets
 * the SQLSTATE, PostgreSQL's message, the names of the constraint, table and column, and the
 * query text with its $1 placeholders, never the values.
 */

/** pg's DatabaseError, as far as we read it. */
interface PgError extends Error {
  code: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

function isPgError(value: unknown): value is PgError {
  if (!(value instanceof Error)) return false;
  const { code, severity } = value as Error & { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/** The PostgreSQL error of a failed query, whether thrown by pg itself or wrapped by Drizzle. */
function pgErrorOf(error: unknown): PgError | undefined {
  if (isPgError(error)) return error;
  if (error instanceof DrizzleQueryError && isPgError(error.cause)) return error.cause;
  return undefined;
}

/** A failed query: pg's own error or Drizzle's wrapper (whose message lists the parameters). */
export const isQueryError = (error: unknown): error is DrizzleQueryError | PgError =>
  error instanceof DrizzleQueryError || isPgError(error);

/** The SQLSTATE of a failed query ('23505', '22021' …), or undefined for any other error. */
export function sqlState(error: unknown): string | undefined {
  return pgErrorOf(error)?.code;
}

/**
 * Data exceptions (class 22) quote the offending input: 'invalid input syntax for type uuid:
 * "…"', 'value "…" is out of range for type integer'. Those quotes are dropped.
 */
function redactMessage(code: string, message: string): string {
  if (!code.startsWith('22')) return message;
  return message.replace(/(value |: )"(?:[^"]|"")*"/g, '$1"[redacted]"');
}

/** The stack frames only: the first line of a stack repeats the message. */
const framesOf = (stack: string | undefined) =>
  (stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n');

/** What the logger writes under `err`. */
export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

function serializeQueryError(error: Error): SerializedError {
  const pg = pgErrorOf(error);
  // A Drizzle error without a PostgreSQL one under it: the connection failed, say.
  const cause = error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : undefined;
  const message = pg ? redactMessage(pg.code, pg.message) : (cause?.message ?? 'query failed');
  const serialized: SerializedError = { type: 'QueryFailed', message, stack: '' };
  const code = pg?.code ?? (cause as { code?: unknown } | undefined)?.code;
  if (code !== undefined) serialized.code = code;
  if (error instanceof DrizzleQueryError) serialized.query = error.query;
  for (const key of ['severity', 'constraint', 'table', 'column', 'routine'] as const) {
    if (pg?.[key] !== undefined) serialized[key] = pg[key];
  }
  serialized.stack = `QueryFailed: ${message}\n${framesOf(error.stack)}`;
  return serialized;
}

/**
 * The logger's `err` serializer: like pino's, except that a failed query (also as the `cause` of
 * another error) is reduced to what may be logged.
 */
export function serializeError(error: Error): SerializedError {
  return serializeValue(error, 0) as SerializedError;
}

function serializeValue(value: unknown, depth: number): unknown {
  if (!(value instanceof Error) || depth > 5) return value;
  if (isQueryError(value)) return serializeQueryError(value);
  const serialized: SerializedError = {
    type: value.constructor?.name ?? value.name,
    message: value.message,
    stack: value.stack ?? '',
  };
  for (const key in value) {
    if (serialized[key] !== undefined || key === 'cause') continue;
    serialized[key] = serializeValue((value as unknown as Record<string, unknown>)[key], depth + 1);
  }
  if (value.cause !== undefined) serialized.cause = serializeValue(value.cause, depth + 1);
  return serialized;
}
