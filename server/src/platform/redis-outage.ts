/**
 * What the Redis-backed parts (bus, rate limits, token buckets) share to degrade rather than fail
 * while Redis is unreachable: an outage log written once per outage (not once per request), and a
 * bound on how long one command may take.
 */

/** The part of Fastify's logger an outage report needs (app.log fits). */
export interface OutageLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Until a caller passes the app's logger: one JSON line on stderr, like the app's own log lines. */
const stderrLog: OutageLog = {
  warn: (details, message) => writeLine(40, details, message),
  info: (details, message) => writeLine(30, details, message),
};

function writeLine(level: number, details: object, message: string) {
  const { err, ...rest } = details as { err?: unknown };
  const error = err instanceof Error ? { err: { type: err.name, message: err.message } } : {};
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...rest, ...error, msg: message })}\n`);
}

export interface OutageReporter {
  /** Redis failed (or is known to be down): logged on the first failure of an outage only. */
  failed(error: unknown): void;
  /** Redis answered: logged once if it was down. */
  recovered(details?: object): void;
  readonly down: boolean;
}

/** `part` names what uses Redis ("rate limits"), `meanwhile` what it does instead ("count in memory"). */
export function outageReporter(part: string, meanwhile: string, log: OutageLog = stderrLog): OutageReporter {
  let down = false;
  return {
    failed(error) {
      if (down) return;
      down = true;
      log.warn({ err: error }, `Redis unreachable: ${part} ${meanwhile} until it is back`);
    },
    recovered(details = {}) {
      if (!down) return;
      down = false;
      log.info(details, `Redis is back: ${part} on Redis again`);
    },
    get down() {
      return down;
    },
  };
}

export class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

/** Rejects after `ms`; the command's own later rejection stays handled (the race listens to it). */
export function withinMs<T>(command: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(ms)), ms);
    timer.unref();
  });
  return Promise.race([command, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether a command should go to Redis at all. Before the client's first `ready` it may (ioredis
 * queues it until the connection is up, and the caller bounds the wait); after that, only while
 * the connection is ready: during an outage the caller falls back at once instead of queueing.
 */
export function redisUsable(client: { status: string }, seenReady: boolean): boolean {
  if (client.status === 'ready') return true;
  return (
    !seenReady && (client.status === 'wait' || client.status === 'connecting' || client.status === 'connect')
  );
}

/** Tracks whether a client has been ready once (a client passed in may already be). */
export function readiness(client: { status: string; on(event: 'ready', listener: () => void): unknown }) {
  const state = { seenReady: client.status === 'ready' };
  client.on('ready', () => {
    state.seenReady = true;
  });
  return state;
}
