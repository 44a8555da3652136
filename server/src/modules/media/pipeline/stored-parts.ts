import { readObject, type Storage } from '../../../platform/storage.ts';
import { isWholePlaylist, type Playlist, parsePlaylist, renderPlaylist, type Segment } from './playlist.ts';

/**
 * A stream's HLS files in storage, and each recorded part's own playlist there (ADR 0018), which
 * the replay is made of. So that a long part does not rewrite all of its segments every second,
 * an open part is stored as sealed chunks and a tail: every CHUNK_SEGMENTS segments the recorder
 * writes `part-<id>-c<k>.m3u8` once (k = 0, 1, …; closed, never rewritten), and after each segment
 * it rewrites `part-<id>.m3u8` with only the segments after the last chunk and the number of
 * chunks before them (`#EXT-X-STREAMSHOP-CHUNKS:<n>`). When the part closes, `part-<id>.m3u8` is
 * written whole (every segment, #EXT-X-ENDLIST) and then its chunks are deleted.
 */

export const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/** Segments in each sealed chunk of an open part's playlist (a minute at 1 s segments). */
export const CHUNK_SEGMENTS = 60;

/** Where a stream's HLS files are kept in storage (served at hlsPath: /media/ + the key). */
export const hlsKey = (roomName: string, file: string) => `hls/${roomName}/${file}`;

/** A recorded part's own playlist: its tail while open, every segment once closed (#EXT-X-ENDLIST). */
export const partPlaylistName = (partId: string) => `part-${partId}.m3u8`;

/** The k-th sealed chunk (from 0) of an open part's playlist: CHUNK_SEGMENTS segments, closed. */
export const partChunkName = (partId: string, chunk: number) => `part-${partId}-c${chunk}.m3u8`;

/** A playlist's text as stored (read whole, never cut short), or undefined when there is none. */
export async function storedPlaylistText(storage: Storage, key: string): Promise<Buffer | undefined> {
  return readObject(storage, key, isWholePlaylist);
}

/** A playlist in storage, or undefined when there is none. */
export async function storedPlaylist(storage: Storage, key: string): Promise<Playlist | undefined> {
  const bytes = await storedPlaylistText(storage, key);
  return bytes && parsePlaylist(bytes.toString('utf8'));
}

export async function putPlaylist(storage: Storage, key: string, text: string): Promise<void> {
  await storage.put(key, Buffer.from(text), PLAYLIST_TYPE);
}

/** A part's playlist as its recorder (its only writer) keeps it and stores it. */
export class PartPlaylist {
  /** The part's segments in storage, in order. */
  private readonly segments: Segment[] = [];
  /** Chunks in storage: the first `sealed * CHUNK_SEGMENTS` segments. */
  private sealed = 0;
  /** Segments were added since the playlist was last stored. */
  private dirty = false;

  constructor(
    private readonly storage: Storage,
    private readonly roomName: string,
    private readonly partId: string,
  ) {}

  add(segment: Segment): void {
    this.segments.push(segment);
    this.dirty = true;
  }

  /** While open: seals every full chunk, then rewrites the tail (fewer than CHUNK_SEGMENTS entries). */
  async storeOpen(): Promise<void> {
    if (!this.dirty) return;
    const { storage, roomName, partId } = this;
    while (this.segments.length - this.sealed * CHUNK_SEGMENTS >= CHUNK_SEGMENTS) {
      const first = this.sealed * CHUNK_SEGMENTS;
      const chunk = {
        segments: this.segments.slice(first, first + CHUNK_SEGMENTS),
        ended: true,
        sequence: first,
      };
      await putPlaylist(storage, hlsKey(roomName, partChunkName(partId, this.sealed)), renderPlaylist(chunk));
      this.sealed += 1;
    }
    const first = this.sealed * CHUNK_SEGMENTS;
    const tail = this.segments.slice(first);
    // A sliding window (no playlist type): its media sequence counts the chunks' segments.
    const playlist: Playlist = { segments: tail, ended: false, sequence: first, chunks: this.sealed };
    await putPlaylist(
      storage,
      hlsKey(roomName, partPlaylistName(partId)),
      renderPlaylist(playlist, tail.length),
    );
    this.dirty = false;
  }

  /** Once the part has ended: its whole playlist, closed, in place of chunks and tail. */
  async storeClosed(): Promise<void> {
    const { storage, roomName, partId } = this;
    const playlist = renderPlaylist({ segments: this.segments, ended: true });
    await putPlaylist(storage, hlsKey(roomName, partPlaylistName(partId)), playlist);
    this.dirty = false;
  }

  /** After storeClosed: the chunks are not needed any more (a reader that saw the tail rereads). */
  async deleteChunks(): Promise<void> {
    const chunks = Array.from({ length: this.sealed }, (_, chunk) => partChunkName(this.partId, chunk));
    await this.storage.deleteMany(chunks.map((name) => hlsKey(this.roomName, name)));
  }
}

/**
 * A recorded part's segments as stored, in order: a closed part's whole playlist, or an open one's
 * chunks and tail (its instance still writing it, or dead). Undefined when it has no playlist (its
 * instance died before its first segment). Throws when a chunk the tail counts is missing and the
 * part has not been closed meanwhile (its recorder deletes the chunks once the whole one is there).
 */
export async function storedPart(
  storage: Storage,
  roomName: string,
  partId: string,
): Promise<Playlist | undefined> {
  const key = hlsKey(roomName, partPlaylistName(partId));
  const tail = await storedPlaylist(storage, key);
  if (!tail || tail.ended || !tail.chunks) return tail;
  const segments: Segment[] = [];
  for (let chunk = 0; chunk < tail.chunks; chunk++) {
    const sealed = await storedPlaylist(storage, hlsKey(roomName, partChunkName(partId, chunk)));
    if (!sealed) {
      const whole = await storedPlaylist(storage, key);
      if (whole?.ended) return whole;
      throw new Error(`chunk ${chunk} of part ${partId} is not in storage`);
    }
    segments.push(...sealed.segments);
  }
  return { segments: [...segments, ...tail.segments], ended: false };
}
