import type { ServerMessage } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../../db/client.ts';
import type { Bus } from '../../../../platform/bus.ts';
import { startStream } from '../../../streams/service.ts';
import { FlvError } from '../../containers/flv.ts';
import { FLV_SOURCE } from '../../containers/mime-types.ts';
import { setEncoderConnected } from '../../keys/repo.ts';
import { streamOfKey } from '../../keys/stream-keys.ts';
import type { MediaService } from '../../service.ts';
import { keyIdOf, type PublishDecision, RtmpIngestServer, type RtmpPublishSession } from './server.ts';

/** The RTMP application encoders publish to: rtmp://host[:port]/live/<stream key>. */
export const RTMP_APP = 'live';

/** Rooms whose encoder every instance drops (the key was rotated). */
const DROP_CHANNEL = 'encoder-drop';

export interface EncoderIngestOptions {
  db: Db;
  bus: Bus;
  media: MediaService;
  log: FastifyBaseLogger;
  /** Tells the room's viewers (stream_started) on every instance. */
  announce: (roomName: string, message: ServerMessage) => Promise<void>;
  /** Open RTMP connections one address may hold (RTMP_CONNECTIONS_PER_ADDRESS); the server's default when unset. */
  connectionsPerAddress?: number;
}

/** Drops the room's encoder on whichever instance it publishes (its key was replaced). */
export async function dropEncoderEverywhere(bus: Bus, roomName: string): Promise<void> {
  await bus.publish(DROP_CHANNEL, roomName);
}

/**
 * Going live from OBS: the RTMP server's publishes, fed into the same media pipeline as the
 * browser's (ADR 0013). A stream key opens its stream; a created stream goes live when its encoder
 * connects; a newer publish of the same stream takes over; the stream ends at End Stream, at the
 * plan's limit, or when its publisher has been gone for PUBLISHER_GRACE_SEC (any instance ends it:
 * the publisher's lease is in the stream's row, ADR 0018).
 */
export class EncoderIngest {
  private readonly server: RtmpIngestServer;
  /** The encoder publishing each room on this instance. */
  private readonly sessions = new Map<string, RtmpPublishSession>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly options: EncoderIngestOptions) {
    this.server = new RtmpIngestServer({
      authorize: (app, key, peer) => this.authorize(app, key, peer.remoteAddress),
      onPublish: (session) => this.publish(session),
      log: options.log,
      maxConnectionsPerAddress: options.connectionsPerAddress,
    });
    options.media.onStreamEnded((roomName) => this.drop(roomName, 'The stream has ended'));
  }

  async listen(port: number, host: string): Promise<number> {
    this.unsubscribe = await this.options.bus.subscribe(DROP_CHANNEL, (roomName) =>
      this.drop(roomName, 'The stream key was changed'),
    );
    return (await this.server.listen(port, host)).port;
  }

  /** A drain: no new encoder connects here; those publishing go on until the app closes. */
  stopAccepting(): void {
    void this.server.stopListening();
  }

  async close(): Promise<void> {
    await this.unsubscribe?.();
    await this.server.close();
  }

  private drop(roomName: string, reason: string): void {
    this.sessions.get(roomName)?.kick(reason);
  }

  private async authorize(app: string, key: string, remoteAddress: string): Promise<PublishDecision> {
    const { db, log, announce } = this.options;
    const record = app === RTMP_APP ? await streamOfKey(db, key) : undefined;
    if (!record) {
      // Not the app either: a key pasted into the server URL field arrives as the app.
      log.warn({ keyId: keyIdOf(key), remoteAddress }, 'rtmp publish refused: unknown stream key');
      return { ok: false, code: 'BadName' };
    }
    if (record.ended) {
      log.warn({ roomName: record.roomName, remoteAddress }, 'rtmp publish refused: the stream has ended');
      return { ok: false, code: 'Denied' };
    }
    if (!record.isActive) {
      // A created stream goes live when its encoder connects: the plan's clock starts now.
      const stream = await startStream(db, record.ownerId, record.roomName);
      if (stream.endsAt) await announce(record.roomName, { type: 'stream_started', endsAt: stream.endsAt });
    }
    // A newer publish of the same stream takes over: the old session goes without ending anything.
    const previous = this.sessions.get(record.roomName);
    this.sessions.delete(record.roomName);
    previous?.kick('Another encoder took over this stream');
    return { ok: true, id: record.roomName };
  }

  private publish(session: RtmpPublishSession): void {
    const { db, media, log } = this.options;
    const roomName = session.id;
    this.sessions.set(roomName, session);
    const buffered: Buffer[] = [];
    let ready = false;
    const push = (chunk: Buffer) => {
      try {
        media.pushFromPublisher(roomName, chunk);
      } catch (error) {
        if (!(error instanceof FlvError)) throw error;
        session.kick('The server could not read this video.');
      }
    };
    session.on('data', (chunk) => {
      if (ready) push(chunk);
      else buffered.push(chunk);
    });
    session.once('end', (end) => {
      if (this.sessions.get(roomName) !== session) return;
      this.sessions.delete(roomName);
      log.info({ roomName, reason: end.reason }, 'encoder left');
      void media.stopPublishing(roomName);
      void setEncoderConnected(db, roomName, false).catch((error) =>
        log.warn({ err: error, roomName }, 'saving the encoder state failed'),
      );
      // Dropped for a reset key or unreadable video too: the seller has the grace to come back
      // (stopPublishing released the publisher's lease; a takeover never gets here).
    });
    void (async () => {
      await media.startPublishing(roomName, FLV_SOURCE, (reason) => session.kick(reason));
      await setEncoderConnected(db, roomName, true);
      log.info({ roomName, remoteAddress: session.remoteAddress }, 'encoder publishing');
      ready = true;
      for (const chunk of buffered.splice(0)) push(chunk);
    })().catch((error) => {
      log.error({ err: error, roomName }, 'starting an encoder publish failed');
      session.kick('Server error');
    });
  }
}

/**
 * The RTMP listener on `port` (0: none). A port already taken is logged and leaves the rest of
 * the server running without RTMP ingest: browsers can still go live.
 */
export async function startEncoderIngest(
  options: EncoderIngestOptions & { port: number; host: string },
): Promise<EncoderIngest | undefined> {
  if (options.port === 0) return undefined;
  const ingest = new EncoderIngest(options);
  try {
    const port = await ingest.listen(options.port, options.host);
    options.log.info({ port }, 'rtmp ingest listening');
    return ingest;
  } catch (error) {
    options.log.error(
      { err: error, port: options.port },
      'rtmp ingest could not listen: going on without it',
    );
    await ingest.close().catch(() => {});
    return undefined;
  }
}
