import { CloseCode } from '@streamshop/contract/live.ts';
import type { NotificationNudge } from '@streamshop/contract/notifications.ts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import { sameOrigin } from '../../platform/origin-check.ts';
import type { SessionSockets } from '../../platform/session-sockets.ts';
import { unreadCount } from './repo.ts';

/** The bus channel on which a fan-out batch names the people it notified (one message per batch). */
const CHANNEL = 'notifications:users';

/**
 * The bell, live (ADR 0023): /ws/notifications sends the signed-in user their unread count on
 * open and again whenever a notification of theirs is written, on whichever instance wrote it.
 */
export class Bell {
  readonly #sockets = new Map<string, Set<WebSocket>>();
  #unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.#unsubscribe = await this.bus.subscribe(CHANNEL, (payload) => {
      let ids: unknown;
      try {
        ids = JSON.parse(payload);
      } catch {
        return;
      }
      if (!Array.isArray(ids)) return;
      for (const id of ids) if (typeof id === 'string' && this.#sockets.has(id)) void this.#nudge(id);
    });
  }

  /** Tells every instance that these people have a new notification. */
  async notified(userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.bus.publish(CHANNEL, JSON.stringify(userIds));
  }

  /** Tells this user's sockets here their count (after they read some, say). */
  async changed(userId: string): Promise<void> {
    await this.notified([userId]);
  }

  async #nudge(userId: string): Promise<void> {
    const sockets = this.#sockets.get(userId);
    if (!sockets || sockets.size === 0) return;
    try {
      const nudge: NotificationNudge = { type: 'notifications', unread: await unreadCount(this.db, userId) };
      const frame = JSON.stringify(nudge);
      for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(frame);
    } catch (error) {
      this.log.warn({ err: error }, 'telling a bell its count failed');
    }
  }

  register(app: FastifyInstance, sessionSockets: SessionSockets, publicUrl: string): void {
    const publicOrigin = new URL(publicUrl).origin;
    app.get('/ws/notifications', { websocket: true }, (socket, request) => {
      const origin = request.headers.origin;
      if (origin && !sameOrigin(request, origin, publicOrigin)) {
        socket.close(CloseCode.forbidden, 'Cross-site WebSocket refused');
        return;
      }
      const userId = request.user?.id;
      if (!userId) {
        socket.close(CloseCode.signedOut, 'Sign in to get notifications');
        return;
      }
      sessionSockets.track(request.sessionIdHash, socket);
      let sockets = this.#sockets.get(userId);
      if (!sockets) {
        sockets = new Set();
        this.#sockets.set(userId, sockets);
      }
      sockets.add(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        if (sockets.size === 0 && this.#sockets.get(userId) === sockets) this.#sockets.delete(userId);
      });
      void this.#nudge(userId);
    });
  }

  async close(): Promise<void> {
    await this.#unsubscribe?.();
    for (const sockets of this.#sockets.values())
      for (const socket of sockets) socket.close(CloseCode.serviceRestart, 'Server restarting');
    this.#sockets.clear();
  }
}
