import {
  type PublishDecision,
  type PublishEnd,
  RtmpIngestServer,
  type RtmpIngestServerOptions,
  type RtmpPublishSession,
} from './server.ts';

/**
 * For tests: an RtmpIngestServer on 127.0.0.1 (a free port) that records what it does, the
 * publishes it accepted and its log lines. The caller closes `server`.
 */

/** An accepted publish: its session, the FLV bytes it gave, and how it ended (once it has). */
export interface HarnessPublish {
  session: RtmpPublishSession;
  bytes: Buffer[];
  end?: PublishEnd;
}

export interface IngestHarness {
  server: RtmpIngestServer;
  port: number;
  /** Every log line, as JSON: `{ level, message, ...fields }`. */
  logs: string[];
  /** The accepted publishes, in order. */
  sessions: HarnessPublish[];
}

export interface IngestHarnessOptions extends Partial<RtmpIngestServerOptions> {
  /**
   * The keys accepted on app `live`, each with the stream id authorize answers (an id, not the
   * key); every other publish is refused (BadName). Default `good-key` as `stream-1`. Not used
   * when `authorize` is given.
   */
  streams?: Record<string, string>;
}

/** An authorize that accepts these keys on app `live`, as these stream ids, and refuses the rest. */
export function authorizeKeys(
  streams: Record<string, string>,
): (app: string, key: string) => Promise<PublishDecision> {
  return async (app, key) => {
    const id = streams[key];
    return app === 'live' && id ? { ok: true, id } : { ok: false, code: 'BadName' };
  };
}

/** Starts the server; `handshakeTimeoutMs` is 5 s unless given, other options as given. */
export async function startIngestHarness({
  streams = { 'good-key': 'stream-1' },
  ...options
}: IngestHarnessOptions = {}): Promise<IngestHarness> {
  const logs: string[] = [];
  const sessions: HarnessPublish[] = [];
  const server = new RtmpIngestServer({
    authorize: authorizeKeys(streams),
    onPublish: (session) => {
      const entry: HarnessPublish = { session, bytes: [] };
      sessions.push(entry);
      session.on('data', (bytes) => entry.bytes.push(bytes));
      session.on('end', (end) => {
        entry.end = end;
      });
    },
    log: {
      info: (object, message) => logs.push(JSON.stringify({ level: 'info', message, ...object })),
      warn: (object, message) => logs.push(JSON.stringify({ level: 'warn', message, ...object })),
    },
    handshakeTimeoutMs: 5000,
    ...options,
  });
  const { port } = await server.listen(0, '127.0.0.1');
  return { server, port, logs, sessions };
}
