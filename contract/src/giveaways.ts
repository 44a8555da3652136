import { z } from 'zod';
import { roomProductSchema } from './shop.ts';

/**
 * Giveaways in a live room (issue 29): the seller gives one unit of a lineup product away to
 * everyone, followers only, or buyers of this show only; viewers enter with one tap; at the end a
 * winner is drawn and gets a $0 order the seller ships. The draw is verifiable: the SHA-256 of a
 * secret seed is shown at the start and the seed at the end, and anyone can recompute the winner
 * from the seed and the entrants' handles with `drawIndex` (docs/api.md).
 */

export const GIVEAWAY_MIN_SECONDS = 30;
export const GIVEAWAY_MAX_SECONDS = 300;
export const GIVEAWAY_DEFAULT_SECONDS = 60;

export const GIVEAWAY_AUDIENCES = ['everyone', 'followers', 'buyers'] as const;
export type GiveawayAudience = (typeof GIVEAWAY_AUDIENCES)[number];

/** Why an entry is refused, word for word (409 `{code, message}`; 403 for the seller). */
export const GIVEAWAY_REFUSALS = {
  SELLER: 'You cannot enter your own giveaway.',
  NOT_FOLLOWER: 'This giveaway is for followers: follow the seller to enter.',
  NOT_BUYER: 'This giveaway is for buyers of this show: buy something in it to enter.',
  ALREADY_ENTERED: 'You have already entered this giveaway.',
  ENDED: 'This giveaway has ended.',
  ADDRESS_REQUIRED: 'Add a shipping address in Settings to enter: the prize is shipped.',
} as const;
export type GiveawayRefusal = keyof typeof GIVEAWAY_REFUSALS;

export const startGiveawayBodySchema = z.object({
  productId: z.uuid({ error: 'productId must be a product id' }),
  audience: z
    .enum(GIVEAWAY_AUDIENCES, { error: 'audience must be everyone, followers or buyers' })
    .default('everyone'),
  durationSec: z
    .number({ error: 'durationSec must be a number' })
    .int('durationSec must be a whole number')
    .min(GIVEAWAY_MIN_SECONDS, `durationSec must be at least ${GIVEAWAY_MIN_SECONDS}`)
    .max(GIVEAWAY_MAX_SECONDS, `durationSec must be at most ${GIVEAWAY_MAX_SECONDS}`)
    .default(GIVEAWAY_DEFAULT_SECONDS),
});
export type StartGiveawayBody = z.input<typeof startGiveawayBodySchema>;

export const giveawaySchema = z.object({
  id: z.string(),
  roomName: z.string(),
  product: roomProductSchema,
  audience: z.enum(GIVEAWAY_AUDIENCES),
  status: z.enum(['running', 'drawn', 'cancelled']),
  startedAt: z.string(),
  endsAt: z.string(),
  /** The server's clock when answered: the countdown's reference. */
  serverNow: z.string(),
  /** SHA-256 (hex) of the seed, shown from the start. */
  seedHash: z.string(),
  /** The seed (hex), once drawn. */
  seed: z.string().nullable(),
  entryCount: z.number().int(),
  /** Every entrant's handle in the draw's order (sorted), once drawn. */
  entrants: z.array(z.string()).nullable(),
  /** Once drawn; null when nobody entered. */
  winner: z.object({ handle: z.string() }).nullable(),
  /** The winner's $0 order: for the winner and the seller only. */
  orderId: z.string().nullable(),
  /** Whether the caller entered (false signed out). */
  entered: z.boolean(),
});
export type Giveaway = z.infer<typeof giveawaySchema>;

export const currentGiveawaySchema = z.object({ giveaway: giveawaySchema.nullable() });

export const giveawayRefusedSchema = z.object({
  code: z.enum(Object.keys(GIVEAWAY_REFUSALS) as [GiveawayRefusal, ...GiveawayRefusal[]]),
  message: z.string(),
});

/** Room events of giveaways on /ws?room= (see ServerMessage). */
export type GiveawayEvent = { type: 'giveaway'; giveaway: Giveaway };

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256Hex(text: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** The seed's published hash: SHA-256 of the seed's hex text, as hex. */
export function seedHashOf(seed: string): Promise<string> {
  return sha256Hex(seed);
}

/** The order handles are drawn in: sorted by code point (handles are lower-case). */
export function drawOrder(handles: string[]): string[] {
  return [...handles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The winner's index in `drawOrder(handles)`: SHA-256 of `${seed}:${handles joined by ','}` read as
 * a 256-bit number, modulo the number of entrants. Anyone can run this with the published seed.
 */
export async function drawIndex(seed: string, handles: string[]): Promise<number> {
  const sorted = drawOrder(handles);
  if (sorted.length === 0) throw new Error('nobody to draw from');
  const digest = await sha256Hex(`${seed}:${sorted.join(',')}`);
  return Number(BigInt(`0x${digest}`) % BigInt(sorted.length));
}
