import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Plan } from '@streamshop/contract/constants.ts';
import { PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import { egressRefusal, guardedLookup } from '../../platform/egress.ts';
import type { Storage } from '../../platform/storage.ts';
import { DemoLive, type DemoLiveStream } from './demo-live.ts';
import { type DemoReplay, ensureDemoReplay } from './demo-replay.ts';
import { HlsRecorder, hlsKey, type RecordedParts } from './hls-recorder.ts';
import { FLV_SOURCE, ingestFor, initKindOf, type LiveRoom, newLiveRoom } from './live-room.ts';
import { LivePipeline } from './pipeline.ts';
import { decodeRelayEvent, encodeRelayEvent, type RelayEvent } from './relay-events.ts';
import { ReplayMaker } from './replays.ts';
import {
  closePart,
  endedAmong,
  holdPublishers,
  ownerDeleted,
  publishTargetOf,
  recordPart,
  releasePublisher,
  renewParts,
  setThumbnailUrl,
  upsertDemoLiveStream,
} from './repo.ts';
import { Restream, redactRtmpUrl, webmStartOf } from './restream.ts';
import { type VideoSize, videoSizeOf } from './video-size.ts';

export { FLV_SOURCE };

/** The storage folder of everything kept of a stream's video (ends in "/"). */
export const streamMediaFolder = (roomName: string) => hlsKey(roomName, '');

/**
 * Removes everything stored of a stream's video (segments, playlists, the replay, thumbnails): a
 * deleted account's streams. Safe to repeat; answers how many objects went.
 */
export async function removeStreamMedia(storage: Storage, roomName: string): Promise<number> {
  const keys = await storage.list(streamMediaFolder(roomName));
  for (const key of keys) await storage.delete(key);
  return keys.length;
}

/** How often an instance renews the leases of the publishers and recorded parts it holds. */
export const PUBLISHER_HEARTBEAT_MS = 5000;
/**
 * How often every instance looks for ended streams without a replay (their publisher's instance
 * died, or is gone by now) and for ended streams it still follows (their end missed on the bus).
 */
export const REPLAY_SWEEP_MS = 5000;

const mediaChannel = (roomName: string) => `media:${roomName}`;

/**
 * Live video of the rooms on this instance. Where the publisher is connected: what it sends goes
 * through the room's media pipeline (one ffmpeg: H.264/AAC fragmented MP4), whose live output
 * drives every instance's relay and whose HLS segments the recorder moves to storage, where they
 * are the live playlist and, when the stream ends, the replay (vodUrl). Everywhere: the relay to
 * the viewers connected here.
 *
 * Instances share a room's video over the bus: the publisher's instance sends every relay event
 * to the room's media channel; an instance whose viewers join mid-stream asks for a snapshot
 * (init segment and current keyframe group) and then follows the live events.
 *
 * Nothing that matters lives only here (ADR 0018): the instance holding a publisher renews its
 * lease in the stream's row (so any instance sees a publisher gone, and the streams module ends
 * the stream after the grace), each ffmpeg run is a recorded part in the database and storage,
 * and the replay is made exactly once from every part, by whichever instance claims it first.
 */
export class MediaService {
  private readonly rooms = new Map<string, LiveRoom>();
  private readonly instanceId = randomUUID();
  /** Rooms whose publisher is connected here: their lease is renewed every PUBLISHER_HEARTBEAT_MS. */
  private readonly publishing = new Set<string>();
  private readonly replays: ReplayMaker;
  private heartbeat: NodeJS.Timeout | undefined;
  private replaySweep: NodeJS.Timeout | undefined;
  private readonly endListeners = new Set<(roomName: string) => void>();
  private demoLive: DemoLive | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly storage: Storage,
    /** ffmpeg's working folders (segments not yet in storage): not public. */
    private readonly stagingDir: string,
    private readonly log: FastifyBaseLogger,
    /** RESTREAM_ALLOWED_HOSTS: private hosts a restream may still reach. */
    private readonly restreamAllowedHosts: string[] = [],
  ) {
    this.replays = new ReplayMaker(db, storage, this.instanceId, log);
  }

  room(roomName: string): LiveRoom {
    let room = this.rooms.get(roomName);
    if (!room) {
      room = newLiveRoom();
      this.rooms.set(roomName, room);
    }
    return room;
  }

  /** Listens for the end of the stream (from any instance, the end button or the plan limit). */
  async watchForEnd(roomName: string): Promise<void> {
    const room = this.room(roomName);
    if (room.unsubscribe) return;
    room.unsubscribe = await this.bus.subscribe(`room:${roomName}`, (payload) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(payload) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'stream_ended') void this.finish(roomName);
    });
  }

  /**
   * The owner's broadcaster connected here: its bytes go through a new pipeline, whose output
   * drives every instance's relay from now on. `onFailed` tells the publisher when the pipeline
   * gives up (ffmpeg cannot read what it sends) or its video is larger than the stream's plan allows.
   * `liveWindowOnly`: the stream keeps only its live window in storage, and has no replay (the demo).
   */
  async startPublishing(
    roomName: string,
    mimeType: string,
    onFailed: (reason: string) => void,
    options: { liveWindowOnly?: boolean } = {},
  ): Promise<void> {
    const room = this.room(roomName);
    this.holdPublisher(roomName);
    await this.watchForEnd(roomName);
    await this.followMedia(roomName);
    const target = await this.publishTargetOf(roomName);
    const limit =
      target && Object.hasOwn(PLAN_VIDEO, target.plan) ? PLAN_VIDEO[target.plan as Plan] : undefined;
    const previous = room.pipeline;
    room.pipeline = undefined;
    await previous?.stop();
    room.ingest = ingestFor(mimeType);
    room.synced = true;
    room.recorder ??= new HlsRecorder({
      roomName,
      storage: this.storage,
      log: this.log,
      parts: options.liveWindowOnly ? undefined : this.recordedParts(roomName),
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
        this.emit(roomName, event);
        room.restream?.push(event);
      },
      onPart: (part) => recorder.addPart(part),
      onPartEnd: (part) => void recorder.endPart(part),
      onFailed: (reason) => {
        if (room.pipeline !== pipeline) return;
        this.log.warn({ roomName }, 'media pipeline gave up');
        onFailed(reason);
      },
    });
    room.pipeline = pipeline;
    room.sizeCheck = limit && { kind: initKindOf(mimeType), limit, onRefused: onFailed };
    await this.startRestream(roomName, room, target);
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
   * Holds a publisher's init against the stream's plan (long side against long side, so a portrait
   * phone fits too). Over it, the publisher's pipeline stops and the publisher is told why; the
   * stream stays live for the seller to come back at a lower resolution. An unreadable size passes.
   */
  private refusesSize(roomName: string, room: LiveRoom, init: Buffer): boolean {
    const check = room.sizeCheck;
    const size = check && videoSizeOf(init, check.kind);
    if (!check || !size || fits(size, check.limit)) return false;
    const { limit } = check;
    const reason =
      `This stream is limited to ${limit.label} (${limit.width}×${limit.height}) on your plan; ` +
      `your video is ${size.width}×${size.height}. Lower the resolution in your encoder, or upgrade to Pro for up to 1080p.`;
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
    const room = this.room(roomName);
    if (!room.ingest) return;
    for (const event of room.ingest.push(chunk)) {
      if (event.kind === 'init' && this.refusesSize(roomName, room, event.bytes)) return;
      room.pipeline?.write(event);
    }
  }

  stopPublishing(roomName: string): Promise<void> {
    const room = this.room(roomName);
    room.ingest = undefined;
    room.sizeCheck = undefined;
    void this.releasePublisher(roomName);
    const restreamStopped = this.stopRestream(room);
    this.emit(roomName, { kind: 'idle' });
    return this.stopPipeline(room, restreamStopped);
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

  /** This instance holds the room's publisher now (its lease, renewed every PUBLISHER_HEARTBEAT_MS). */
  private holdPublisher(roomName: string): void {
    this.publishing.add(roomName);
    holdPublishers(this.db, [roomName], this.instanceId).catch((error) =>
      this.log.warn({ err: error, roomName }, 'taking the publisher’s lease failed; the heartbeat retries'),
    );
  }

  /** The publisher left this instance: the grace before its stream ends starts now. */
  private releasePublisher(roomName: string): Promise<void> {
    if (!this.publishing.delete(roomName)) return Promise.resolve();
    return releasePublisher(this.db, roomName, this.instanceId).catch((error) =>
      this.log.warn({ err: error, roomName }, 'releasing the publisher’s lease failed; it lapses'),
    );
  }

  /** Where the room's recorder records its parts: the database, for every instance to see. */
  private recordedParts(roomName: string): RecordedParts {
    return {
      opened: (partId) => recordPart(this.db, roomName, partId, this.instanceId),
      closed: (partId) => closePart(this.db, roomName, partId),
    };
  }

  /**
   * A pro owner's stream with an RTMP URL is restreamed there while the publisher is connected
   * here: a (re)connecting publisher gets a new ffmpeg, once the previous one has let go. The plan
   * is checked again now, as the owner may have left Pro since creating the stream. Failures are
   * logged and never affect publishing.
   */
  private async startRestream(
    roomName: string,
    room: LiveRoom,
    target: { rtmpUrl: string | null; plan: string } | undefined,
  ): Promise<void> {
    const previous = this.stopRestream(room);
    const generation = room.restreamGeneration;
    if (target?.rtmpUrl && target.plan !== 'pro') {
      this.log.info({ roomName }, 'not restreaming: the owner is no longer on the Pro plan');
    }
    const rtmpUrl = target?.plan === 'pro' ? target.rtmpUrl : null;
    if (!rtmpUrl || !room.ingest) return;
    // Again now: the URL's host may resolve elsewhere than when it was saved.
    const refusal = await egressRefusal(rtmpUrl, this.restreamAllowedHosts);
    if (refusal) {
      this.log.warn({ roomName, target: redactRtmpUrl(rtmpUrl), refusal }, 'not restreaming: target refused');
      return;
    }
    if (room.restreamGeneration !== generation || !room.ingest) return;
    room.restream = new Restream({
      roomName,
      rtmpUrl,
      log: this.log,
      resume: () => webmStartOf(room.relay.snapshot()),
      after: previous,
      // Every (re)connection resolves the host again and refuses private addresses then.
      lookup: guardedLookup(this.restreamAllowedHosts),
    });
  }

  /** Stops the room's restream (if any) and makes any restream lookup in flight stale. */
  private stopRestream(room: LiveRoom): Promise<void> {
    room.restreamGeneration += 1;
    const restream = room.restream;
    room.restream = undefined;
    return restream ? restream.stop() : Promise.resolve();
  }

  /** A viewer connected here; when this instance is not yet following the room, it catches up. */
  async addViewer(roomName: string, socket: WebSocket): Promise<void> {
    const room = this.room(roomName);
    // The end reaches this instance's viewers wherever the publisher is (or was).
    await this.watchForEnd(roomName);
    await this.followMedia(roomName);
    room.relay.addViewer(socket);
    // Closed while we were subscribing: its close handler already ran.
    if (socket.readyState === socket.CLOSING || socket.readyState === socket.CLOSED) {
      room.relay.removeViewer(socket);
    }
    if (!room.synced) this.send(roomName, { kind: 'sync' });
  }

  removeViewer(roomName: string, socket: WebSocket): void {
    this.rooms.get(roomName)?.relay.removeViewer(socket);
  }

  private emit(roomName: string, event: RelayEvent) {
    this.room(roomName).relay.apply(event);
    this.send(roomName, event);
  }

  private send(roomName: string, event: RelayEvent) {
    this.bus
      .publishBytes(mediaChannel(roomName), encodeRelayEvent(event, this.instanceId))
      .catch((error) =>
        this.log.warn({ err: error, roomName }, 'sending live video to other instances failed'),
      );
  }

  private followMedia(roomName: string): Promise<unknown> {
    const room = this.room(roomName);
    room.media ??= this.bus.subscribeBytes(mediaChannel(roomName), (payload) =>
      this.receive(roomName, payload),
    );
    return room.media;
  }

  private receive(roomName: string, payload: Buffer) {
    const decoded = decodeRelayEvent(payload);
    const room = this.rooms.get(roomName);
    if (!decoded || !room || decoded.sender === this.instanceId) return;
    const { event } = decoded;
    if (event.kind === 'sync') {
      const snapshot = room.ingest ? room.relay.snapshot() : undefined;
      if (snapshot) this.send(roomName, snapshot);
      return;
    }
    if (event.kind === 'reset') {
      // Another instance took the publisher (and restreams and records it from there): what this
      // one was recording is finished (its last segments stored, its part closed).
      room.ingest = undefined;
      room.sizeCheck = undefined;
      void this.releasePublisher(roomName);
      if (room.recorder) room.recorder.live = false;
      void this.stopPipeline(room, this.stopRestream(room));
      room.synced = true;
    } else if (event.kind === 'snapshot') {
      if (room.synced) return;
      room.synced = true;
    } else if (!room.synced) {
      return;
    }
    room.relay.apply(event);
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
    const room = this.room(roomName);
    room.finishing ??= (async () => {
      for (const listener of this.endListeners) listener(roomName);
      room.relay.broadcastControl({ type: 'stream_ended' });
      room.ingest = undefined;
      room.relay.apply({ kind: 'idle' });
      await this.stopPipeline(room, this.stopRestream(room));
      await room.recorder?.close();
      await this.releasePublisher(roomName);
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

  /** Renews the leases of the publishers and the open parts this instance holds. */
  private async renewLeases(): Promise<void> {
    await holdPublishers(this.db, [...this.publishing], this.instanceId);
    const parts = [...this.rooms.values()].flatMap((room) => room.recorder?.openParts() ?? []);
    await renewParts(this.db, parts, this.instanceId);
  }

  /**
   * Finishes the followed rooms whose stream has ended (the end missed on the bus: an outage, or
   * the instance that ended it died), and makes the replays nobody has made.
   */
  async sweep(): Promise<void> {
    const followed = [...this.rooms].filter(([, room]) => !room.finishing).map(([roomName]) => roomName);
    for (const roomName of await endedAmong(this.db, followed)) void this.finish(roomName);
    await this.replays.makeDue((roomName) => Boolean(this.rooms.get(roomName)?.finishing));
  }

  /** The heartbeat (every PUBLISHER_HEARTBEAT_MS) and the sweep (now, then every `sweepMs`) until close(). */
  startSweeps(sweepMs = REPLAY_SWEEP_MS): void {
    this.heartbeat = setInterval(() => {
      this.renewLeases().catch((error) => this.log.warn({ err: error }, 'renewing the media leases failed'));
    }, PUBLISHER_HEARTBEAT_MS);
    this.heartbeat.unref();
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
    if (await ensureDemoReplay(this.storage, this.stagingDir, demo)) {
      this.log.info({ roomName: demo.roomName }, 'demo replay video made');
    }
  }

  /** Starts the always-live demo room (DEMO_LIVE), once; see demo-live.ts. */
  async startDemoLive(demo: DemoLiveStream): Promise<void> {
    if (this.demoLive || !(await upsertDemoLiveStream(this.db, demo))) return;
    this.demoLive = new DemoLive(path.join(this.stagingDir, 'demo-clip'), demo.roomName, this, this.log);
    await this.demoLive.start();
  }

  async close(): Promise<void> {
    this.demoLive?.stop();
    clearInterval(this.heartbeat);
    clearInterval(this.replaySweep);
    const restreamsStopped = [...this.rooms.values()].map((room) => this.stopRestream(room));
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
      await this.releasePublisher(roomName);
      await room.unsubscribe?.();
      await (await room.media)?.();
      this.rooms.delete(roomName);
    }
    await Promise.all(restreamsStopped);
  }
}

/** Whether `size` fits in `limit`, either way up. */
function fits(size: VideoSize, limit: VideoSize): boolean {
  const [long, short] = size.width >= size.height ? [size.width, size.height] : [size.height, size.width];
  return long <= Math.max(limit.width, limit.height) && short <= Math.min(limit.width, limit.height);
}
