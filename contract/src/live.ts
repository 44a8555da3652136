import { z } from 'zod';
import type { AuctionEvent } from './auctions.ts';
import { streamSchema } from './catalog.ts';
import type { GiveawayEvent } from './giveaways.ts';
import { TIMEOUT_MAX_SEC, TIMEOUT_MIN_SEC } from './moderation.ts';
import { roomNameSchema } from './room-name.ts';
import type { ShopEvent } from './shop.ts';
import { textSchema } from './text.ts';

export const CHAT_MAX_LENGTH = 500;
export const CHAT_HISTORY_SIZE = 50;
/** Per user and room: a burst of 3 messages, then one per second. */
export const CHAT_BURST = 3;
export const CHAT_REFILL_PER_SEC = 1;

export const createRoomBodySchema = z.object({
  title: textSchema('Stream title')
    .min(1, 'Stream title is required')
    .max(200, 'title must be at most 200 characters'),
  description: textSchema('description', { multiline: true })
    .max(2000, 'description must be at most 2,000 characters')
    .nullish()
    .transform((value) => value || null),
  rtmpUrl: z
    .string()
    .trim()
    .max(2000, 'rtmpUrl is too long')
    .nullish()
    .transform((value) => value || null)
    .refine((value) => value === null || /^rtmps?:\/\/[^\s]+$/i.test(value), {
      message: 'rtmpUrl must start with rtmp:// or rtmps://',
    }),
});
export type CreateRoomBody = z.input<typeof createRoomBodySchema>;

export const roomResponseSchema = z.object({ roomName: z.string(), stream: streamSchema });

export const roomNameParamsSchema = z.object({ name: roomNameSchema('name') });

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

const chatUsernameSchema = textSchema('username').min(1).max(64);

/**
 * Messages a client sends on /ws?room={name}. Strict: a key the server does not take (a `kind`,
 * an `id` on a chat message) makes the frame a BAD_MESSAGE, so no client can pass as the server.
 */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('chat_message'),
    message: textSchema('message', { multiline: true }).max(10_000),
    /** Ignored: the server takes the name from the session. Kept for the spec's wire format. */
    username: z.string().optional(),
  }),
  /** The room's owner or one of the owner's moderators, from here down. */
  z.strictObject({ type: z.literal('delete_message'), id: z.number().int().positive() }),
  z.strictObject({
    type: z.literal('timeout_user'),
    username: chatUsernameSchema,
    seconds: z.number().int().min(TIMEOUT_MIN_SEC).max(TIMEOUT_MAX_SEC),
  }),
  z.strictObject({ type: z.literal('ban_user'), username: chatUsernameSchema }),
  /** The old name of ban_user, still taken. */
  z.strictObject({ type: z.literal('mute_user'), username: chatUsernameSchema }),
  /** Lifts a ban or a time-out. */
  z.strictObject({ type: z.literal('unban_user'), username: chatUsernameSchema }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const chatMessageSchema = z.object({
  type: z.literal('chat_message'),
  id: z.number().int(),
  username: z.string(),
  message: z.string(),
  /** ISO time the server accepted the message. */
  timestamp: z.string(),
  /** 'purchase': the system line of a completed purchase in the room ('@buyer just bought Title'). */
  kind: z.enum(['user', 'purchase']).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** At most this many messages of one stream are replayed beside its recording. */
export const CHAT_REPLAY_LIMIT = 5000;

/** GET /api/streams/:name/chat-replay: the stream's chat with each message's moment in the replay. */
export const chatReplaySchema = z.object({
  messages: z.array(
    z.object({
      id: z.number().int(),
      username: z.string(),
      message: z.string(),
      /** Seconds from the start of the stream (and of its recording). */
      offsetSec: z.number(),
      kind: z.enum(['user', 'purchase']).optional(),
    }),
  ),
});
export type ChatReplay = z.infer<typeof chatReplaySchema>;

/** Messages the server sends on /ws?room={name}. */
export type ServerMessage =
  | ShopEvent
  | AuctionEvent
  | GiveawayEvent
  | ChatMessage
  | { type: 'chat_history'; messages: ChatMessage[] }
  | { type: 'viewer_count'; count: number }
  | { type: 'message_deleted'; id: number }
  | { type: 'stream_started'; endsAt: string }
  | { type: 'stream_ended' }
  | { type: 'error'; code: string; message: string };

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
