import type { RtmpPublishSession } from './publish-session.ts';

/** What the RTMP ingest server asks of its user (the media module): decisions and a logger. */

export interface RtmpIngestLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface RtmpPeer {
  remoteAddress: string;
  remotePort: number;
  /** The encoder's flashVer from connect. */
  flashVer: string | undefined;
}

/** Accepted: `id` names the stream (a stream or room id, never the key) on the session and in logs. */
export interface PublishAccepted {
  ok: true;
  id: string;
}
/** Refused: BadName for an unknown key or a stream already live, Denied for a known one not allowed. */
export interface PublishRefused {
  ok: false;
  code: 'BadName' | 'Denied';
}
export type PublishDecision = PublishAccepted | PublishRefused;

export interface ConnectionSettings {
  /**
   * Decides a publish. A second publisher for a stream already live: refuse it (BadName), or let
   * it take over by calling the live session's kick() before accepting.
   */
  authorize(app: string, streamKey: string, peer: RtmpPeer): Promise<PublishDecision>;
  /** Called with each accepted publish, before the publisher is told to start. */
  onPublish(session: RtmpPublishSession): void;
  log: RtmpIngestLogger;
  handshakeTimeoutMs: number;
  idleTimeoutMs: number;
  maxMessageBytes: number;
  chunkSize: number;
}
