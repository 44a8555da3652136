import { CloseCode } from '@streamshop/contract/live.ts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../db/client.ts';
import type { Bus } from './bus.ts';

const CHANNEL = 'sessions:ended';
/** How often every socket's session is looked up again: the net under a missed announcement. */
export const SESSION_RECHECK_MS = 30_000;

/**
 * The WebSockets opened under each session, so that when the session ends its sockets stop acting
 * as the user: at once on every instance (the end is announced on the bus), and within
 * SESSION_RECHECK_MS if an announcement is lost or the session simply expired.
 */
export class SessionSockets {
  readonly #sockets = new Map<string, Set<WebSocket>>();
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly idleTimeoutMs: number,
    private readonly recheckMs = SESSION_RECHECK_MS,
  ) {}

  async start(): Promise<void> {
    this.#unsubscribe = await this.bus.subscribe(CHANNEL, (idHash) => this.#closeAll(idHash));
    this.#timer = setInterval(() => {
      this.recheck().catch((error) => this.log.warn({ err: error }, 'rechecking socket sessions failed'));
    }, this.recheckMs);
    this.#timer.unref();
  }

  /** Remembers a socket opened with a session (no-op for a signed-out one) until it closes. */
  track(idHash: string | null, socket: WebSocket): void {
    if (!idHash) return;
    let sockets = this.#sockets.get(idHash);
    if (!sockets) {
      sockets = new Set();
      this.#sockets.set(idHash, sockets);
    }
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && this.#sockets.get(idHash) === sockets) this.#sockets.delete(idHash);
    });
  }

  /** The session ended: close its sockets here and tell the other instances. */
  async ended(idHash: string): Promise<void> {
    this.#closeAll(idHash);
    await this.bus
      .publish(CHANNEL, idHash)
      .catch((error) =>
        this.log.warn({ err: error }, 'announcing a session end failed; the recheck will catch it'),
      );
  }

  /** Closes the sockets of sessions that no longer exist, expired or idled out. */
  async recheck(): Promise<void> {
    const hashes = [...this.#sockets.keys()];
    if (hashes.length === 0) return;
    const idleSince = new Date(Date.now() - this.idleTimeoutMs);
    const alive = await this.db.execute<{ id_hash: string }>(sql`
      select id_hash from sessions
      where id_hash in (${sql.join(
        hashes.map((hash) => sql`${hash}`),
        sql`, `,
      )}) and expires_at > now() and last_seen_at > ${idleSince}`);
    const living = new Set(alive.rows.map((row) => row.id_hash));
    for (const hash of hashes) if (!living.has(hash)) this.#closeAll(hash);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#unsubscribe?.();
  }

  #closeAll(idHash: string): void {
    const sockets = this.#sockets.get(idHash);
    if (!sockets) return;
    this.#sockets.delete(idHash);
    for (const socket of sockets) socket.close(CloseCode.signedOut, 'Signed out');
  }
}
