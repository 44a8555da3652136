import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { addressBucket } from '../../../../platform/address-bucket.ts';
import { IngestConnection, type IngestConnectionSettings } from './connection.ts';
import type { ConnectionSettings, RtmpIngestLogger } from './ingest-types.ts';
import type { RtmpPublishSession } from './publish-session.ts';

export { keyIdOf } from './connection.ts';
export type {
  PublishAccepted,
  PublishDecision,
  PublishRefused,
  RtmpIngestLogger,
  RtmpPeer,
} from './ingest-types.ts';
export type { PublishEnd, PublishEndReason, RtmpPublishSession } from './publish-session.ts';

/**
 * The RTMP ingest server: OBS, ffmpeg and hardware encoders publish to
 * rtmp://host:RTMP_PORT/<app>/<stream key>; each accepted publish becomes a session whose FLV
 * bytes go to FlvSplitter (ADR 0013). Plain TCP only: RTMPS is a TLS terminator in front.
 *
 * Whatever arrives (garbage, another protocol, a stalled or oversized client, too many in all or
 * from one address), the offending socket is destroyed with a warning, the server goes on, and no log
 * line names a stream key.
 */
export interface RtmpIngestServerOptions {
  authorize: ConnectionSettings['authorize'];
  onPublish: ConnectionSettings['onPublish'];
  log: RtmpIngestLogger;
  /** Open connections at once, publishing or not; more are closed at once. Default 100. */
  maxConnections?: number;
  /**
   * Open connections at once from one address (IPv4) or /64 (IPv6); more are closed at once, so
   * that one client cannot take every slot of maxConnections. Default 10 (at most maxConnections).
   * Behind a TLS terminator every RTMPS connection comes from its address: raise it there.
   */
  maxConnectionsPerAddress?: number;
  /** From the TCP connection to the end of RTMP's own handshake (C0, C1 → C2). Default 5 s. */
  rtmpHandshakeTimeoutMs?: number;
  /** From the TCP connection to the publish being accepted (handshake, commands). Default 10 s. */
  handshakeTimeoutMs?: number;
  /** No bytes in or out for this long closes the connection. Default 30 s. */
  idleTimeoutMs?: number;
  /** The longest RTMP message accepted. Default 8 MB. */
  maxMessageBytes?: number;
  /** The chunk size the server sends with (and asks for: ffmpeg adopts it). Default 4096. */
  chunkSize?: number;
}

/** Open connections one address may hold, by default (RTMP_CONNECTIONS_PER_ADDRESS). */
export const RTMP_CONNECTIONS_PER_ADDRESS = 10;

export class RtmpIngestServer {
  private readonly server: Server;
  private readonly connections = new Set<IngestConnection>();
  /** Open connections by addressBucket(). */
  private readonly perAddress = new Map<string, number>();
  private readonly settings: IngestConnectionSettings;
  private readonly maxConnections: number;
  private readonly maxConnectionsPerAddress: number;
  private closed: Promise<void> | undefined;

  constructor(options: RtmpIngestServerOptions) {
    this.maxConnections = options.maxConnections ?? 100;
    this.maxConnectionsPerAddress = Math.min(
      options.maxConnectionsPerAddress ?? RTMP_CONNECTIONS_PER_ADDRESS,
      this.maxConnections,
    );
    this.settings = {
      authorize: options.authorize,
      onPublish: options.onPublish,
      log: options.log,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      rtmpHandshakeTimeoutMs: options.rtmpHandshakeTimeoutMs ?? 5000,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      maxMessageBytes: options.maxMessageBytes ?? 8 * 1024 * 1024,
      chunkSize: Math.min(Math.max(options.chunkSize ?? 4096, 128), 0x7fffffff),
    };
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', (error) => options.log.warn({ err: error }, 'rtmp ingest server error'));
  }

  /** Starts listening; resolves with the address (port 0 picks a free port). */
  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.server.once('error', failed);
      this.server.listen(port, host, () => {
        this.server.off('error', failed);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** The sessions publishing now. */
  get sessions(): RtmpPublishSession[] {
    return [...this.connections].flatMap((connection) => connection.publishing ?? []);
  }

  /**
   * Takes no new connection (a drain: encoders reconnect to another instance); the ones open go
   * on. Resolves when the last of them has closed.
   */
  stopListening(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => this.server.close(() => resolve()));
    return this.closed;
  }

  /** Stops listening and drops every connection (sessions end with 'server-closed'). */
  close(): Promise<void> {
    const closed = this.stopListening();
    for (const connection of this.connections) connection.shutdown();
    return closed;
  }

  private accept(socket: Socket): void {
    socket.on('error', () => {});
    if (this.connections.size >= this.maxConnections) {
      this.settings.log.warn(
        { remoteAddress: socket.remoteAddress, maxConnections: this.maxConnections },
        'rtmp connection refused: too many connections',
      );
      socket.destroy();
      return;
    }
    const address = socket.remoteAddress;
    if (!address) {
      socket.destroy(); // gone already
      return;
    }
    const bucket = addressBucket(address);
    const open = this.perAddress.get(bucket) ?? 0;
    if (open >= this.maxConnectionsPerAddress) {
      this.settings.log.warn(
        { remoteAddress: address, maxConnectionsPerAddress: this.maxConnectionsPerAddress },
        'rtmp connection refused: too many connections from one address',
      );
      socket.destroy();
      return;
    }
    this.perAddress.set(bucket, open + 1);
    const connection = new IngestConnection(socket, this.settings, () => {
      this.connections.delete(connection);
      const left = (this.perAddress.get(bucket) ?? 1) - 1;
      if (left > 0) this.perAddress.set(bucket, left);
      else this.perAddress.delete(bucket);
    });
    this.connections.add(connection);
  }
}
