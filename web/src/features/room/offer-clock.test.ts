import type { LiveOffer, RoomProduct } from '@streamshop/contract/shop.ts';
import { describe, expect, it } from 'vitest';
import { offerSecondsLeft, priceNow, runningOffer, serverClockOffsetMs } from './offer-clock.ts';

const offer: LiveOffer = {
  id: 'o',
  productId: 'p',
  priceCents: 2500,
  quantity: 3,
  remaining: 3,
  startsAt: '2025-01-01T12:00:00.000Z',
  endsAt: '2025-01-01T12:01:00.000Z',
};
const product: RoomProduct = {
  id: 'p',
  title: 'Lamp',
  imageUrl: null,
  priceCents: 4000,
  stock: 4,
  condition: 'new',
  fulfillment: 'ship',
  shippingCents: 0,
};
const at = (iso: string) => Date.parse(iso);
const shop = (o: LiveOffer | null) => ({
  lineup: [product],
  pinned: ['p'],
  offer: o,
  sellerOnboarded: false,
  serverNow: offer.startsAt,
});

describe('serverClockOffsetMs', () => {
  it('is how far the server’s clock runs ahead of the browser’s', () => {
    expect(serverClockOffsetMs('2025-01-01T12:00:10.000Z', at('2025-01-01T12:00:00.000Z'))).toBe(10_000);
    expect(serverClockOffsetMs('2025-01-01T12:00:00.000Z', at('2025-01-01T12:00:03.000Z'))).toBe(-3000);
  });

  it('is 0 for an unreadable time', () => {
    expect(serverClockOffsetMs('not a date', 1)).toBe(0);
  });
});

describe('offer countdown on the server’s clock', () => {
  it('counts down from the server’s time, not the browser’s', () => {
    // The browser is 20 s behind the server: its own clock would show 50 s left instead of 30.
    const browserNow = at('2025-01-01T12:00:10.000Z');
    const offset = serverClockOffsetMs('2025-01-01T12:00:30.000Z', browserNow);
    expect(offerSecondsLeft(offer, browserNow + offset)).toBe(30);
  });

  it('rounds up and never goes below 0', () => {
    expect(offerSecondsLeft(offer, at('2025-01-01T12:00:59.200Z'))).toBe(1);
    expect(offerSecondsLeft(offer, at('2025-01-01T12:02:00.000Z'))).toBe(0);
  });

  it('runs the offer only inside its window', () => {
    expect(runningOffer(shop(offer), at('2025-01-01T11:59:59.000Z'))).toBeNull();
    expect(runningOffer(shop(offer), at('2025-01-01T12:00:30.000Z'))).toBe(offer);
    expect(runningOffer(shop(offer), at('2025-01-01T12:01:00.000Z'))).toBeNull();
    expect(runningOffer(shop(null), at('2025-01-01T12:00:30.000Z'))).toBeNull();
  });
});

describe('priceNow', () => {
  it('shows the offer price with the regular one struck through', () => {
    expect(priceNow(product, offer)).toEqual({ priceCents: 2500, regularCents: 4000, offer });
  });

  it('shows the regular price when the offer has no units left', () => {
    expect(priceNow(product, { ...offer, remaining: 0 })).toEqual({
      priceCents: 4000,
      regularCents: null,
      offer: null,
    });
  });

  it('shows the regular price for another product than the offer’s', () => {
    expect(priceNow({ ...product, id: 'q' }, offer).regularCents).toBeNull();
  });
});
