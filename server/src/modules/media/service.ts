import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Storage } from '../../platform/storage.ts';
import { splitterFor } from './containers/mime-types.ts';
import type { LiveEdges } from './delivery/hls/edges.ts';
import { DEMO_LEASE_SEC, DemoLive, type DemoLiveStream } from './ingest/demo-live.ts';
import { sizeCheckFor, sizeRefusal } from './ingest/size-check.ts';
import { PublisherLeases } from './leases.ts';
import { type LiveRoom, LiveRooms } from './live-room.ts';
import { HlsRecorder } from './pipeline/hls-recorder.ts';
import { LivePipeline } from './pipeline/pipeline.ts';
import { removeAbandonedPartFolders } from './pipeline/working-folders.ts';
import { type DemoReplay, ensureDemoReplay } from './replays/demo-replay.ts';
import { ReplayMaker } from './replays/replays.ts';
import { pruneStreamParts } from './replays/repo.ts';
import { removeStreamMedia } from './replays/stream-media.ts';
import {
  claimDemoPublisher,
  endedAmong,
  ownerDeleted,
  publishTargetOf,
  releasePublisher,
  setThumbnailUrl,
  upsertDemoLiveStream,
} from './repo.ts';
import { startRestream, stopRestream } from './restream/room-restream.ts';

export { PUBLISHER_HEARTBEAT_MS } from './leases.ts';

export { streamMediaFolder } from './replays/stream-media.ts';

/**
 * How often every instance looks for ended streams without a replay (their publisher's instance
 * died, or is gone by now) and for ended streams it still follows (their end missed on the bus).
 */
export const REPLAY_SWEEP_MS = 5000;
/** How often the sweep also tidies the working folder and old part rows. */
const TIDY_EVERY_MS = 10 * 60_000;

/**
 * Live video of the rooms on this instance. Where the publisher is connected: what it sends goes
 * through the room's media pipeline (one ffmpeg: H.264/AAC fragmented MP4), whose live output
 * drives every instance's relay and whose HLS segments the recorder moves to storage, where they
 * are the live playlist and, when the stream ends, the replay (vodUrl). Everywhere: the relay to
 * the viewers connected here.
 *
 * Instances share a room's video over the bus (LiveRooms, live-room.ts): the publisher's instance
 * sends every relay event to the room's media channel; an instance whose viewers join mid-stream
 * asks for a snapshot (init segment and current keyframe group) and then follows the live events.
 *
 * Nothing that matters lives only here (ADR 0018): the instance holding a publisher renews its
 * lease in the stream's row (PublisherLeases, leases.ts: so any instance sees a publisher gone,
 * and the streams module ends the stream after the grace), each ffmpeg run is a recorded part in
 * the database and storage, and the replay is made exactly once from every part, by whichever
 * instance claims it first.
 */
