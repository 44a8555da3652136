import { hlsPath, LIVE_PLAYLIST, REPLAY_PLAYLIST } from '@streamshop/contract/live.ts';
import type { Db } from '../../../db/client.ts';
import type { Storage } from '../../../platform/storage.ts';
import {
  LIVE_WINDOW_SEGMENTS,
  type Playlist,
  playlistSeconds,
  renderPlaylist,
  type Segment,
} from '../pipeline/playlist.ts';
import { hlsKey, putPlaylist, storedPart, storedPlaylist } from '../pipeline/stored-parts.ts';
import { claimReplay, finishReplay, partsOf, releaseReplay, replaysToMake } from './repo.ts';

/**
 * An open part or a publisher lease not renewed for this long belongs to an instance that is gone
 * (they are renewed every PUBLISHER_HEARTBEAT_MS).
 */
export const STALE_AFTER_SEC = 15;
/** How long a claim to make a replay lasts; one that lapses (its instance died) is claimed again. */
const REPLAY_LEASE_SEC = 30;
/** After failing to make a replay, an instance leaves it to the others for this long. */
const RETRY_AFTER_MS = REPLAY_LEASE_SEC * 1000;

/**
 * The stream's replay from its recorded parts, in the order they started, each with its init
 * segment and a discontinuity between them. A part whose instance died mid-stream counts with the
 * segments it had stored (its sealed chunks and tail; none, if it died before its first). Undefined
 * when no part has a segment. Throws when a closed part's playlist, or a chunk of an open one, is
 * not in this storage (lost, or another storage than the instances that recorded it: never a
 * replay without it).
 */
export async function joinParts(
  storage: Storage,
  roomName: string,
  parts: Array<{ id: string; closed: boolean }>,
): Promise<Playlist | undefined> {
  const segments: Segment[] = [];
  for (const { id, closed } of parts) {
    const part = await storedPart(storage, roomName, id);
    if (!part && closed) throw new Error(`the playlist of part ${id} is not in storage`);
    for (const [index, segment] of (part?.segments ?? []).entries()) {
      segments.push({ ...segment, discontinuity: index === 0 && segments.length > 0 });
    }
  }
  return segments.length > 0 ? { segments, ended: true } : undefined;
}

/**
 * A stream recorded before parts were (one playlist, `index.m3u8`, rewritten while live): that
 * playlist, closed. Undefined when there is none.
 */
async function closedStreamPlaylist(storage: Storage, roomName: string): Promise<Playlist | undefined> {
  const playlist = await storedPlaylist(storage, hlsKey(roomName, REPLAY_PLAYLIST));
  return playlist && playlist.segments.length > 0 ? { ...playlist, ended: true } : undefined;
}

export interface ReplayLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Makes the replays of ended streams, each exactly once, on whichever instance gets there first:
 * the one holding the publisher when the stream ends, once its last segments are stored; any other
 * when that one is gone (a claim in the stream's row decides, ADR 0018). The replay is
 * `index.m3u8`, every part joined; the live window is closed too, so that HLS players stop.
 */
export class ReplayMaker {
  /** Streams whose replay failed here, and until when this instance leaves them to the others. */
  private readonly failed = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly instanceId: string,
    private readonly log: ReplayLog,
  ) {}

  /**
   * Makes the stream's replay if it has ended and this instance wins the claim; nothing when
   * another instance has it, or while one still writes a part or holds the publisher.
   */
  async make(roomName: string): Promise<void> {
    const retryAt = this.failed.get(roomName);
    if (retryAt !== undefined && retryAt > Date.now()) return;
    this.failed.delete(roomName);
    const claim = await claimReplay(this.db, roomName, this.instanceId, {
      leaseSec: REPLAY_LEASE_SEC,
      staleSec: STALE_AFTER_SEC,
    });
    if (!claim) return;
    try {
      await this.makeClaimed(roomName, claim.streamId);
    } catch (error) {
      // Another instance may do better at once (its storage, its connection); this one waits.
      this.failed.set(roomName, Date.now() + RETRY_AFTER_MS);
      await releaseReplay(this.db, claim.streamId, this.instanceId).catch(() => {});
      throw error;
    }
  }

  private async makeClaimed(roomName: string, streamId: string): Promise<void> {
    const parts = await partsOf(this.db, streamId);
    const playlist =
      parts.length > 0
        ? await joinParts(this.storage, roomName, parts)
        : await closedStreamPlaylist(this.storage, roomName);
    if (playlist) {
      await putPlaylist(this.storage, hlsKey(roomName, REPLAY_PLAYLIST), renderPlaylist(playlist));
      await putPlaylist(
        this.storage,
        hlsKey(roomName, LIVE_PLAYLIST),
        renderPlaylist(playlist, LIVE_WINDOW_SEGMENTS),
      );
    }
    const vodUrl = playlist ? hlsPath(roomName, REPLAY_PLAYLIST) : null;
    if (!(await finishReplay(this.db, streamId, this.instanceId, vodUrl))) {
      this.log.warn({ roomName }, 'replay made after its claim lapsed; another instance made it');
    } else if (playlist) {
      const seconds = Math.round(playlistSeconds(playlist) * 10) / 10;
      this.log.info({ roomName, parts: parts.length, seconds }, 'replay ready');
    } else {
      this.log.info({ roomName }, 'stream ended without video: no replay');
    }
  }

  /** Every ended stream's replay nobody has made, except those `skip` names (being finished here). */
  async makeDue(skip: (roomName: string) => boolean = () => false): Promise<void> {
    for (const roomName of await replaysToMake(this.db)) {
      if (skip(roomName)) continue;
      await this.make(roomName).catch((error) =>
        this.log.warn({ err: error, roomName }, 'making a replay failed; it is tried again later'),
      );
    }
  }
}
