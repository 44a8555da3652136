import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify, { type FastifyBaseLogger, type FastifyRequest } from 'fastify';
import { prettyFactory } from 'pino-pretty';
import { describe, expect, it } from 'vitest';
import { type LogStream, loggerOptions, PRETTY_OPTIONS } from './logger.ts';

const SECRET_TOKEN = 'tok3n-that-opens-an-account';
const SECRET_EMAIL = 'someone.secret@example.com';

/** A request as Fastify hands it to the `req` serializer, for a mailed link. */
const request = {
  method: 'GET',
  url: `/reset-password?token=${SECRET_TOKEN}&search=lamp`,
  host: 'localhost:3000',
  ip: '203.0.113.9',
  socket: { remotePort: 51234 },
} as unknown as FastifyRequest;

/** A failed insert as pg and Drizzle throw it: the values in Drizzle's params and pg's detail. */
function failedQuery(): Error {
  const pgError = Object.assign(
    new Error('duplicate key value violates unique constraint "users_email_key"'),
    {
      code: '23505',
      severity: 'ERROR',
      constraint: 'users_email_key',
      detail: `Key (email)=(${SECRET_EMAIL}) already exists.`,
    },
  );
  return new DrizzleQueryError('insert into users (email) values ($1)', [SECRET_EMAIL], pgError);
}

/** The lines Fastify's logger with these options writes. */
function logged(write: (logger: FastifyBaseLogger) => void): string[] {
  const lines: string[] = [];
  write(Fastify({ logger: loggerOptions('info', { write: (line) => lines.push(line) }) }).log);
  return lines;
}

describe('loggerOptions', () => {
  it('writes to the given stream (tests), pretty on a terminal, JSON otherwise', () => {
    const stream: LogStream = { write: () => {} };
    expect(loggerOptions('info', stream, true)).toMatchObject({ stream });
    expect(loggerOptions('info', stream, true)).not.toHaveProperty('transport');
    expect(loggerOptions('info', undefined, true)).toMatchObject({
      transport: { target: 'pino-pretty', options: PRETTY_OPTIONS },
    });
    expect(loggerOptions('info', undefined, false)).not.toHaveProperty('transport');
    expect(loggerOptions('warn', undefined, false)).toMatchObject({ level: 'warn' });
  });

  it('keeps tokens and query values out of both forms', () => {
    const lines = logged((logger) => {
      logger.info({ req: request, reqId: 'r1' }, 'incoming request');
      logger.error({ err: failedQuery(), reqId: 'r1' }, 'unhandled error');
    });
    expect(lines).toHaveLength(2);
    const pretty = prettyFactory({ ...PRETTY_OPTIONS, colorize: false });
    const forms = { json: lines.join(''), pretty: lines.map((line) => pretty(line)).join('') };
    for (const [form, text] of Object.entries(forms)) {
      expect(text, form).not.toContain(SECRET_TOKEN);
      expect(text, form).not.toContain(SECRET_EMAIL);
      expect(text, form).toContain('/reset-password?token=[redacted]&search=lamp');
      expect(text, form).toContain('users_email_key');
    }
    expect(forms.pretty).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/reset-password\?token=\[redacted\]&search=lamp incoming request\n/,
    );
    expect(forms.pretty).toMatch(/ERROR: unhandled error/);
    expect(forms.pretty).toContain('QueryFailed');
  });
});
