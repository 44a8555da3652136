import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import { egressRefusal, guardedLookup } from '../../platform/egress.ts';
import { WebmIngest } from './ingest.ts';
import { finalizeRecording, Recording } from './recording.ts';
import { RoomRelay } from './relay.ts';
import { decodeRelayEvent, encodeRelayEvent, type RelayEvent } from './relay-events.ts';
import { endedWithoutReplay, restreamTargetOf, setReplayUrl } from './repo.ts';
import { Restream, redactRtmpUrl, webmStartOf } from './restream.ts';

interface LiveRoom {
  relay: RoomRelay;
  recording: Recording;
  /** Present while this instance holds the room's publisher. */
  ingest: WebmIngest | undefined;
  /** This relay follows the publisher's (it saw the publisher start, or a snapshot). */
  synced: boolean;
  unsubscribe: (() => Promise<void>) | undefined;
  /** The room's media channel between instances. */
  media: Promise<() => Promise<void>> | undefined;
  finishing: Promise<void> | undefined;
  /** The pro owner's restream to their RTMP URL, while this instance holds the publisher. */
  restream: Restream | undefined;
  /** Bumped whenever the publisher starts or stops here: a restream lookup from before is stale. */
  restreamGeneration: number;
}

const mediaChannel = (roomName: string) => `media:${roomName}`;

/**
 * Live video of the rooms on this instance: the publisher's ingest and recording when the
 * broadcaster is connected here, the relay to the viewers connected here, and turning the
 * recording into the replay (vodUrl) when the stream ends, however it ends.
 *
 * Instances share a room's video over the bus: the publisher's instance sends every relay event
 * to the room's media channel; an instance whose viewers join mid-stream asks for a snapshot
 * (init segment and current keyframe group) and then follows the live events.
 */
export class MediaService {
  private readonly rooms = new Map<string, LiveRoom>();
  private readonly instanceId = randomUUID();

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly mediaDir: string,
    /** Recordings in progress: outside mediaDir, which is public under /media/. */
    private readonly recordingsDir: string,
    private readonly log: FastifyBaseLogger,
    /** RESTREAM_ALLOWED_HOSTS: private hosts a restream may still reach. */
    private readonly restreamAllowedHosts: string[] = [],
  ) {}

  private recordingDir(roomName: string): string {
    return path.join(this.recordingsDir, roomName);
  }

  room(roomName: string): LiveRoom {
    let room = this.rooms.get(roomName);
    if (!room) {
      room = {
        relay: new RoomRelay(),
        recording: new Recording(this.recordingDir(roomName)),
        ingest: undefined,
        synced: false,
        unsubscribe: undefined,
        media: undefined,
        finishing: undefined,
        restream: undefined,
        restreamGeneration: 0,
      };
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

  /** The owner's broadcaster connected here: its bytes drive every instance's relay from now on. */
  async startPublishing(roomName: string, mimeType: string): Promise<void> {
    const room = this.room(roomName);
    await this.watchForEnd(roomName);
    await this.followMedia(roomName);
    room.ingest = new WebmIngest();
    room.synced = true;
    this.emit(roomName, { kind: 'reset', mimeType });
    await room.recording.startPart();
    await this.startRestream(roomName, room);
  }

  /** A chunk from this instance's publisher; throws WebmError when it is not WebM. */
  pushFromPublisher(roomName: string, chunk: Buffer): void {
    const room = this.room(roomName);
    if (!room.ingest) return;
    for (const event of room.ingest.push(chunk)) {
      this.emit(roomName, event);
      room.restream?.push(event);
    }
    room.recording.write(chunk);
  }

  async stopPublishing(roomName: string): Promise<void> {
    const room = this.room(roomName);
    room.ingest = undefined;
    const restreamStopped = this.stopRestream(room);
    this.emit(roomName, { kind: 'idle' });
    await room.recording.endPart();
    await restreamStopped;
  }

  /**
   * A pro owner's stream with an RTMP URL is restreamed there while the publisher is connected
   * here: a (re)connecting publisher gets a new ffmpeg, once the previous one has let go. The plan
   * is checked again now, as the owner may have left Pro since creating the stream. Failures are
   * logged and never affect publishing.
   */
  private async startRestream(roomName: string, room: LiveRoom): Promise<void> {
    const previous = this.stopRestream(room);
    const generation = room.restreamGeneration;
    let rtmpUrl: string | undefined;
    try {
      const row = await restreamTargetOf(this.db, roomName);
      if (row?.rtmpUrl && row.plan !== 'pro') {
        this.log.info({ roomName }, 'not restreaming: the owner is no longer on the Pro plan');
      }
      if (row?.rtmpUrl && row.plan === 'pro') rtmpUrl = row.rtmpUrl;
    } catch (error) {
      this.log.warn({ err: error, roomName }, 'looking up the restream URL failed');
    }
    if (!rtmpUrl || room.restreamGeneration !== generation || !room.ingest) return;
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
      // Another instance took the publisher (and restreams it from there).
      room.ingest = undefined;
      void this.stopRestream(room);
      room.synced = true;
    } else if (event.kind === 'snapshot') {
      if (room.synced) return;
      room.synced = true;
    } else if (!room.synced) {
      return;
    }
    room.relay.apply(event);
  }

  /** Stops relaying, and publishes the recording as the stream's replay. Runs once per room. */
  finish(roomName: string): Promise<void> {
    const room = this.room(roomName);
    room.finishing ??= (async () => {
      room.relay.broadcastControl({ type: 'stream_ended' });
      room.ingest = undefined;
      const restreamStopped = this.stopRestream(room);
      room.relay.apply({ kind: 'idle' });
      await room.recording.endPart();
      await room.unsubscribe?.();
      await (await room.media)?.();
      await this.publishReplay(roomName);
      await restreamStopped;
      this.rooms.delete(roomName);
    })().catch((error) => this.log.error({ err: error, roomName }, 'finishing a stream failed'));
    return room.finishing;
  }

  private async publishReplay(roomName: string): Promise<void> {
    const file = await finalizeRecording(
      this.recordingDir(roomName),
      path.join(this.mediaDir, 'vods', `${roomName}.webm`),
    );
    if (!file) return;
    await setReplayUrl(this.db, roomName, `/media/vods/${roomName}.webm`);
    this.log.info({ roomName }, 'replay ready');
  }

  /** After a restart: recordings of streams that ended meanwhile become replays now. */
  async finishOrphans(): Promise<void> {
    await this.moveLegacyRecordings();
    for (const roomName of await endedWithoutReplay(this.db)) {
      if (existsSync(this.recordingDir(roomName))) await this.finish(roomName);
    }
  }

  /** Earlier versions recorded into the public media/recordings; move what is left out of it. */
  private async moveLegacyRecordings(): Promise<void> {
    const legacy = path.join(this.mediaDir, 'recordings');
    if (!existsSync(legacy)) return;
    await mkdir(this.recordingsDir, { recursive: true });
    for (const roomName of await readdir(legacy)) {
      if (!existsSync(this.recordingDir(roomName)))
        await rename(path.join(legacy, roomName), this.recordingDir(roomName));
    }
    if ((await readdir(legacy)).length === 0) await rmdir(legacy);
  }

  async close(): Promise<void> {
    const restreamsStopped = [...this.rooms.values()].map((room) => this.stopRestream(room));
    for (const [roomName, room] of this.rooms) {
      await room.recording.endPart();
      await room.unsubscribe?.();
      await (await room.media)?.();
      this.rooms.delete(roomName);
    }
    await Promise.all(restreamsStopped);
  }
}
