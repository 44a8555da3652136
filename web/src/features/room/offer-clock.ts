import type { LiveOffer, RoomProduct, RoomShop } from '@streamshop/contract/shop.ts';

/**
 * How far the server's clock is ahead of this browser's (negative: behind), from the shop's
 * `serverNow` and the moment it arrived here. Every viewer's countdown then ends together.
 */
export function serverClockOffsetMs(serverNow: string, receivedAt: number): number {
  const server = Date.parse(serverNow);
  return Number.isNaN(server) ? 0 : server - receivedAt;
}

/** The offer running at `serverNowMs` (the server's time), or null before its start or after its end. */
export function runningOffer(shop: RoomShop | null, serverNowMs: number): LiveOffer | null {
  const offer = shop?.offer;
  if (!offer) return null;
  const starts = Date.parse(offer.startsAt);
  const ends = Date.parse(offer.endsAt);
  if (Number.isNaN(ends) || serverNowMs >= ends) return null;
  if (!Number.isNaN(starts) && serverNowMs < starts) return null;
  return offer;
}

/** Whole seconds left of the offer (rounded up, never below 0). */
export function offerSecondsLeft(offer: LiveOffer, serverNowMs: number): number {
  const ends = Date.parse(offer.endsAt);
  if (Number.isNaN(ends)) return 0;
  return Math.max(0, Math.ceil((ends - serverNowMs) / 1000));
}

export interface ProductPrice {
  /** What a checkout opened now would charge. */
  priceCents: number;
  /** The regular price, when an offer applies (shown struck through). */
  regularCents: number | null;
  /** The offer on this product with units left at its price, if one is running. */
  offer: LiveOffer | null;
}

/** The price a viewer sees for a pinned product: the offer's while it runs and has units, else the regular. */
export function priceNow(product: RoomProduct, offer: LiveOffer | null): ProductPrice {
  if (offer && offer.productId === product.id && offer.remaining > 0) {
    return { priceCents: offer.priceCents, regularCents: product.priceCents, offer };
  }
  return { priceCents: product.priceCents, regularCents: null, offer: null };
}
