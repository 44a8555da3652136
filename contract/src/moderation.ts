import { z } from 'zod';
import { HANDLE_PATTERN, normalizeHandle } from './auth.ts';
import { textSchema } from './text.ts';

/**
 * A seller's chat rules and moderators, for every room of theirs. The server enforces them when a
 * message is sent; the WebSocket messages that moderate (timeout_user, ban_user ...) are in live.ts.
 */

export const SLOW_MODE_MAX_SEC = 3600;
/** The slow-mode choices the settings dialog offers (0 is off); the API takes any 0..3600. */
export const SLOW_MODE_CHOICES = [0, 5, 10, 30, 60] as const;
export const BLOCKED_WORDS_MAX = 200;
export const BLOCKED_WORD_MAX_LENGTH = 40;
export const TIMEOUT_MIN_SEC = 10;
export const TIMEOUT_MAX_SEC = 86_400;

export const handleField = z
  .string({ error: 'handle is required' })
  .transform(normalizeHandle)
  .pipe(z.string().min(1, 'handle is required').regex(HANDLE_PATTERN, 'No user has this handle'));

/** One of the caller's moderators (GET /api/moderators, POST /api/moderators). */
export const moderatorSchema = z.object({
  handle: z.string(),
  /** ISO time the seller appointed them. */
  addedAt: z.string(),
});
export type Moderator = z.infer<typeof moderatorSchema>;

/** POST /api/moderators: leading @ and case are ignored. */
export const addModeratorBodySchema = z.object({ handle: handleField });
export type AddModeratorBody = z.input<typeof addModeratorBodySchema>;

export const moderatorParamsSchema = z.object({ handle: handleField });

/** GET and PUT /api/chat-settings. */
export const chatSettingsSchema = z.object({
  /** One message per this many seconds per viewer and room; 0 is off. */
  slowModeSec: z.number().int(),
  /** Lower-case words or phrases; a message containing one as a whole word is refused. */
  blockedWords: z.array(z.string()),
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

export const chatSettingsBodySchema = z.object({
  slowModeSec: z
    .number({ error: 'slowModeSec must be a number of seconds' })
    .int('slowModeSec must be a whole number of seconds')
    .min(0, 'slowModeSec must be at least 0')
    .max(SLOW_MODE_MAX_SEC, `slowModeSec must be at most ${SLOW_MODE_MAX_SEC}`),
  blockedWords: z
    .array(
      textSchema('a blocked word')
        .toLowerCase()
        .min(1, 'a blocked word cannot be empty')
        .max(BLOCKED_WORD_MAX_LENGTH, `a blocked word can be at most ${BLOCKED_WORD_MAX_LENGTH} characters`),
      { error: 'blockedWords must be a list of words' },
    )
    .max(BLOCKED_WORDS_MAX, `at most ${BLOCKED_WORDS_MAX} blocked words`)
    .transform((words) => [...new Set(words)]),
});
export type ChatSettingsBody = z.input<typeof chatSettingsBodySchema>;

/** GET /api/streams/:name/role: may the caller moderate this room (its owner or one of their moderators)? */
export const roomRoleSchema = z.object({ canModerate: z.boolean() });
export type RoomRole = z.infer<typeof roomRoleSchema>;
