import { describe, expect, it } from 'vitest';
import {
  discFormErrorMessage,
  parseOrderQuantity,
  parseQuantity,
  priceTierRows,
  submittedEmail,
  totalPrice,
  unitPriceLabel,
} from './form-helpers.ts';

describe('disc price tiers', () => {
  it.each([
    [1, '$5.00', '5.00'],
    [9, '$5.00', '45.00'],
    [10, '$3.50', '35.00'],
    [49, '$3.50', '171.50'],
    [50, '$2.75', '137.50'],
    [99, '$2.75', '272.25'],
    [100, '$2.50', '250.00'],
    [1000, '$2.50', '2500.00'],
  ])('prices %i discs at %s each, %s in total', (quantity, unit, total) => {
    expect(unitPriceLabel(quantity)).toBe(unit);
    expect(totalPrice(quantity)).toBe(total);
  });

  it('lists the four tiers for the table', () => {
    expect(priceTierRows.map((row) => [row.range, row.price])).toEqual([
      ['1-9', '$5.00'],
      ['10-49', '$3.50'],
      ['50-99', '$2.75'],
      ['100+', '$2.50'],
    ]);
  });
});

describe('quantity parsing', () => {
  it.each([
    ['', 1],
    ['abc', 1],
    ['0', 1],
    ['-5', 1],
    ['7', 7],
    ['12.9', 12],
    ['250', 250],
  ])('reads %j as %i for the pre-order', (raw, expected) => {
    expect(parseQuantity(raw)).toBe(expected);
  });

  it.each([
    ['x', 1],
    ['0', 1],
    ['1000', 1000],
    ['1001', 1000],
    ['99999', 1000],
  ])('reads %j as %i for the order form (1-1000)', (raw, expected) => {
    expect(parseOrderQuantity(raw)).toBe(expected);
  });
});

describe('submitted email', () => {
  it('trims the email', () => {
    expect(submittedEmail('  fan@example.com \n')).toBe('fan@example.com');
  });
  it('sends nothing for a blank email', () => {
    expect(submittedEmail('   ')).toBeNull();
    expect(submittedEmail('')).toBeNull();
  });
});

describe('form error messages (spec section 8)', () => {
  it("takes the server's message from the JSON after the status prefix", () => {
    const error = new Error(
      '409: {"message":"This email is already registered for beta access!","code":"CONFLICT"}',
    );
    expect(discFormErrorMessage(error, 'beta')).toBe('This email is already registered for beta access!');
    expect(discFormErrorMessage(new Error('429: {"message":"Too many attempts."}'), 'order')).toBe(
      'Too many attempts.',
    );
  });

  it('falls back by status when the body is not JSON', () => {
    expect(discFormErrorMessage(new Error('409: Conflict'), 'beta')).toBe(
      'This email is already registered for beta access!',
    );
    expect(discFormErrorMessage(new Error('409: Conflict'), 'preorder')).toBe(
      'This email already has a pre-order!',
    );
    expect(discFormErrorMessage(new Error('400: Bad Request'), 'beta')).toBe(
      'Please enter a valid email address.',
    );
    expect(discFormErrorMessage(new Error('502: Bad Gateway'), 'preorder')).toBe(
      'Something went wrong. Please try again.',
    );
    expect(discFormErrorMessage(new TypeError('Failed to fetch'), 'order')).toBe(
      'Something went wrong. Please try again.',
    );
  });
});
