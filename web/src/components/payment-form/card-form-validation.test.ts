import { describe, expect, it } from 'vitest';
import { cvcError, formatCvc } from './card-cvc.ts';
import { checkCardFields, serverCardFieldErrors } from './card-form-validation.ts';

const now = new Date(2026, 5, 15);

describe('card security code', () => {
  it('needs 3 digits, or 4 on American Express', () => {
    expect(cvcError('12', '4242424242424242')).toBe("Your card's security code is incomplete.");
    expect(cvcError('123', '4242424242424242')).toBeNull();
    expect(cvcError('123', '378282246310005')).toBe("Your card's security code is incomplete.");
    expect(cvcError('1234', '378282246310005')).toBeNull();
  });

  it('keeps only as many digits as the card has', () => {
    expect(formatCvc('12a34', '4242424242424242')).toBe('123');
    expect(formatCvc('12a34', '378282246310005')).toBe('1234');
  });
});

describe('checkCardFields', () => {
  it('gives the provider body for a valid card', () => {
    expect(checkCardFields({ number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123' }, now)).toEqual({
      ok: true,
      card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
    });
  });

  it('names every field that is wrong', () => {
    expect(checkCardFields({ number: '4242', expiry: '01 / 20', cvc: '' }, now)).toEqual({
      ok: false,
      errors: {
        number: 'Your card number is incomplete.',
        expiry: "Your card's expiration year is in the past.",
        cvc: "Your card's security code is incomplete.",
      },
    });
  });
});

describe('serverCardFieldErrors', () => {
  it("maps the server's field names onto the form's fields", () => {
    expect(
      serverCardFieldErrors({
        'card.number': 'Your card number is incomplete.',
        'card.expYear': "Your card's expiration year is invalid.",
        clientSecret: 'clientSecret is required',
      }),
    ).toEqual({
      number: 'Your card number is incomplete.',
      expiry: "Your card's expiration year is invalid.",
    });
  });
});
