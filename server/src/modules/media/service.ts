import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../platform/bus.ts';
import { finalizeRecording, Recording } from './recording.ts';
import { RoomRelay } from './relay.ts';

interface LiveRoom {
  relay: RoomRelay;
  recording: Recording;
  unsubscribe: (() => Promise<void>) | undefined;
  finishing: Promise<void> | undefined;
}

/**
 * Live video of the rooms published to this instance: the relay to viewers, the recording, and
 * turning the recording into the replay (vodUrl) when the stream ends, however it ends.
 */
export class MediaService {
  private readonly rooms = new Map<string, LiveRoom>();

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly mediaDir: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  room(roomName: string): LiveRoom {
    let room = this.rooms.get(roomName);
    if (!room) {
      room = {
        relay: new RoomRelay(),
        recording: new Recording(path.join(this.mediaDir, 'recordings', roomName)),
        unsubscribe: undefined,
        finishing: undefined,
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

  /** Stops relaying, and publishes the recording as the stream's replay. Runs once per room. */
  finish(roomName: string): Promise<void> {
    const room = this.room(roomName);
    room.finishing ??= (async () => {
      room.relay.broadcastControl({ type: 'stream_ended' });
      room.relay.stopPublisher();
      await room.recording.endPart();
      await room.unsubscribe?.();
      await this.publishReplay(roomName);
      this.rooms.delete(roomName);
    })().catch((error) => this.log.error({ err: error, roomName }, 'finishing a stream failed'));
    return room.finishing;
  }

  private async publishReplay(roomName: string): Promise<void> {
    const file = await finalizeRecording(
      path.join(this.mediaDir, 'recordings', roomName),
      path.join(this.mediaDir, 'vods', `${roomName}.webm`),
    );
    if (!file) return;
    await this.db.execute(
      sql`update streams set vod_url = ${`/media/vods/${roomName}.webm`} where room_name = ${roomName}`,
    );
    this.log.info({ roomName }, 'replay ready');
  }

  /** After a restart: recordings of streams that ended meanwhile become replays now. */
  async finishOrphans(): Promise<void> {
    const result = await this.db.execute<{ room_name: string }>(sql`
      select room_name from streams where ended_at is not null and vod_url is null
      and ended_at > now() - interval '7 days'`);
    for (const { room_name } of result.rows) {
      if (existsSync(path.join(this.mediaDir, 'recordings', room_name))) await this.finish(room_name);
    }
  }

  async close(): Promise<void> {
    for (const [roomName, room] of this.rooms) {
      await room.recording.endPart();
      await room.unsubscribe?.();
      this.rooms.delete(roomName);
    }
  }
}
