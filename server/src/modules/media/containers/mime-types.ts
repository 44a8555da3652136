import { FlvSplitter } from './flv-splitter.ts';
import { Fmp4Splitter } from './fmp4-splitter.ts';
import type { InitKind } from './video-size.ts';
import { WebmSplitter } from './webm-splitter.ts';

/** What a publisher may send: MediaRecorder WebM (H.264, VP8 or VP9) or fragmented MP4 (Safari). */
export const isMp4Source = (mimeType: string) => mimeType.startsWith('video/mp4');
/** What an RTMP encoder's session gives (ingest/rtmp/publish-session.ts). */
export const FLV_SOURCE = 'video/x-flv';

/** How to read the init of what `mimeType` names (videoSizeOf). */
export function initKindOf(mimeType: string): InitKind {
  if (mimeType === FLV_SOURCE) return 'flv';
  return isMp4Source(mimeType) ? 'mp4' : 'webm';
}

export type Splitter = WebmSplitter | Fmp4Splitter | FlvSplitter;

const SPLITTERS = { flv: FlvSplitter, mp4: Fmp4Splitter, webm: WebmSplitter } as const;

/** The splitter for what `mimeType` names. */
export function splitterFor(mimeType: string): Splitter {
  return new SPLITTERS[initKindOf(mimeType)]();
}
