import { describe, expect, it } from 'vitest';
import { defaultOfferValues, isBelowFloor, offerFieldErrors, offerFormToBody } from './offer-form.ts';

const productId = '4b0c2a8e-3c1f-4f7e-9a51-6f1d1e2a3b4c';

describe('offerFormToBody', () => {
  it('turns dollars into cents and text into whole numbers', () => {
    expect(
      offerFormToBody({ price: '19.99', quantity: '3', duration: '45', confirmBelowFloor: false }, productId),
    ).toEqual({
      ok: true,
      body: { productId, priceCents: 1999, quantity: 3, durationSec: 45 },
    });
  });

  it('names each field that breaks the server’s schema', () => {
    const result = offerFormToBody(
      { price: '', quantity: '0', duration: '301', confirmBelowFloor: false },
      productId,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        price: 'priceCents must be a number of cents',
        quantity: 'quantity must be at least 1',
        duration: 'durationSec must be at most 300',
      },
    });
  });

  it('refuses an offer shorter than 10 seconds', () => {
    const result = offerFormToBody(
      { price: '5', quantity: '1', duration: '9', confirmBelowFloor: false },
      productId,
    );
    expect(result).toMatchObject({ ok: false, errors: { duration: 'durationSec must be at least 10' } });
  });
});

describe('the price floor', () => {
  it('asks for a confirmation below 10 % of the regular price, and sends it', () => {
    const values = { price: '4.99', quantity: '1', duration: '60', confirmBelowFloor: false };
    expect(isBelowFloor(values, 5000)).toBe(true);
    expect(isBelowFloor({ ...values, price: '5.00' }, 5000)).toBe(false);
    expect(isBelowFloor({ ...values, price: '' }, 5000)).toBe(false);
    expect(offerFormToBody({ ...values, confirmBelowFloor: true }, productId)).toMatchObject({
      ok: true,
      body: { priceCents: 499, confirmBelowFloor: true },
    });
  });
});

describe('offerFieldErrors', () => {
  it('puts the server’s field errors on the form’s fields and drops the others', () => {
    expect(
      offerFieldErrors({
        priceCents: 'must be below the regular price (5000 cents)',
        quantity: 'must be at most 2',
        productId: 'is not pinned',
      }),
    ).toEqual({ price: 'must be below the regular price (5000 cents)', quantity: 'must be at most 2' });
  });
});

describe('defaultOfferValues', () => {
  it('starts at 20 % off, at most 5 units, for a minute', () => {
    expect(defaultOfferValues(5000, 12)).toEqual({
      price: '40.00',
      quantity: '5',
      duration: '60',
      confirmBelowFloor: false,
    });
    expect(defaultOfferValues(5000, 2).quantity).toBe('2');
  });
});
