import { randomUUID } from 'node:crypto';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import type { WebSocket } from 'ws';
import type { Bus } from './bus.ts';

const HEARTBEAT_MS = 5000;
/** An instance whose presence was not heard for this long no longer counts. */
const PRESENCE_TTL_MS = 15_000;
/** Viewer counts go out at most this often per room: 2,000 joins must not mean 2,000 broadcasts. */
const COUNT_INTERVAL_MS = 1000;

type PresenceMessage = { kind: 'count'; instance: string; count: number } | { kind: 'query' };

interface LocalRoom {
  sockets: Set<WebSocket>;
  /** Sockets in the room that are not viewers (the seller's own): delivered to, never counted. */
  uncounted: Set<WebSocket>;
  /**
   * Sockets that joined since the last count went out: they get the next count even when the
   * total has not changed (the seller joining a room with one viewer, a viewer's quick reconnect).
   */
  awaitingCount: Set<WebSocket>;
  presence: Map<string, { count: number; at: number }>;
  lastSentCount: number;
  lastCountAt: number;
  countTimer: NodeJS.Timeout | undefined;
  unsubscribe: Array<() => Promise<void>>;
}

/**
 * The sockets of each room on this instance, and the fan-out of room events through the bus, so
 * a message published on any instance reaches every viewer of the room. Each event is serialised
 * once and the same string is sent to every socket. Viewer counts add up every instance's own
 * count, exchanged on a presence channel; the seller's own sockets get the events and are not
 * counted. Every socket that joins gets the room's count within a second, changed or not.
 */
export class RoomHub {
  private readonly rooms = new Map<string, LocalRoom>();
  private readonly pending = new Map<string, Promise<LocalRoom>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly bus: Bus,
    private readonly instanceId: string = randomUUID(),
    private readonly now: () => number = Date.now,
  ) {
    this.heartbeat = setInterval(() => {
      for (const name of this.rooms.keys()) this.announceLater(name);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Adds the socket to the room; `counted: false` for one that is not a viewer (the seller). */
  async join(
    roomName: string,
    socket: WebSocket,
    { counted = true }: { counted?: boolean } = {},
  ): Promise<void> {
    const room = await this.open(roomName);
    room.sockets.add(socket);
    room.awaitingCount.add(socket);
    if (!counted) room.uncounted.add(socket);
    await this.announce(roomName);
  }

  async leave(roomName: string, socket: WebSocket): Promise<void> {
    const room = this.rooms.get(roomName);
    if (!room?.sockets.delete(socket)) return;
    room.uncounted.delete(socket);
    room.awaitingCount.delete(socket);
    await this.announce(roomName);
    if (room.sockets.size === 0) {
      clearTimeout(room.countTimer);
      this.rooms.delete(roomName);
      await Promise.all(room.unsubscribe.map((off) => off()));
    }
  }

  /** Sends an event to every viewer of the room on every instance. */
  async publish(roomName: string, message: ServerMessage): Promise<void> {
    await this.bus.publish(`room:${roomName}`, JSON.stringify(message));
  }

  viewerCount(roomName: string): number {
    const room = this.rooms.get(roomName);
    return room ? this.total(room) : 0;
  }

  /** The rooms this instance has at least one socket in. */
  openRooms(): string[] {
    return [...this.rooms].filter(([, room]) => room.sockets.size > 0).map(([name]) => name);
  }

  localSockets(): number {
    let n = 0;
    for (const room of this.rooms.values()) n += room.sockets.size;
    return n;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const rooms = [...this.rooms.values()];
    for (const room of rooms) clearTimeout(room.countTimer);
    this.rooms.clear();
    await Promise.all(rooms.flatMap((room) => room.unsubscribe.map((off) => off())));
  }

  private open(roomName: string): Promise<LocalRoom> {
    const existing = this.rooms.get(roomName);
    if (existing) return Promise.resolve(existing);
    let opening = this.pending.get(roomName);
    if (!opening) {
      opening = this.subscribe(roomName).finally(() => this.pending.delete(roomName));
      this.pending.set(roomName, opening);
    }
    return opening;
  }

  private async subscribe(roomName: string): Promise<LocalRoom> {
    const room: LocalRoom = {
      sockets: new Set(),
      uncounted: new Set(),
      awaitingCount: new Set(),
      presence: new Map(),
      lastSentCount: -1,
      lastCountAt: 0,
      countTimer: undefined,
      unsubscribe: [],
    };
    room.unsubscribe.push(
      await this.bus.subscribe(`room:${roomName}`, (payload) => this.deliver(room, payload)),
      await this.bus.subscribe(`presence:${roomName}`, (payload) => this.onPresence(roomName, room, payload)),
    );
    this.rooms.set(roomName, room);
    // Ask the other instances for their counts now rather than at their next heartbeat.
    await this.bus.publish(
      `presence:${roomName}`,
      JSON.stringify({ kind: 'query' } satisfies PresenceMessage),
    );
    return room;
  }

  private deliver(room: LocalRoom, payload: string, sockets: Iterable<WebSocket> = room.sockets) {
    for (const socket of sockets) {
      if (socket.readyState === socket.OPEN) socket.send(payload);
    }
  }

  private async announce(roomName: string) {
    const room = this.rooms.get(roomName);
    const count = room ? room.sockets.size - room.uncounted.size : 0;
    const message: PresenceMessage = { kind: 'count', instance: this.instanceId, count };
    await this.bus.publish(`presence:${roomName}`, JSON.stringify(message));
  }

  /**
   * An announcement nobody waits for. The bus does not reject while Redis is down (it delivers
   * locally), but a rejection here must never go unhandled: it would end the process. A count
   * that did not go out is sent again by the next heartbeat.
   */
  private announceLater(roomName: string) {
    this.announce(roomName).catch(() => {});
  }

  private onPresence(roomName: string, room: LocalRoom, payload: string) {
    let message: PresenceMessage;
    try {
      message = JSON.parse(payload) as PresenceMessage;
    } catch {
      return;
    }
    if (message.kind === 'query') {
      if (room.sockets.size > 0) this.announceLater(roomName);
      return;
    }
    room.presence.set(message.instance, { count: message.count, at: this.now() });
    if (room.countTimer) return; // a send is already scheduled; it will carry the latest total
    const wait = Math.max(0, room.lastCountAt + COUNT_INTERVAL_MS - this.now());
    room.countTimer = setTimeout(() => {
      room.countTimer = undefined;
      room.lastCountAt = this.now();
      const total = this.total(room);
      const message = JSON.stringify({ type: 'viewer_count', count: total } satisfies ServerMessage);
      // An unchanged total goes only to the sockets that have not had one yet.
      const to = total === room.lastSentCount ? room.awaitingCount : room.sockets;
      room.lastSentCount = total;
      this.deliver(room, message, [...to]);
      room.awaitingCount.clear();
    }, wait);
    room.countTimer.unref();
  }

  private total(room: LocalRoom): number {
    const t = this.now();
    let total = 0;
    for (const [instance, entry] of room.presence) {
      if (t - entry.at > PRESENCE_TTL_MS) room.presence.delete(instance);
      else total += entry.count;
    }
    return total;
  }
}