export class MediaService {
  private readonly instanceId = randomUUID();
  private readonly rooms: LiveRooms;
  /** The publishers and recorded parts this instance holds: their leases are renewed every PUBLISHER_HEARTBEAT_MS. */
  private readonly leases: PublisherLeases;
  private readonly replays: ReplayMaker;
  private replaySweep: NodeJS.Timeout | undefined;
  /** When the sweep last tidied (0: at its first run). */
  private lastTidy = 0;
  private readonly endListeners = new Set<(roomName: string) => void>();
  private demoLive: DemoLive | undefined;
  /** Aborted at close: the demo's ffmpeg runs stop with the server. */
  private readonly closing = new AbortController();
  /** The demo's ffmpeg work under way (settled, never rejecting): close() waits for it. */
  private readonly demoWork: Promise<unknown>[] = [];

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly storage: Storage,
    /** ffmpeg's working folders (segments not yet in storage): not public. */
    private readonly stagingDir: string,
    private readonly log: FastifyBaseLogger,
    /** RESTREAM_ALLOWED_HOSTS: private hosts a restream may still reach. */
    private readonly restreamAllowedHosts: string[] = [],
    /** The low-latency live edges every instance serves (delivery/hls/edges.ts). */
    private readonly edges?: LiveEdges,
  ) {
    this.rooms = new LiveRooms(bus, this.instanceId, log, {
      ended: (roomName) => void this.finish(roomName),
      takenOver: (roomName, room) => this.takenOver(roomName, room),
    });
    this.leases = new PublisherLeases(db, this.instanceId, log);
    this.replays = new ReplayMaker(db, storage, this.instanceId, log);
  }

  /**
   * The owner's broadcaster connected here: its bytes go through a new pipeline, whose output
   * drives every instance's relay from now on. `onFailed` tells the publisher when the pipeline
   * gives up (ffmpeg cannot read what it sends) or its video is larger than the stream's plan allows.
   * `liveWindowOnly`: the stream keeps only its live window in storage, and has no replay (the demo).
   * `ownLease`: the caller holds and renews the publisher's lease itself (the demo's looper).
   */
  async startPublishing(
    roomName: string,
    mimeType: string,
    onFailed: (reason: string) => void,
    options: { liveWindowOnly?: boolean; ownLease?: boolean } = {},
  ): Promise<void> {
    const room = this.rooms.room(roomName);
    if (!options.ownLease) this.leases.hold(roomName);
    await this.rooms.watchForEnd(roomName);
    await this.rooms.followMedia(roomName);
    const target = await this.publishTargetOf(roomName);
    const previous = room.pipeline;
    room.pipeline = undefined;
    await previous?.stop();
    room.splitter = splitterFor(mimeType);
    room.synced = true;
    room.recorder ??= new HlsRecorder({
      roomName,
      storage: this.storage,
      log: this.log,
      parts: options.liveWindowOnly ? undefined : this.leases.recordedParts(roomName),
      edge: this.edges?.sink(roomName),
      onThumbnail: (url) => {
        setThumbnailUrl(this.db, roomName, url).catch((error) =>
          this.log.warn({ err: error, roomName }, 'saving the thumbnail failed'),
        );
      },
    });
    const recorder = room.recorder;
    recorder.live = true;
    const pipeline: LivePipeline = new LivePipeline({
      roomName,
      stagingDir: path.join(this.stagingDir, roomName),
      log: this.log,
      onOutput: (event) => {
        if (room.pipeline !== pipeline) return;
        this.rooms.emit(roomName, event);
        room.restream?.push(event);
      },
      onPart: (part) => recorder.addPart(part),
      onCut: (part, cut) => recorder.cut(part, cut),
      onPartEnd: (part) => void recorder.endPart(part),
      onFailed: (reason) => {
        if (room.pipeline !== pipeline) return;
        this.log.warn({ roomName }, 'media pipeline gave up');
        onFailed(reason);
      },
    });
    room.pipeline = pipeline;
    room.sizeCheck = sizeCheckFor(target?.plan, mimeType, onFailed);
    await startRestream(roomName, room, target, this.log, this.restreamAllowedHosts);
  }

  /**
   * The stream's restream URL and plan (the owner's when it started), looked up once per publisher; undefined when
   * that fails (no restream then, and no cap on the picture).
   */
  private async publishTargetOf(roomName: string) {
    try {
      return await publishTargetOf(this.db, roomName);
    } catch (error) {
      this.log.warn({ err: error, roomName }, 'looking up the stream’s plan and restream URL failed');
      return undefined;
    }
  }

  /**
   * Holds a publisher's init against the stream's plan (ingest/size-check.ts). Over it, the
   * publisher's pipeline stops and the publisher is told why; the stream stays live for the seller
   * to come back at a lower resolution. An unreadable size passes.
   */
  private refusesSize(roomName: string, room: LiveRoom, init: Buffer): boolean {
    const check = room.sizeCheck;
    const refusal = check && sizeRefusal(check, init);
    if (!check || !refusal) return false;
    const { size, reason } = refusal;
    this.log.warn(
      { roomName, width: size.width, height: size.height, reason },
      'publisher refused: video too large for the plan',
    );
    void this.stopPublishing(roomName);
    check.onRefused(reason);
    return true;
  }

  /** A chunk from this instance's publisher; throws WebmError, Fmp4Error or FlvError on unreadable bytes. */
  pushFromPublisher(roomName: string, chunk: Buffer): void {
    const room = this.rooms.room(roomName);
    if (!room.splitter) return;
    for (const event of room.splitter.push(chunk)) {
      if (event.kind === 'init' && this.refusesSize(roomName, room, event.bytes)) return;
      room.pipeline?.write(event);
    }
  }

  stopPublishing(roomName: string): Promise<void> {
    const room = this.rooms.room(roomName);
    room.splitter = undefined;
    room.sizeCheck = undefined;
    void this.leases.release(roomName);
    const restreamStopped = stopRestream(room);
    this.rooms.emit(roomName, { kind: 'idle' });
    return this.stopPipeline(room, restreamStopped);
  }

  /** Another instance publishes the room now (the demo's looper moved): this one stops without a word. */
  handOver(roomName: string): void {
    const room = this.rooms.get(roomName);
    if (room) this.takenOver(roomName, room);
  }

  /**
   * Another instance took the publisher (and restreams and records it from there): what this one
   * was recording is finished (its last segments stored, its part closed).
   */
  private takenOver(roomName: string, room: LiveRoom): void {
    room.splitter = undefined;
    room.sizeCheck = undefined;
    void this.leases.release(roomName);
    if (room.recorder) room.recorder.live = false;
    void this.stopPipeline(room, stopRestream(room));
  }

  /** Stops the room's pipeline here; its last segments are stored and its parts closed after. */
  private stopPipeline(room: LiveRoom, alsoWaitFor?: Promise<void>): Promise<void> {
    const pipeline = room.pipeline;
    room.pipeline = undefined;
    const previous = room.stopped;
    room.stopped = (async () => {
      await previous;
      await pipeline?.stop();
      await room.recorder?.flush();
      await alsoWaitFor;
    })();
    return room.stopped;
  }

  /** A viewer connected here; when this instance is not yet following the room, it catches up. */
  /**
   * Whether this instance relays the room's live video now (an init segment from the publisher,
   * here or on another instance, and the room not finishing): the room's stream is live.
   */
  relaying(roomName: string): boolean {
    const room = this.rooms.get(roomName);
    return room?.relay.publishing === true && room.finishing === undefined;
  }

  async addViewer(roomName: string, socket: WebSocket): Promise<void> {
    const room = this.rooms.room(roomName);
    // The end reaches this instance's viewers wherever the publisher is (or was).
    await this.rooms.watchForEnd(roomName);
    await this.rooms.followMedia(roomName);
    room.relay.addViewer(socket);
    // Closed while we were subscribing: its close handler already ran.
    if (socket.readyState === socket.CLOSING || socket.readyState === socket.CLOSED) {
      room.relay.removeViewer(socket);
    }
    if (!room.synced) this.rooms.send(roomName, { kind: 'sync' });
  }

  removeViewer(roomName: string, socket: WebSocket): void {
    this.rooms.get(roomName)?.relay.removeViewer(socket);
  }

  /** `listener` hears each stream that ends while this instance follows it. */
  onStreamEnded(listener: (roomName: string) => void): void {
    this.endListeners.add(listener);
  }

  /**
   * Tells the room's viewers here that the stream ended, stops relaying and recording, and then
   * makes the replay unless another instance has it (or still writes a part). Runs once per room.
   */
  finish(roomName: string): Promise<void> {
    const room = this.rooms.room(roomName);
    room.finishing ??= (async () => {
      for (const listener of this.endListeners) listener(roomName);
      room.relay.broadcastControl({ type: 'stream_ended' });
      room.splitter = undefined;
      room.relay.apply({ kind: 'idle' });
      await this.stopPipeline(room, stopRestream(room));
      await room.recorder?.close();
      await this.leases.release(roomName);
      await room.unsubscribe?.();
      await (await room.media)?.();
      this.rooms.delete(roomName);
      // Its owner deleted the account: what the recorder wrote after the account's media went goes too.
      if (await ownerDeleted(this.db, roomName)) await removeStreamMedia(this.storage, roomName);
      else await this.replays.make(roomName);
    })().catch((error) => this.log.error({ err: error, roomName }, 'finishing a stream failed'));
    return room.finishing;
  }

  /** The streams ended here (the plan's limit, or a publisher gone): their replays, if they can be made now. */
  makeReplays(roomNames: string[]): void {
    for (const roomName of roomNames) {
      if (this.rooms.get(roomName)?.finishing) continue;
      this.replays
        .make(roomName)
        .catch((error) =>
          this.log.warn({ err: error, roomName }, 'making a replay failed; it is tried again later'),
        );
    }
  }

  /**
   * Finishes the followed rooms whose stream has ended (the end missed on the bus: an outage, or
   * the instance that ended it died), and makes the replays nobody has made.
   */
  async sweep(): Promise<void> {
    const followed = [...this.rooms].filter(([, room]) => !room.finishing).map(([roomName]) => roomName);
    for (const roomName of await endedAmong(this.db, followed)) void this.finish(roomName);
    await this.replays.makeDue((roomName) => Boolean(this.rooms.get(roomName)?.finishing));
    // Every 10 minutes: what killed ffmpeg runs left in the working folder (this instance's, or
    // another's on a shared DATA_DIR), and the part rows of streams settled a week ago.
    if (Date.now() - this.lastTidy < TIDY_EVERY_MS) return;
    this.lastTidy = Date.now();
    for (const dir of await removeAbandonedPartFolders(this.stagingDir)) {
      this.log.info({ dir }, 'removed an abandoned working folder');
    }
    await pruneStreamParts(this.db);
  }

  /** The heartbeat (every PUBLISHER_HEARTBEAT_MS) and the sweep (now, then every `sweepMs`) until close(). */
  startSweeps(sweepMs = REPLAY_SWEEP_MS): void {
    this.leases.startHeartbeat(() =>
      [...this.rooms.values()].flatMap((room) => room.recorder?.openParts() ?? []),
    );
    let sweeping = false;
    const sweep = () => {
      if (sweeping) return;
      sweeping = true;
      this.sweep()
        .catch((error) => this.log.error({ err: error }, 'the replay sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    };
    sweep();
    this.replaySweep = setInterval(sweep, sweepMs);
    this.replaySweep.unref();
  }

  /** Makes the demo replay's video when storage lacks it (the seed writes its stream rows). */
  async ensureDemoReplay(demo: DemoReplay): Promise<void> {
    const making = ensureDemoReplay(this.storage, demo, 'ffmpeg', this.closing.signal);
    this.demoWork.push(making.catch(() => false));
    if (await making) this.log.info({ roomName: demo.roomName }, 'demo replay video made');
  }

  /**
   * Starts the always-live demo room (DEMO_LIVE), once; see ingest/demo-live.ts. With several
   * instances, the one holding the room's publisher lease loops it.
   */
  async startDemoLive(demo: DemoLiveStream): Promise<void> {
    if (this.demoLive || !(await upsertDemoLiveStream(this.db, demo, DEMO_LEASE_SEC))) return;
    const { db, instanceId } = this;
    const lease = {
      claim: () => claimDemoPublisher(db, demo.roomName, instanceId, DEMO_LEASE_SEC),
      release: () => releasePublisher(db, demo.roomName, instanceId),
    };
    const clipDir = path.join(this.stagingDir, 'demo-clip');
    this.demoLive = new DemoLive(clipDir, demo.roomName, this, lease, this.log);
    const starting = this.demoLive.start();
    this.demoWork.push(starting.catch(() => undefined));
    await starting;
  }

  async close(): Promise<void> {
    // The demo's ffmpeg runs (the replay's and the live clip's encodings) are killed and waited
    // for: nothing of this process is left running after it exits.
    this.closing.abort();
    await this.demoLive?.stop();
    await Promise.all(this.demoWork);
    this.leases.stopHeartbeat();
    clearInterval(this.replaySweep);
    const restreamsStopped = [...this.rooms.values()].map((room) => stopRestream(room));
    for (const [roomName, room] of this.rooms) {
      // A stream ending as the server stops: its replay is made before the process exits.
      if (room.finishing) {
        await room.finishing;
        continue;
      }
      // A publisher whose socket the shutdown closed: its last segments are stored and its parts
      // closed, and its lease released (it may come back on another instance within the grace).
      await this.stopPipeline(room);
      await room.recorder?.close();
      await this.leases.release(roomName);
      await room.unsubscribe?.();
      await (await room.media)?.();
      this.rooms.delete(roomName);
    }
    await Promise.all(restreamsStopped);
  }
}
