import { z } from 'zod';
import { streamSchema } from './catalog.ts';
import { handleField } from './moderation.ts';
import { showSchema } from './shows.ts';

/** Following sellers (issue 29): follow from the storefront, the room and the product page. */

export const sellerHandleParamsSchema = z.object({ handle: handleField });

/** POST/DELETE/GET /api/sellers/:handle/follow. */
export const followStateSchema = z.object({
  handle: z.string(),
  following: z.boolean(),
  followers: z.number().int(),
});
export type FollowState = z.infer<typeof followStateSchema>;

/** GET /api/following: the followed sellers, their live rooms and their upcoming shows. */
export const followingSchema = z.object({
  sellers: z.array(
    z.object({
      handle: z.string(),
      name: z.string(),
      followers: z.number().int(),
      followedAt: z.string(),
    }),
  ),
  live: z.array(streamSchema),
  upcoming: z.array(showSchema),
});
export type Following = z.infer<typeof followingSchema>;
