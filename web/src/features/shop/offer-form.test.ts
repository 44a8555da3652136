import { describe, expect, it } from 'vitest';
import { defaultOfferValues, offerFieldErrors, offerFormToBody } from './offer-form.ts';

const productId = '4b0c2a8e-3c1f-4f7e-9a51-6f1d1e2a3b4c';

describe('offerFormToBody', () => {
  it('turns dollars into cents and text into whole numbers', () => {
    expect(offerFormToBody({ price: '19.99', quantity: '3', duration: '45' }, productId)).toEqual({
      ok: true,
      body: { productId, priceCents: 1999, quantity: 3, durationSec: 45 },
    });
  });

  it('names each field that breaks the server’s schema', () => {
    const result = offerFormToBody({ price: '', quantity: '0', duration: '301' }, productId);
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
    const result = offerFormToBody({ price: '5', quantity: '1', duration: '9' }, productId);
    expect(result).toMatchObject({ ok: false, errors: { duration: 'durationSec must be at least 10' } });
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
    expect(defaultOfferValues(5000, 12)).toEqual({ price: '40.00', quantity: '5', duration: '60' });
    expect(defaultOfferValues(5000, 2).quantity).toBe('2');
  });
});
