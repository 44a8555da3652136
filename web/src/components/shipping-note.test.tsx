import { describe, expect, it } from 'vitest';
import { shippingNote } from './shipping-note.tsx';

describe('shipping note', () => {
  it('adds a priced shipping to the price, in dollars', () => {
    expect(shippingNote({ fulfillment: 'ship', shippingCents: 450 })).toBe('+ $4.50 shipping');
    expect(shippingNote({ fulfillment: 'ship', shippingCents: 100_000 })).toBe('+ $1,000.00 shipping');
  });

  it('says Free shipping for a product shipped for nothing', () => {
    expect(shippingNote({ fulfillment: 'ship', shippingCents: 0 })).toBe('Free shipping');
  });

  it('says nothing for a product that is not shipped', () => {
    expect(shippingNote({ fulfillment: 'digital', shippingCents: 0 })).toBeNull();
    expect(shippingNote({ fulfillment: 'pickup', shippingCents: 0 })).toBeNull();
  });
});
