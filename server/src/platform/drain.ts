import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type {} from '@fastify/websocket';
import { CloseCode } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocketServer } from 'ws';

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

/** What an upgrade gets once the drain has begun: try again later (the load balancer sends it elsewhere). */
const REFUSAL_TEXT = 'The server is shutting down';
const REFUSAL =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n' +
  `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(REFUSAL_TEXT)}\r\n\r\n${REFUSAL_TEXT}`;

/** The part of the grace after which connections still open are cut, leaving the rest for closing. */
const CONNECTIONS_SHARE = 0.75;

export interface DrainTimes {
  /** From the signal to exit (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** How long health says 503 before the server stops accepting (at most half the grace). */
  readinessDelayMs: number;
}

export interface DrainReport {
  /** Every connection ended by itself (false: some were cut at the deadline). */
  drained: boolean;
  /** Connections destroyed at the deadline. */
  cut: number;
  /** From the start of the drain to the server no longer accepting connections. */
  stoppedAcceptingMs: number;
  /** From the start of the drain to the last connection gone. */
  connectionsGoneMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM without losing anyone: readiness off (GET /api/health answers 503 and every answer says
 * `Connection: close`), upgrades refused with 503 and their socket destroyed; after the readiness
 * delay the server stops accepting, every WebSocket is told 1012 (service restart: the client comes
 * back, with jitter, to another instance) and in-flight requests finish. What is still open at
 * three quarters of the grace is destroyed, so closing the jobs, recordings, Redis and the database
 * (the app's onClose hooks, run by `app.close()` after this) keeps the last quarter.
 */
export class Drain {
  private phase: 'serving' | 'draining' | 'closing' = 'serving';
  private readonly sockets = new Set<Socket>();
  private readonly otherListeners: Array<() => void> = [];

  constructor(
    private readonly server: Server,
    private readonly websockets: WebSocketServer,
    private readonly log: FastifyBaseLogger,
  ) {
    // Every accepted connection, HTTP or upgraded, so none outlives the grace.
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** `stop` closes another listener of the app's (RTMP) when this server stops accepting. */
  onStopAccepting(stop: () => void): void {
    this.otherListeners.push(stop);
  }

  /** True from the start of the drain: the load balancer should stop sending. */
  get draining(): boolean {
    return this.phase !== 'serving';
  }

  /** The whole drain; resolves when no connection is left. Then `app.close()` closes the rest. */
  async run({ graceMs, readinessDelayMs }: DrainTimes): Promise<DrainReport> {
    const started = performance.now();
    const since = () => Math.round(performance.now() - started);
    this.refuseUpgrades();
    const delay = Math.min(readinessDelayMs, Math.floor(graceMs / 2));
    this.log.info({ readinessDelayMs: delay }, 'draining: health answers 503, upgrades are refused');
    if (delay > 0) await sleep(delay);

    const gone = this.stopAccepting();
    const stoppedAcceptingMs = since();
    this.log.info(
      { openConnections: this.sockets.size, websockets: this.websockets.clients.size },
      'draining: no longer accepting; sockets told to reconnect (1012); waiting for requests in flight',
    );
    let deadline: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      gone.then(() => true),
      new Promise<false>((resolve) => {
        deadline = setTimeout(() => resolve(false), Math.max(0, graceMs * CONNECTIONS_SHARE - since()));
      }),
    ]);
    clearTimeout(deadline);
    let cut = 0;
    if (!drained) {
      cut = this.sockets.size;
      this.log.warn({ connections: cut }, 'draining: connections still open at the deadline are cut');
      for (const socket of this.sockets) socket.destroy();
      await gone;
    }
    return { drained, cut, stoppedAcceptingMs, connectionsGoneMs: since() };
  }

  /**
   * From now on an upgrade is answered 503 and its socket destroyed: it never reaches the router,
   * whose own 503 while closing leaves the raw socket open and the server's close waiting for it.
   * The only upgrade listener on this server is @fastify/websocket's, which this replaces.
   */
  private refuseUpgrades(): void {
    if (this.phase !== 'serving') return;
    this.phase = 'draining';
    this.server.removeAllListeners('upgrade');
    this.server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
      socket.on('error', () => socket.destroy());
      socket.once('finish', () => socket.destroy());
      socket.end(REFUSAL);
    });
  }

  /**
   * Closes the listening socket (and, with it, idle keep-alive connections) and the app's other
   * listeners (RTMP), then tells every WebSocket to reconnect elsewhere. Resolves when the last connection has closed.
   */
  private stopAccepting(): Promise<void> {
    const gone = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const stop of this.otherListeners) stop();
    this.closeWebSockets();
    return gone;
  }

  /**
   * 1012 to every WebSocket; a handshake that finishes from now on is refused by ws (503, socket
   * destroyed). On its own (`app.close()` without a drain: tests, a failed start) Fastify then
   * closes the server and waits for the connections itself.
   */
  closeWebSockets(): void {
    this.refuseUpgrades();
    if (this.phase === 'closing') return;
    this.phase = 'closing';
    for (const socket of this.websockets.clients) socket.close(CloseCode.serviceRestart, 'Server restarting');
    this.websockets.close();
  }
}

/**
 * Decorates `app.drain` and makes every answer sent while draining close its connection, so a
 * keep-alive connection ends after its last request instead of holding the drain open.
 */
export const drainPlugin = fp(
  async (app: FastifyInstance) => {
    const drain = new Drain(app.server, app.websocketServer, app.log);
    app.decorate('drain', drain);
    app.addHook('onSend', async (_request, reply) => {
      if (drain.draining) reply.header('connection', 'close');
    });
    app.addHook('preClose', (done) => {
      drain.closeWebSockets();
      done();
    });
  },
  { name: 'drain', dependencies: ['@fastify/websocket'] },
);
