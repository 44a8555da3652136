import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { hlsPath, LIVE_PLAYLIST, REPLAY_PLAYLIST } from '@streamshop/contract/live.ts';
import type { Storage } from '../../platform/storage.ts';
import type { PipelinePart } from './pipeline.ts';
import {
  LIVE_WINDOW_SEGMENTS,
  type Playlist,
  parsePlaylist,
  renderPlaylist,
  type Segment,
} from './playlist.ts';
import { grabThumbnail } from './thumbnail.ts';

/** How often the working folders are checked for finished segments. */
const POLL_MS = 100;
/** A new thumbnail at most this often while live. */
export const THUMBNAIL_EVERY_MS = 30_000;

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/** Where a stream's HLS files are kept in storage (served at hlsPath: /media/ + the key). */
export const hlsKey = (roomName: string, file: string) => `hls/${roomName}/${file}`;

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function storedPlaylist(storage: Storage, roomName: string): Promise<Playlist | undefined> {
  const object = await storage.get(hlsKey(roomName, REPLAY_PLAYLIST));
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return parsePlaylist(Buffer.concat(chunks).toString('utf8'));
}

async function putPlaylists(storage: Storage, roomName: string, playlist: Playlist): Promise<void> {
  await storage.put(hlsKey(roomName, REPLAY_PLAYLIST), Buffer.from(renderPlaylist(playlist)), PLAYLIST_TYPE);
  await storage.put(
    hlsKey(roomName, LIVE_PLAYLIST),
    Buffer.from(renderPlaylist(playlist, LIVE_WINDOW_SEGMENTS)),
    PLAYLIST_TYPE,
  );
}

/**
 * Closes a stream's stored playlist (#EXT-X-ENDLIST, type VOD): it is the replay. Any instance
 * may do it, any number of times. Undefined when the stream has no segments.
 */
export async function closeStoredPlaylist(storage: Storage, roomName: string): Promise<string | undefined> {
  const playlist = await storedPlaylist(storage, roomName);
  if (!playlist || playlist.segments.length === 0) return undefined;
  if (!playlist.ended) await putPlaylists(storage, roomName, { ...playlist, ended: true });
  return hlsPath(roomName, REPLAY_PLAYLIST);
}

interface PartState {
  part: PipelinePart;
  init: Buffer | undefined;
  /** ffmpeg's segment names already moved to storage. */
  stored: Set<string>;
  /** ffmpeg has exited: one last look, then the folder goes. */
  ended: boolean;
}

export interface HlsRecorderOptions {
  roomName: string;
  storage: Storage;
  log: { warn(object: object, message: string): void };
  /** A new thumbnail is in storage at this URL. */
  onThumbnail: (url: string) => void;
  /**
   * Keep only this many segments, deleting older ones from storage (the always-live demo room,
   * which would otherwise grow without end). Such a stream has no whole replay.
   */
  keepSegments?: number;
  ffmpegPath?: string;
}

/**
 * The stream's HLS on the publisher's instance: moves each segment ffmpeg finishes (in every part,
 * one per ffmpeg run) to storage, and after each one rewrites the stream's playlists there: the
 * live window (live.m3u8) and the whole stream (index.m3u8), which close() turns into the replay.
 * A stream that continues here after another instance (a publisher reconnect) continues the
 * playlist stored before. Every 30 s one segment's first frame becomes the thumbnail.
 */
export class HlsRecorder {
  private playlist: Playlist | undefined;
  private readonly parts = new Map<string, PartState>();
  private timer: NodeJS.Timeout | undefined;
  private work: Promise<void> = Promise.resolve();
  private lastThumbnailAt = 0;
  private thumbnails = 0;
  /** Stored thumbnails, newest last: only the last two are kept (pages may still show the one before). */
  private readonly thumbnailKeys: string[] = [];

  constructor(private readonly options: HlsRecorderOptions) {}

  addPart(part: PipelinePart): void {
    this.parts.set(part.id, { part, init: undefined, stored: new Set(), ended: false });
    this.timer ??= setInterval(() => this.schedule(), POLL_MS);
  }

  /** The part's ffmpeg exited: its last segments go to storage now. */
  endPart(part: PipelinePart): Promise<void> {
    const state = this.parts.get(part.id);
    if (state) state.ended = true;
    return this.schedule();
  }

