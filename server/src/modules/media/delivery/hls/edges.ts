import { randomUUID } from 'node:crypto';
import type { Bus } from '../../../../platform/bus.ts';
import type { Storage } from '../../../../platform/storage.ts';
import type { EdgeFile, EdgeSink } from '../../pipeline/live-edge.ts';
import { hlsKey } from '../../pipeline/stored-parts.ts';
import type { EdgeModel } from './ll-playlist.ts';

/** No word from the publisher's instance for this long: its edge is dropped (it died, or the bus is away). */
const STALE_MS = 4000;
/** How long a first request waits for an edge it does not follow yet (the publisher sends one per part). */
const FIRST_EDGE_WAIT_MS = 1000;
/** A followed room nobody asked about for this long is no longer followed. */
const IDLE_MS = 60_000;
/** At most this many rooms are followed; past it, the one asked about least recently is dropped. */
const MAX_FOLLOWED = 1000;
/**
 * A room's storage writes and bus sends waiting behind a slow storage, at most (about five seconds
 * of parts): past it, new parts are served from this instance only until storage catches up.
 */
const MAX_QUEUED_SENDS = 16;

type EdgeMessage = { from: string; model: EdgeModel } | { from: string; gone: true };

interface RoomEdge {
  model: EdgeModel | undefined;
  /** When the model last changed (Date.now()). */
  at: number;
  /** This instance publishes it (holds the room's publisher). */
  local: boolean;
  /** The instance whose edge `model` is. */
  from: string;
  /** Parts and init segments published here, by name. */
  files: Map<string, Buffer>;
  waiters: Set<() => void>;
  following: Promise<() => Promise<void>> | undefined;
  /** When this instance started following the room's channel (0: it does not). */
  followedAt: number;
  wantedAt: number;
}

const edgeChannel = (roomName: string) => `hls:${roomName}`;

export interface EdgeLog {
  warn(object: object, message: string): void;
}

/**
 * Every instance's view of the live edges (ADR 0024). The instance holding a room's publisher
 * updates its edge after every part (a sink per room: `sink()`), keeps the parts in memory, puts
 * them in storage and sends the edge on the bus; any other instance asked for the room's live
 * playlist follows that channel from then on and reads the parts from storage. Requests for a part
 * or segment not there yet wait for it.
 */
export class LiveEdges {
  private readonly instanceId = randomUUID();
  private readonly rooms = new Map<string, RoomEdge>();
  private readonly sweep: NodeJS.Timeout;
  /** Each room's storage writes and bus sends, in order. */
  private readonly sending = new Map<string, Promise<void>>();
  /** How many of them wait, per room. */
  private readonly queued = new Map<string, number>();
  /** Rooms whose last send failed or was dropped: told once, until one goes through again. */
  private readonly failing = new Set<string>();

  constructor(
    private readonly bus: Bus,
    private readonly storage: Storage,
    private readonly log: EdgeLog,
  ) {
    this.sweep = setInterval(() => this.forgetIdle(), IDLE_MS / 4);
    this.sweep.unref();
  }

  /** The sink of a room published here. */
  sink(roomName: string): EdgeSink {
    return {
      update: (model, files) => this.publish(roomName, model, files),
      drop: (names) => this.drop(roomName, names),
      forget: (names) => {
        for (const name of names) this.rooms.get(roomName)?.files.delete(name);
      },
      end: () => this.end(roomName),
    };
  }

  /** The room's edge as known here now (published here, or heard of and fresh); never waits. */
  known(roomName: string): EdgeModel | undefined {
    const room = this.rooms.get(roomName);
    return room && this.fresh(room);
  }

  /**
   * The room's live edge, once `ready` holds for it or `waitMs` has passed; undefined when no
   * instance publishes one (the stream is not live, or its publisher's instance went quiet). In its
   * first second of following a room, this instance waits for the edge (the publisher sends one per part).
   */
  async edge(
    roomName: string,
    ready: (model: EdgeModel) => boolean = () => true,
    waitMs = 0,
  ): Promise<EdgeModel | undefined> {
    const room = this.room(roomName);
    room.wantedAt = Date.now();
    if (!room.local) await this.follow(roomName, room);
    const start = Date.now();
    let seen = false;
    while (true) {
      const model = this.fresh(room);
      if (model && ready(model)) return model;
      // It went while we waited: the stream ended, or another instance is about to take over.
      if (!model && seen) return undefined;
      seen ||= model !== undefined;
      const left = (model ? start + waitMs : room.followedAt + FIRST_EDGE_WAIT_MS) - Date.now();
      if (left <= 0) return model;
      await this.changed(room, left);
    }
  }

  /**
   * A file of a room's live edge not (or not yet) in storage: a part or init segment kept here,
   * the preload hint once it is made (waiting up to `waitMs`), or a listed segment joined from its
   * parts (here, or in storage) before the recorder has stored it. Undefined otherwise.
   */
  async file(roomName: string, name: string, waitMs: number): Promise<Buffer | undefined> {
    const room = this.rooms.get(roomName);
    if (!room?.model) return undefined;
    if (room.model.hint === name) {
      const deadline = Date.now() + waitMs;
      while (room.model?.hint === name && Date.now() < deadline)
        await this.changed(room, deadline - Date.now());
    }
    return room.files.get(name);
  }

