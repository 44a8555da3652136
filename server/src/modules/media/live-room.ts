import type { ServerMessage } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus.ts';
import type { Splitter } from './containers/mime-types.ts';
import { RoomRelay } from './delivery/ws/relay.ts';
import type { SizeCheck } from './ingest/size-check.ts';
import type { HlsRecorder } from './pipeline/hls-recorder.ts';
import type { LivePipeline } from './pipeline/pipeline.ts';
import { decodeRelayEvent, encodeRelayEvent, type RelayEvent } from './relay-events.ts';
import type { Restream } from './restream/restream.ts';

/** One room's live video on this instance (MediaService keeps one per room it follows). */
export interface LiveRoom {
  relay: RoomRelay;
  /** Present while this instance holds the room's publisher: splits what the publisher sends. */
  splitter: Splitter | undefined;
  /** What the publisher's inits are held against; undefined when the plan is unknown. */
  sizeCheck: SizeCheck | undefined;
  /** The publisher's media pipeline (ffmpeg), while the publisher is connected here. */
  pipeline: LivePipeline | undefined;
  /** The stream's HLS segments and playlists, once the publisher has been here. */
  recorder: HlsRecorder | undefined;
  /** The last publisher's pipeline writing its final segments (the end waits for it). */
  stopped: Promise<void>;
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

export function newLiveRoom(): LiveRoom {
  return {
    relay: new RoomRelay(),
    splitter: undefined,
    sizeCheck: undefined,
    pipeline: undefined,
    recorder: undefined,
    stopped: Promise.resolve(),
    synced: false,
    unsubscribe: undefined,
    media: undefined,
    finishing: undefined,
    restream: undefined,
    restreamGeneration: 0,
  };
}

const mediaChannel = (roomName: string) => `media:${roomName}`;

/** What the rooms tell the media service. */
export interface LiveRoomsListener {
  /** The stream ended (`stream_ended` on the room's channel, from any instance). */
  ended(roomName: string): void;
  /** Another instance took the room's publisher: what this one published there stops. */
  takenOver(roomName: string, room: LiveRoom): void;
}

/**
 * The rooms this instance follows, by name, and their video between instances: the publisher's
 * instance sends every relay event to the room's media channel on the bus; an instance whose
 * viewers join mid-stream asks for a snapshot (init segment and current keyframe group) and then
 * follows the live events.
 */
export class LiveRooms extends Map<string, LiveRoom> {
  constructor(
    private readonly bus: Bus,
    private readonly instanceId: string,
    private readonly log: FastifyBaseLogger,
    private readonly listener: LiveRoomsListener,
  ) {
    super();
  }

  /** The room, followed from now on if it was not. */
  room(roomName: string): LiveRoom {
    let room = this.get(roomName);
    if (!room) {
      room = newLiveRoom();
      this.set(roomName, room);
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
      if (message.type === 'stream_ended') this.listener.ended(roomName);
    });
  }

  /** Applies the event of this instance's publisher here, and sends it to the other instances. */
  emit(roomName: string, event: RelayEvent) {
    this.room(roomName).relay.apply(event);
    this.send(roomName, event);
  }

  send(roomName: string, event: RelayEvent) {
    this.bus
      .publishBytes(mediaChannel(roomName), encodeRelayEvent(event, this.instanceId))
      .catch((error) =>
        this.log.warn({ err: error, roomName }, 'sending live video to other instances failed'),
      );
  }

  /** Follows the room's media channel (once). */
  followMedia(roomName: string): Promise<unknown> {
    const room = this.room(roomName);
    room.media ??= this.bus.subscribeBytes(mediaChannel(roomName), (payload) =>
      this.receive(roomName, payload),
    );
    return room.media;
  }

  private receive(roomName: string, payload: Buffer) {
    const decoded = decodeRelayEvent(payload);
    const room = this.get(roomName);
    if (!decoded || !room || decoded.sender === this.instanceId) return;
    const { event } = decoded;
    if (event.kind === 'sync') {
      const snapshot = room.splitter ? room.relay.snapshot() : undefined;
      if (snapshot) this.send(roomName, snapshot);
      return;
    }
    if (event.kind === 'reset') {
      this.listener.takenOver(roomName, room);
      room.synced = true;
    } else if (event.kind === 'snapshot') {
      if (room.synced) return;
      room.synced = true;
    } else if (!room.synced) {
      return;
    }
    room.relay.apply(event);
  }
}
