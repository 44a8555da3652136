import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { hlsPath, LIVE_PLAYLIST } from '@streamshop/contract/live.ts';
import type { Storage } from '../../../platform/storage.ts';
import { type EdgeSink, LiveEdge } from './live-edge.ts';
import type { PipelinePart } from './pipeline.ts';
import {
  dropOldest,
  LIVE_WINDOW_SEGMENTS,
  type Playlist,
  parsePlaylist,
  renderPlaylist,
  type Segment,
} from './playlist.ts';
import type { Cut } from './segmenter.ts';
import { hlsKey, PartPlaylist, putPlaylist, storedPlaylist } from './stored-parts.ts';
import { grabThumbnail } from './thumbnail.ts';

/** How often the working folders are checked for finished segments. */
const POLL_MS = 100;
/** A new thumbnail at most this often while live. */
export const THUMBNAIL_EVERY_MS = 30_000;

// The stream's files in storage (stored-parts.ts), for the modules that import them from here.
export {
  hlsKey,
  PLAYLIST_TYPE,
  partPlaylistName,
  putPlaylist,
  storedPlaylist,
  storedPlaylistText,
} from './stored-parts.ts';

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What the recorder tells the stream's record of parts (the database). */
export interface RecordedParts {
  /** Before a part's first segment goes to storage: it is one of the stream's parts from now on. */
  opened(partId: string): Promise<void>;
  /** After its last segment and its closed playlist are in storage. */
  closed(partId: string): Promise<void>;
}

interface PartState {
  part: PipelinePart;
  init: Buffer | undefined;
  /** ffmpeg's segment names already moved to storage. */
  stored: Set<string>;
  /** The part's segments in storage, in order: its own playlist (sealed chunks and tail while open). */
  playlist: PartPlaylist;
  /** Recorded as one of the stream's parts. */
  opened: boolean;
  /** ffmpeg has exited: one last look, then the part is closed and its folder goes. */
  ended: boolean;
}

export interface HlsRecorderOptions {
  roomName: string;
  storage: Storage;
  log: { warn(object: object, message: string): void };
  /** A new thumbnail is in storage at this URL. */
  onThumbnail: (url: string) => void;
  /**
   * Where each part is recorded, so that any instance can join them into the replay. Absent: the
   * stream keeps only its live window, deleting older segments from storage (the always-live demo
   * room, which would otherwise grow without end); it has no replay.
   */
  parts?: RecordedParts;
  /** Where the low-latency live edge goes (delivery/hls/edges.ts); absent: none is kept. */
  edge?: EdgeSink;
  ffmpegPath?: string;
}

/**
 * The stream's HLS on the instance holding its publisher: moves each segment ffmpeg finishes (in
 * every part, one per ffmpeg run) to storage. After each one it stores that part's own playlist
 * there (`part-<id>.m3u8`: sealed chunks and a tail of at most a minute while open, written whole
 * when the part ends; stored-parts.ts), which is what the replay is made of, and the live window
 * (`live.m3u8`), which a publisher moving here from another instance continues.
 * Every 30 s one segment's first frame becomes the thumbnail.
 */
export class HlsRecorder {
  /** The live window: the last segments, with the sequence numbers of what it left out. */
  private window: Playlist | undefined;
  private readonly parts = new Map<string, PartState>();
  private timer: NodeJS.Timeout | undefined;
  private work: Promise<void> = Promise.resolve();
  private lastThumbnailAt = 0;
  private thumbnails = 0;
  /** The thumbnail being made (ffmpeg, then storage), if any: close() waits for it. */
  private thumbnailWork: Promise<void> = Promise.resolve();
  /** Stored thumbnails, newest last: only the last two are kept (pages may still show the one before). */
  private readonly thumbnailKeys: string[] = [];
  private isLive = true;
  /** The live edge (low-latency parts) of the window, while this instance holds the publisher. */
  private readonly edge: LiveEdge | undefined;

  constructor(private readonly options: HlsRecorderOptions) {
    const sink = options.edge;
    this.edge = sink && new LiveEdge(() => (this.isLive ? this.window : undefined), sink);
  }

  /**
   * This instance holds the stream's publisher: new segments go into the live window and the live
   * edge. Off once another instance has taken the publisher over (this one only finishes its parts then).
   */
  get live(): boolean {
    return this.isLive;
  }

  set live(live: boolean) {
    if (this.isLive && !live) this.edge?.end();
    this.isLive = live;
  }

  /** A part or segment the run's segmenter finished: the live edge moves on. */
  cut(part: PipelinePart, cut: Cut): void {
    if (this.isLive) this.edge?.cut(part.id, cut);
  }

  addPart(part: PipelinePart): void {
    // A publisher (re)starting here continues the window as stored, wherever it was written.
    if (this.parts.size === 0) this.window = undefined;
    this.parts.set(part.id, {
      part,
      init: undefined,
      stored: new Set(),
      playlist: new PartPlaylist(this.options.storage, this.options.roomName, part.id),
      opened: false,
      ended: false,
    });
    this.timer ??= setInterval(() => this.schedule(), POLL_MS);
  }

  /** The part's ffmpeg exited: its last segments go to storage now, then it is closed. */
  endPart(part: PipelinePart): Promise<void> {
    const state = this.parts.get(part.id);
    if (state) state.ended = true;
    return this.schedule();
  }