  /** A segment the edge lists but storage does not have yet, joined from its parts. */
  async joinedSegment(roomName: string, name: string): Promise<Buffer | undefined> {
    const room = this.rooms.get(roomName);
    const segment = room?.model?.segments.find((candidate) => candidate.uri === name);
    if (!room || !segment?.parts?.length) return undefined;
    const bytes = await Promise.all(
      segment.parts.map(async (part) => room.files.get(part.uri) ?? (await this.stored(roomName, part.uri))),
    );
    return bytes.every((b): b is Buffer => b !== undefined) ? Buffer.concat(bytes) : undefined;
  }

  private async stored(roomName: string, name: string): Promise<Buffer | undefined> {
    const object = await this.storage.get(hlsKey(roomName, name));
    if (!object) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all(this.sending.values());
    for (const [roomName, room] of this.rooms) await this.unfollow(roomName, room);
  }

  private fresh(room: RoomEdge): EdgeModel | undefined {
    return room.model && (room.local || Date.now() - room.at < STALE_MS) ? room.model : undefined;
  }

  private room(roomName: string): RoomEdge {
    let room = this.rooms.get(roomName);
    if (!room) {
      if (this.rooms.size >= MAX_FOLLOWED) this.forgetLeastWanted();
      room = {
        model: undefined,
        at: 0,
        local: false,
        from: '',
        files: new Map(),
        waiters: new Set(),
        following: undefined,
        followedAt: 0,
        wantedAt: Date.now(),
      };
      this.rooms.set(roomName, room);
    }
    return room;
  }

  private set(room: RoomEdge, model: EdgeModel | undefined) {
    room.model = model;
    room.at = Date.now();
    for (const wake of [...room.waiters]) wake();
  }

  /** Resolves at the room's next change, or after `ms`. */
  private changed(room: RoomEdge, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        room.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      room.waiters.add(done);
    });
  }

  private publish(roomName: string, model: EdgeModel, files: EdgeFile[]) {
    const room = this.room(roomName);
    room.local = true;
    room.from = this.instanceId;
    for (const file of files) room.files.set(file.name, file.bytes);
    this.set(room, model);
    if ((this.queued.get(roomName) ?? 0) >= MAX_QUEUED_SENDS) {
      this.failed(roomName, new Error('storage is behind: parts are served from this instance only'));
      return;
    }
    this.enqueue(roomName, async () => {
      for (const file of files) {
        const type = file.name.endsWith('.mp4') ? 'video/mp4' : 'video/iso.segment';
        await this.storage.put(hlsKey(roomName, file.name), file.bytes, type);
      }
      await this.send(roomName, { from: this.instanceId, model });
    });
  }

  private drop(roomName: string, names: string[]) {
    const room = this.rooms.get(roomName);
    for (const name of names) room?.files.delete(name);
    if (names.length === 0) return;
    this.enqueue(roomName, () => this.storage.deleteMany(names.map((name) => hlsKey(roomName, name))));
  }

  private end(roomName: string) {
    const room = this.rooms.get(roomName);
    if (!room?.local) return;
    room.local = false;
    room.files.clear();
    this.set(room, undefined);
    this.enqueue(roomName, () => this.send(roomName, { from: this.instanceId, gone: true }));
  }

  private send(roomName: string, message: EdgeMessage) {
    return this.bus.publish(edgeChannel(roomName), JSON.stringify(message));
  }

  private enqueue(roomName: string, step: () => Promise<unknown>) {
    const previous = this.sending.get(roomName) ?? Promise.resolve();
    this.queued.set(roomName, (this.queued.get(roomName) ?? 0) + 1);
    const next = previous.then(step).then(
      () => {
        this.failing.delete(roomName);
      },
      (error) => this.failed(roomName, error),
    );
    this.sending.set(roomName, next);
    void next.then(() => {
      const left = (this.queued.get(roomName) ?? 1) - 1;
      if (left > 0) this.queued.set(roomName, left);
      else this.queued.delete(roomName);
      if (this.sending.get(roomName) === next) this.sending.delete(roomName);
    });
  }

  private failed(roomName: string, error: unknown) {
    if (this.failing.has(roomName)) return;
    this.failing.add(roomName);
    this.log.warn({ err: error, roomName }, 'publishing the live edge failed; told again once it works');
  }

  private follow(roomName: string, room: RoomEdge): Promise<unknown> {
    if (!room.following) room.followedAt = Date.now();
    room.following ??= this.bus.subscribe(edgeChannel(roomName), (payload) => {
      let message: EdgeMessage;
      try {
        message = JSON.parse(payload) as EdgeMessage;
      } catch {
        return;
      }
      // This instance publishes the room: another's last words (it was taken over) are not news.
      if (message.from === this.instanceId || room.local) return;
      if ('gone' in message) {
        if (message.from === room.from) this.set(room, undefined);
        return;
      }
      room.from = message.from;
      this.set(room, message.model);
    });
    return room.following;
  }

  private async unfollow(roomName: string, room: RoomEdge) {
    this.rooms.delete(roomName);
    for (const wake of [...room.waiters]) wake();
    const unsubscribe = await room.following?.catch(() => undefined);
    await unsubscribe?.().catch(() => undefined);
  }

  private forgetLeastWanted() {
    let oldest: [string, RoomEdge] | undefined;
    for (const entry of this.rooms) {
      if (!entry[1].local && (!oldest || entry[1].wantedAt < oldest[1].wantedAt)) oldest = entry;
    }
    if (oldest) void this.unfollow(...oldest);
  }

  private forgetIdle() {
    const now = Date.now();
    for (const [roomName, room] of this.rooms) {
      if (!room.local && now - room.wantedAt > IDLE_MS) void this.unfollow(roomName, room);
    }
  }
}
