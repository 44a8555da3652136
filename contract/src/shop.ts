import { z } from 'zod';
import { roomNameSchema } from './room-name.ts';
import { FULFILLMENTS, shippingAddressSchema } from './shipping.ts';

/** Live shopping in a stream's room: the lineup, pinned products, live offers, replay chapters. */

export const MAX_PINNED = 3;
export const MAX_LINEUP = 50;
export const OFFER_MIN_SECONDS = 10;
export const OFFER_MAX_SECONDS = 300;

/** A product as the room shows it. */
export const roomProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  imageUrl: z.string().nullable(),
  priceCents: z.number().int(),
  stock: z.number().int(),
  condition: z.string(),
  fulfillment: z.enum(FULFILLMENTS),
  /** Flat shipping added at checkout (0 unless fulfillment is ship). */
  shippingCents: z.number().int(),
});
export type RoomProduct = z.infer<typeof roomProductSchema>;

export const liveOfferSchema = z.object({
  id: z.string(),
  productId: z.string(),
  priceCents: z.number().int(),
  quantity: z.number().int(),
  /** Units still available at the offer price (quantity minus sold and held). */
  remaining: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type LiveOffer = z.infer<typeof liveOfferSchema>;

/** GET /api/streams/:name/shop, and the `shop` event after every change. */
export const roomShopSchema = z.object({
  lineup: z.array(roomProductSchema),
  /** Product ids pinned now, in pin order (at most MAX_PINNED). */
  pinned: z.array(z.string()),
  offer: liveOfferSchema.nullable(),
  /** The room's seller finished payout onboarding (see the payments config's `sellersOnboard`). */
  sellerOnboarded: z.boolean(),
  /** The server's clock when this was computed, so every viewer's countdown agrees. */
  serverNow: z.string(),
});
export type RoomShop = z.infer<typeof roomShopSchema>;

export const productRefBodySchema = z.object({
  productId: z.uuid({ error: 'productId must be a product id' }),
});

/**
 * An offer below this share of the regular price is refused unless the seller confirms it: a typo
 * (or a slip of the mouse) must not sell the stock for cents.
 */
export const OFFER_FLOOR_PERCENT = 10;

/** The lowest offer price, in cents, that needs no confirmation. */
export function offerFloorCents(regularCents: number): number {
  return Math.ceil((regularCents * OFFER_FLOOR_PERCENT) / 100);
}

export const startOfferBodySchema = z.object({
  productId: z.uuid({ error: 'productId must be a product id' }),
  priceCents: z
    .number({ error: 'priceCents must be a number of cents' })
    .int('priceCents must be a whole number of cents')
    .min(1, 'priceCents must be at least 1'),
  quantity: z
    .number({ error: 'quantity must be a number' })
    .int('quantity must be a whole number')
    .min(1, 'quantity must be at least 1'),
  durationSec: z
    .number({ error: 'durationSec must be a number of seconds' })
    .int('durationSec must be a whole number of seconds')
    .min(OFFER_MIN_SECONDS, `durationSec must be at least ${OFFER_MIN_SECONDS}`)
    .max(OFFER_MAX_SECONDS, `durationSec must be at most ${OFFER_MAX_SECONDS}`),
  /** The seller means a price below offerFloorCents. */
  confirmBelowFloor: z.boolean({ error: 'confirmBelowFloor must be true or false' }).optional(),
});
export type StartOfferBody = z.infer<typeof startOfferBodySchema>;

/** Optional body of POST /api/checkout/:productId when buying from a room or its replay. */
export const checkoutBodySchema = z
  .object({
    roomName: roomNameSchema('roomName').optional(),
    /** false: the room's purchase line says 'Someone' instead of the buyer's handle. */
    showBuyer: z.boolean({ error: 'showBuyer must be true or false' }).optional(),
    /** Required for a product that ships, refused for a digital or pickup one (ADR 0016). */
    shippingAddress: shippingAddressSchema.optional(),
  })
  .nullish();
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

/** GET /api/streams/:name/chapters: when each product was pinned, for the replay's timeline. */
export const replayChaptersSchema = z.object({
  chapters: z.array(
    z.object({
      product: roomProductSchema,
      /** Seconds from the start of the stream (and of its recording). */
      startSec: z.number(),
      /** Null when it stayed pinned until the end. */
      endSec: z.number().nullable(),
    }),
  ),
});
export type ReplayChapters = z.infer<typeof replayChaptersSchema>;

/** Room events of live shopping, sent on /ws?room= beside the chat (see ServerMessage). */
export type ShopEvent =
  | { type: 'shop'; shop: RoomShop }
  /**
   * A unit was sold, or came back (a cancel or refund): what is left, and of the live offer when
   * there is one. Events can arrive out of order across instances: keep, per product, the one with
   * the highest `version`.
   */
  | { type: 'stock'; productId: string; stock: number; version: number; offerRemaining?: number };
