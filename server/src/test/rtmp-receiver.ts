import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';

/** The parts of node-media-server v4 (CommonJS, untyped) the tests use. */
interface NmsSession {
  streamPath: string;
  /** The session's BroadcastServer (RTMP sessions). */
  broadcast?: { publishGraceMs: number };
}
interface NodeMediaServer {
  on(event: string, listener: (session: NmsSession) => void): void;
  run(): Promise<void>;
  stop(): Promise<void>;
}
const require = createRequire(import.meta.url);
const NodeMediaServer = require('node-media-server') as new (config: object) => NodeMediaServer;
const nmsLogger = require('node-media-server/src/core/logger.js') as { level: string };

export interface RtmpReceiver {
  port: number;
  /** How many times this event (prePublish, postPublish, donePublish) happened for the stream path. */
  events(event: string, streamPath: string): number;
  stop(): Promise<void>;
}

/**
 * A real RTMP server (node-media-server) on 127.0.0.1 only: no HTTP listener, API, console or
 * recording. A publish ends as soon as its connection closes (not after a 30 s resume window),
 * so a reconnecting publisher's publish is a fresh one.
 */
export async function startRtmpReceiver(): Promise<RtmpReceiver> {
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(tmpdir(), 'ss-nms-'));
  const log = console.log;
  console.log = () => {}; // its start-up banner
  let nms: NodeMediaServer;
  try {
    nms = new NodeMediaServer({
      bind: '127.0.0.1',
      rtmp: { port },
      store: { path: storeDir },
      record: { auto: false },
      webadmin: { enable: false },
    });
  } finally {
    console.log = log;
  }
  nmsLogger.level = 'error';
  const received: Array<{ event: string; streamPath: string }> = [];
  for (const event of ['prePublish', 'postPublish', 'donePublish']) {
    nms.on(event, (session) => {
      if (session.broadcast) session.broadcast.publishGraceMs = 0;
      received.push({ event, streamPath: session.streamPath });
    });
  }
  await nms.run();
  return {
    port,
    events: (event, streamPath) =>
      received.filter((r) => r.event === event && r.streamPath === streamPath).length,
    stop: async () => {
      await nms.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