  /** Waits for every finished segment to be stored; ended parts' folders are removed. */
  flush(): Promise<void> {
    return this.schedule();
  }

  /** Stops watching and closes the stored playlist: the replay. Undefined without segments. */
  async close(): Promise<string | undefined> {
    await this.flush();
    this.stopTimer();
    // Anything stored after this keeps the playlist closed.
    if (this.playlist) this.playlist.ended = true;
    return closeStoredPlaylist(this.options.storage, this.options.roomName);
  }

  /** Stops watching without closing the playlist (this instance is shutting down). */
  async stop(): Promise<void> {
    await this.flush();
    this.stopTimer();
  }

  private stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private schedule(): Promise<void> {
    this.work = this.work.then(
      () => this.collect(),
      () => this.collect(),
    );
    return this.work.catch((error) =>
      this.options.log.warn({ err: error, roomName: this.options.roomName }, 'storing live segments failed'),
    );
  }

  private async collect(): Promise<void> {
    const { storage, roomName } = this.options;
    this.playlist ??= (await storedPlaylist(storage, roomName)) ?? { segments: [], ended: false };
    const playlist = this.playlist;
    let added = 0;
    for (const state of this.parts.values()) {
      const { part } = state;
      const text = await readIfThere(path.join(part.dir, 'index.m3u8'));
      const fresh = text
        ? parsePlaylist(text.toString('utf8')).segments.filter((s) => !state.stored.has(s.uri))
        : [];
      for (const segment of fresh) {
        if (!state.init) {
          state.init = await readFile(path.join(part.dir, 'init.mp4'));
          await storage.put(hlsKey(roomName, `${part.id}-init.mp4`), state.init, 'video/mp4');
        }
        const bytes = await readFile(path.join(part.dir, segment.uri));
        await storage.put(hlsKey(roomName, `${part.id}-${segment.uri}`), bytes, 'video/iso.segment');
        state.stored.add(segment.uri);
        const entry: Segment = {
          uri: `${part.id}-${segment.uri}`,
          duration: segment.duration,
          map: `${part.id}-init.mp4`,
          discontinuity:
            playlist.segments.length > 0 && playlist.segments.at(-1)?.map !== `${part.id}-init.mp4`,
        };
        playlist.segments.push(entry);
        added += 1;
        await rm(path.join(part.dir, segment.uri), { force: true });
        this.maybeThumbnail(state.init, bytes);
      }
      if (state.ended) {
        this.parts.delete(part.id);
        await rm(part.dir, { recursive: true, force: true });
      }
    }
    const keep = this.options.keepSegments;
    if (keep !== undefined && playlist.segments.length > keep) {
      const dropped = playlist.segments.splice(0, playlist.segments.length - keep);
      playlist.sequence = (playlist.sequence ?? 0) + dropped.length;
      const maps = new Set(playlist.segments.map((segment) => segment.map));
      for (const segment of dropped) await storage.delete(hlsKey(roomName, segment.uri));
      for (const map of new Set(dropped.map((segment) => segment.map))) {
        if (!maps.has(map)) await storage.delete(hlsKey(roomName, map));
      }
    }
    if (added > 0) await putPlaylists(storage, roomName, playlist);
    if (this.parts.size === 0) this.stopTimer();
  }

  private maybeThumbnail(init: Buffer, segment: Buffer) {
    const now = Date.now();
    if (now - this.lastThumbnailAt < THUMBNAIL_EVERY_MS) return;
    this.lastThumbnailAt = now;
    const { storage, roomName, log, onThumbnail } = this.options;
    const name = `thumb-${Date.now().toString(36)}-${this.thumbnails++}.jpg`;
    void grabThumbnail(init, segment, this.options.ffmpegPath)
      .then(async (jpeg) => {
        await storage.put(hlsKey(roomName, name), jpeg, 'image/jpeg');
        onThumbnail(hlsPath(roomName, name));
        this.thumbnailKeys.push(hlsKey(roomName, name));
        while (this.thumbnailKeys.length > 2) await storage.delete(this.thumbnailKeys.shift() as string);
      })
      .catch((error) => log.warn({ err: error, roomName }, 'making a thumbnail failed'));
  }
}
