import { z } from 'zod';
import type { AuctionEvent } from './auctions.ts';
import { streamSchema } from './catalog.ts';
import type { GiveawayEvent } from './giveaways.ts';
import { TIMEOUT_MAX_SEC, TIMEOUT_MIN_SEC } from './moderation.ts';
import { roomNameSchema } from './room-name.ts';
import type { ShopEvent } from './shop.ts';
import { textSchema } from './text.ts';

// The live video's half of this contract, which needs no zod (the room shell's player imports it).
export * from './live-media.ts';

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
