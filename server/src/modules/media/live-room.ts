import { FlvIngest } from './flv-ingest.ts';
import { Fmp4Ingest } from './fmp4-ingest.ts';
import type { HlsRecorder } from './hls-recorder.ts';
import { WebmIngest } from './ingest.ts';
import type { LivePipeline } from './pipeline.ts';
import { RoomRelay } from './relay.ts';
import type { Restream } from './restream.ts';
import type { InitKind } from './video-size.ts';

/** One room's live video on this instance (MediaService keeps one per room it follows). */
export interface LiveRoom {
  relay: RoomRelay;
  /** Present while this instance holds the room's publisher: reads what the publisher sends. */
  ingest: WebmIngest | Fmp4Ingest | FlvIngest | undefined;
  /**
   * What the publisher's inits are held against (the owner's plan's largest picture), and who
   * hears a refusal; undefined when the plan is unknown.
   */
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

export interface SizeCheck {
  kind: InitKind;
  limit: { width: number; height: number; label: string };
  onRefused: (reason: string) => void;
}

/** What a publisher may send: MediaRecorder WebM (H.264, VP8 or VP9) or fragmented MP4 (Safari). */
export const isMp4Source = (mimeType: string) => mimeType.startsWith('video/mp4');
/** What an RTMP encoder's session gives (rtmp/publish-session.ts). */
export const FLV_SOURCE = 'video/x-flv';

/** How to read the init of what `mimeType` names (videoSizeOf). */
export function initKindOf(mimeType: string): InitKind {
  if (mimeType === FLV_SOURCE) return 'flv';
  return isMp4Source(mimeType) ? 'mp4' : 'webm';
}

const INGESTS = { flv: FlvIngest, mp4: Fmp4Ingest, webm: WebmIngest } as const;

/** The parser for what `mimeType` names. */
export function ingestFor(mimeType: string): WebmIngest | Fmp4Ingest | FlvIngest {
  return new INGESTS[initKindOf(mimeType)]();
}

export function newLiveRoom(): LiveRoom {
  return {
    relay: new RoomRelay(),
    ingest: undefined,
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
