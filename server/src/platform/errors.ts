import type { ErrorBody, ErrorCode } from '@streamshop/contract/errors.ts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { sqlState } from '../db/query-errors.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { StorageUnavailableError } from './storage.ts';

/** The one error type handlers throw; the error handler turns it into `{message, code, fields?}`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, fields ? 'VALIDATION_FAILED' : 'BAD_REQUEST', message, fields);
export const unauthorized = (message = 'Unauthorized') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Forbidden') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (code: ErrorCode, message: string, fields?: Record<string, string>) =>
  new AppError(409, code, message, fields);
export const tooManyRequests = (retryAfterSec: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many attempts. Please wait and try again.', undefined, {
    'retry-after': String(retryAfterSec),
  });

/** Seconds a client is asked to wait before trying again while the database is away. */
const DATABASE_RETRY_AFTER_SEC = 2;

/** 503 while the database cannot answer (restarting, down): a clear "try again", never a 500. */
export const databaseUnavailable = () =>
  new AppError(503, 'SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, undefined, {
    'retry-after': String(DATABASE_RETRY_AFTER_SEC),
  });

/** Seconds a client is asked to wait before asking for a media file again while storage is away. */
const STORAGE_RETRY_AFTER_SEC = 1;

/** 503 while media storage does not answer (S3 away, a read broken off): "try again", never a 500. */
export const storageUnavailable = () =>
  new AppError(503, 'SERVICE_UNAVAILABLE', 'Media storage is not answering. Please try again.', undefined, {
    'retry-after': String(STORAGE_RETRY_AFTER_SEC),
  });

/**
 * Headers a route may have set for the answer it meant to give (a file's type, length and
 * caching) that would be wrong on the error's JSON: a length that is not the body's, a type
 * Fastify will not serialize an object as, a year-long cache of a 503. Errors are not stored.
 */
const CONTENT_HEADERS = ['content-type', 'content-length', 'content-encoding', 'etag'];

/** Joins a validation issue path to the field name the client shows: ['body','handle'] -> 'handle'. */
function fieldName(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
}

/**
 * SQLSTATEs of text PostgreSQL cannot store: character_not_in_repertoire (what both PostgreSQL
 * and PGlite raise for a NUL, 'invalid byte sequence for encoding "UTF8": 0x00') and
 * untranslatable_character. The schemas refuse such text first (contract/src/text.ts); this
 * answers a field they miss with 400 instead of 500.
 */
const INVALID_TEXT_STATES = new Set(['22021', '22P05']);

function describeFields(fields: Record<string, string>): string {
  const [name, reason] = Object.entries(fields)[0] ?? ['body', 'is invalid'];
  return `${name}: ${reason}`;
}

function bodyOf(error: FastifyError): { status: number; body: ErrorBody } | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const name = fieldName(issue.instancePath);
      fields[name] ??= issue.message ?? 'is invalid';
    }
    const where = error.validationContext === 'body' ? '' : ` in ${error.validationContext}`;
    return {
      status: 400,
      body: { message: `Invalid ${describeFields(fields)}${where}`, code: 'VALIDATION_FAILED', fields },
    };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { message: 'Malformed JSON body', code: 'INVALID_JSON' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { message: 'Send the body as application/json', code: 'UNSUPPORTED_MEDIA_TYPE' },
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: { message: 'Invalid Content-Length', code: 'BAD_REQUEST' } };
  }
  if (error.statusCode === 429) {
    return { status: 429, body: { message: error.message, code: 'RATE_LIMITED' } };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { message: error.message, code: 'BAD_REQUEST' } };
  }
  return undefined;
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      for (const name of CONTENT_HEADERS) {
        reply.removeHeader(name);
        // A stream's headers are set on the raw response before its first byte (Fastify).
        if (!reply.raw.headersSent) reply.raw.removeHeader(name);
      }
      reply.header('cache-control', 'no-store');
      if (error instanceof StorageUnavailableError) {
        request.log.warn({ err: error }, 'media storage is unavailable');
        const unavailable = storageUnavailable();
        return reply
          .status(unavailable.status)
          .headers(unavailable.headers ?? {})
          .send({ message: unavailable.message, code: unavailable.code } satisfies ErrorBody);
      }
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        const body: ErrorBody = { message: error.message, code: error.code };
        if (error.fields) body.fields = error.fields;
        return reply.status(error.status).send(body);
      }
      const known = bodyOf(error);
      if (known) return reply.status(known.status).send(known.body);
      if (isDatabaseUnavailable(error)) {
        // Not this request's fault nor a bug: PostgreSQL is restarting or away (logged per request
        // at warn; the pool reconnects by itself).
        request.log.warn({ err: error }, 'the database is unavailable');
        const unavailable = databaseUnavailable();
        return reply
          .status(unavailable.status)
          .headers(unavailable.headers ?? {})
          .send({ message: unavailable.message, code: unavailable.code } satisfies ErrorBody);
      }
      if (INVALID_TEXT_STATES.has(sqlState(error) ?? '')) {
        // The client's fault, but a schema let it through: worth a look.
        request.log.warn({ err: error }, 'text the database cannot store reached a query');
        return reply.status(400).send({
          message: 'The request contains characters that cannot be stored (such as NUL)',
          code: 'BAD_REQUEST',
        } satisfies ErrorBody);
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .status(500)
        .send({ message: 'Something went wrong on our side', code: 'INTERNAL' } satisfies ErrorBody);
    });
  },
  { name: 'errors' },
);