  /** Waits for every finished segment to be stored; ended parts are closed and their folders removed. */
  flush(): Promise<void> {
    return this.schedule();
  }

  /** The parts recorded and not yet closed (their heartbeat says this instance still writes them). */
  openParts(): string[] {
    return [...this.parts.values()].filter((state) => state.opened).map((state) => state.part.id);
  }

  /**
   * Stores what is left, and waits for a thumbnail being made: nothing is written after this (the
   * stream ended, or this instance is stopping). The live edge ends.
   */
  async close(): Promise<void> {
    this.edge?.end();
    await this.flush();
    this.stopTimer();
    await this.thumbnailWork;
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
    const { storage, roomName, parts } = this.options;
    this.window ??= await liveWindowOf(storage, roomName);
    const window = this.window;
    let added = 0;
    for (const state of this.parts.values()) {
      const { part } = state;
      // Whether the run had ended before its playlist is read: one that ends while this pass
      // stores its segments may have written more since, and is closed by the next pass.
      const ended = state.ended;
      const text = await readIfThere(path.join(part.dir, 'index.m3u8'));
      const fresh = text
        ? parsePlaylist(text.toString('utf8')).segments.filter((s) => !state.stored.has(s.uri))
        : [];
      for (const segment of fresh) {
        if (parts && !state.opened) {
          await parts.opened(part.id);
          state.opened = true;
        }
        const map = `${part.id}-init.mp4`;
        if (!state.init) {
          state.init = await readFile(path.join(part.dir, 'init.mp4'));
          await storage.put(hlsKey(roomName, map), state.init, 'video/mp4');
        }
        const bytes = await readFile(path.join(part.dir, segment.uri));
        const uri = `${part.id}-${segment.uri}`;
        await storage.put(hlsKey(roomName, uri), bytes, 'video/iso.segment');
        state.stored.add(segment.uri);
        state.playlist.add({ uri, duration: segment.duration, map, discontinuity: false });
        if (this.isLive) {
          window.segments.push({
            uri,
            duration: segment.duration,
            map,
            discontinuity: (window.segments.at(-1)?.map ?? map) !== map,
          });
          added += 1;
        }
        await rm(path.join(part.dir, segment.uri), { force: true });
        this.maybeThumbnail(state.init, bytes);
      }
      if (parts && state.opened) {
        await (ended ? state.playlist.storeClosed() : state.playlist.storeOpen());
      }
      if (ended) {
        if (parts && state.opened) {
          await parts.closed(part.id);
          await state.playlist
            .deleteChunks()
            .catch((error) =>
              this.options.log.warn(
                { err: error, roomName, partId: part.id },
                'deleting a closed part’s chunks failed',
              ),
            );
        }
        this.parts.delete(part.id);
        await rm(part.dir, { recursive: true, force: true });
      }
    }
    const dropped = dropOldest(window, LIVE_WINDOW_SEGMENTS);
    if (!parts) await this.deleteDropped(window, dropped);
    if (added > 0) {
      await putPlaylist(
        storage,
        hlsKey(roomName, LIVE_PLAYLIST),
        renderPlaylist(window, LIVE_WINDOW_SEGMENTS),
      );
    }
    if (this.parts.size === 0) this.stopTimer();
  }

  /** Without a replay to keep, segments (and init segments) that left the window leave storage. */
  private async deleteDropped(window: Playlist, dropped: Segment[]): Promise<void> {
    const { storage, roomName } = this.options;
    const maps = new Set(window.segments.map((segment) => segment.map));
    const unused = [...new Set(dropped.map((segment) => segment.map))].filter((map) => !maps.has(map));
    const names = [...dropped.map((segment) => segment.uri), ...unused];
    if (names.length > 0) await storage.deleteMany(names.map((name) => hlsKey(roomName, name)));
  }

  private maybeThumbnail(init: Buffer, segment: Buffer) {
    const now = Date.now();
    if (now - this.lastThumbnailAt < THUMBNAIL_EVERY_MS) return;
    this.lastThumbnailAt = now;
    const { storage, roomName, log, onThumbnail } = this.options;
    const name = `thumb-${Date.now().toString(36)}-${this.thumbnails++}.jpg`;
    this.thumbnailWork = grabThumbnail(init, segment, this.options.ffmpegPath)
      .then(async (jpeg) => {
        await storage.put(hlsKey(roomName, name), jpeg, 'image/jpeg');
        onThumbnail(hlsPath(roomName, name));
        this.thumbnailKeys.push(hlsKey(roomName, name));
        while (this.thumbnailKeys.length > 2) await storage.delete(this.thumbnailKeys.shift() as string);
      })
      .catch((error) => {
        // The next segment tries again, rather than 30 s later: a short stream still gets one.
        this.lastThumbnailAt = Number.NEGATIVE_INFINITY;
        log.warn({ err: error, roomName }, 'making a thumbnail failed; the next segment tries again');
      });
  }
}

/** The stream's live window as stored (by this instance or another), or an empty one. */
async function liveWindowOf(storage: Storage, roomName: string): Promise<Playlist> {
  const stored = await storedPlaylist(storage, hlsKey(roomName, LIVE_PLAYLIST));
  return stored && !stored.ended ? { ...stored, ended: false } : { segments: [], ended: false };
}
