/**
 * The live video's contract: its sockets' close codes, what a broadcaster records, where HLS is
 * served, the live edge a player keeps and the control messages on the media socket. No zod here:
 * the room shell's player (web features/room/shell-player.ts) loads this before the app. live.ts
 * re-exports all of it.
 */

/**
 * WebSocket close codes the server uses: 1012 is the standard "service restart" (clients come
 * back at once); 4000–4999 are the application's own, and retrying after them cannot help.
 */
export const CloseCode = {
  serviceRestart: 1012,
  /** Another connection took over publishing. */
  replaced: 4000,
  signedOut: 4001,
  badData: 4400,
  forbidden: 4403,
  notFound: 4404,
  notLive: 4409,
} as const;

/**
 * Live video. The broadcaster opens WebSocket /ws/publish?room={name} (owner only, stream started)
 * and sends MediaRecorder's WebM (VP8/VP9 + Opus, ~100 ms timeslice) as binary frames. Viewers open
 * /ws/media?room={name} and receive, as binary frames, the init segment and then media from the
 * latest keyframe on, to append to an MSE SourceBuffer; text frames carry MediaControl messages.
 */
/**
 * What the broadcaster records, best first: H.264 is copied by the server's pipeline as it is;
 * VP8/VP9 are encoded to H.264 (CPU on the server); Safari records fragmented MP4 (H.264/AAC).
 */
export const MEDIA_MIME_TYPES = [
  'video/webm;codecs=h264,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/mp4',
] as const;

/** A stream's HLS files are served under this path (segments, playlists, thumbnails). */
export const hlsPath = (roomName: string, file: string) => `/media/hls/${roomName}/${file}`;
/** While live: a sliding window of the last segments. */
export const LIVE_PLAYLIST = 'live.m3u8';
/** Every segment of the stream; after the end, the replay. */
export const REPLAY_PLAYLIST = 'index.m3u8';
export const MEDIA_TIMESLICE_MS = 100;
export const MEDIA_KEYFRAME_INTERVAL_MS = 1000;
/** A viewer further behind the live edge than this jumps forward. */
export const LIVE_EDGE_MAX_LAG_SEC = 0.8;
/** Where a live viewer's playhead is kept: this far behind the end of what is buffered. */
export const LIVE_EDGE_TARGET_SEC = 0.2;
/** Behind the target by more than this (and not yet by MAX_LAG), the player plays faster… */
export const LIVE_EDGE_CATCH_UP_AFTER_SEC = 0.1;
/** …at this rate, until it is back at the target (10 % faster: 100 ms caught up per second). */
export const LIVE_EDGE_CATCH_UP_RATE = 1.1;
/**
 * On HLS (1 s segments) the playhead is kept this far behind the end of the live playlist: hls.js
 * plays faster (LIVE_EDGE_CATCH_UP_RATE) once behind; with the browser's own player the page
 * jumps to it once more than MAX_LAG behind.
 */
export const HLS_LIVE_EDGE_TARGET_SEC = 1.5;
export const HLS_LIVE_EDGE_MAX_LAG_SEC = 2.5;

export type MediaControl =
  /** A new init segment follows (first connect or publisher restart): reset the SourceBuffer. */
  | { type: 'media_reset'; mimeType: string }
  /** Nothing is being published right now (not started, or the publisher dropped). */
  | { type: 'media_idle' }
  /** The publisher connection was accepted. */
  | { type: 'publish_ready' }
  | { type: 'stream_ended' }
  | { type: 'error'; code: string; message: string };
