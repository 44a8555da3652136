import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { RecordedParts } from './pipeline/hls-recorder.ts';
import { closePart, holdPublishers, recordPart, releasePublisher, renewParts } from './repo.ts';

/** How often an instance renews the leases of the publishers and recorded parts it holds. */
export const PUBLISHER_HEARTBEAT_MS = 5000;

/**
 * What this instance holds in the database, for every instance to see (ADR 0018): the lease of
 * each publisher connected here (so any instance sees a publisher gone, and the streams module
 * ends the stream after the grace) and the recorded parts its recorders write (so the replay
 * waits for them). Both are renewed every PUBLISHER_HEARTBEAT_MS.
 */
export class PublisherLeases {
  /** Rooms whose publisher is connected here. */
  private readonly publishing = new Set<string>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly instanceId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** This instance holds the room's publisher now. */
  hold(roomName: string): void {
    this.publishing.add(roomName);
    holdPublishers(this.db, [roomName], this.instanceId).catch((error) =>
      this.log.warn({ err: error, roomName }, 'taking the publisher’s lease failed; the heartbeat retries'),
    );
  }

  /** The publisher left this instance: the grace before its stream ends starts now. */
  release(roomName: string): Promise<void> {
    if (!this.publishing.delete(roomName)) return Promise.resolve();
    return releasePublisher(this.db, roomName, this.instanceId).catch((error) =>
      this.log.warn({ err: error, roomName }, 'releasing the publisher’s lease failed; it lapses'),
    );
  }

  /** Where the room's recorder records its parts: the database, for every instance to see. */
  recordedParts(roomName: string): RecordedParts {
    return {
      opened: (partId) => recordPart(this.db, roomName, partId, this.instanceId),
      closed: (partId) => closePart(this.db, roomName, partId),
    };
  }

  /** Renews, every PUBLISHER_HEARTBEAT_MS until stopHeartbeat(), the publishers' leases and `openParts()`. */
  startHeartbeat(openParts: () => string[]): void {
    this.heartbeat = setInterval(() => {
      this.renew(openParts).catch((error) =>
        this.log.warn({ err: error }, 'renewing the media leases failed'),
      );
    }, PUBLISHER_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  stopHeartbeat(): void {
    clearInterval(this.heartbeat);
  }

  private async renew(openParts: () => string[]): Promise<void> {
    await holdPublishers(this.db, [...this.publishing], this.instanceId);
    await renewParts(this.db, openParts(), this.instanceId);
  }
}
