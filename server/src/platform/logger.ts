import type { FastifyServerOptions } from 'fastify';
import { serializeError } from '../db/query-errors.ts';
import { serializeRequest } from './request-log.ts';

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

/**
 * pino-pretty's options (serializable: they cross to its worker thread). One line per entry, as
 * `[12:00:01.234] INFO: GET /api/explore?search=lamp incoming request`; an error's fields and stack
 * follow on lines of their own. The request id, pid and host are left to the JSON form.
 */
export const PRETTY_OPTIONS = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,reqId,req,res,responseTime',
  messageFormat:
    '{if req.method}{req.method} {req.url} {end}{msg}{if res.statusCode}: {res.statusCode}{end}{if responseTime} in {responseTime} ms{end}',
  singleLine: true,
};

/**
 * The logger: JSON lines, one per entry, for machines (a log shipper, `jq`); pretty-printed by
 * pino-pretty when stdout is a terminal, for people. Either way every `err` goes through
 * serializeError (a failed query's parameters stay out) and every request's URL through
 * serializeRequest (mailed links' tokens stay out): the serializers run before the line is
 * written, so the pretty form only lays out what the JSON form holds.
 */
export function loggerOptions(
  level: string,
  stream: LogStream | undefined,
  terminal = process.stdout.isTTY === true,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const options = { level, serializers: { err: serializeError, req: serializeRequest } };
  if (stream) return { ...options, stream };
  if (terminal) return { ...options, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } };
  return options;
}
