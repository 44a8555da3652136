import { describe, expect, it } from 'vitest';
import {
  cardDigits,
  cardNumberError,
  caretAfterDigits,
  formatCardNumber,
  passesLuhn,
} from './card-number.ts';

describe('formatCardNumber', () => {
  it.each([
    ['', ''],
    ['4', '4'],
    ['4242', '4242'],
    ['42424', '4242 4'],
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242-4242 4242abc4242', '4242 4242 4242 4242'],
    ['4242 4242 4242 4242 4242', '4242 4242 4242 4242 424'],
  ])('groups %j in fours as %j', (input, expected) => {
    expect(formatCardNumber(input)).toBe(expected);
  });

  it('groups American Express numbers 4-6-5 and stops at 15 digits', () => {
    expect(formatCardNumber('37828224631000599')).toBe('3782 822463 10005');
    expect(formatCardNumber('378282')).toBe('3782 82');
  });
});

describe('cardDigits', () => {
  it('keeps only digits', () => {
    expect(cardDigits(' 4000 0025-0000 3155 ')).toBe('4000002500003155');
  });
});

describe('caretAfterDigits', () => {
  it('puts the caret after the same digit once spaces are inserted', () => {
    // Typed a 5th digit at the end: the caret goes after it, past the new space.
    expect(caretAfterDigits('4242 4', 5)).toBe(6);
    // Typed in the middle: after the 3rd digit stays after the 3rd digit.
    expect(caretAfterDigits('4242 4242', 3)).toBe(3);
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
  });
});

describe('passesLuhn', () => {
  it.each([
    '4242424242424242',
    '4000000000000002',
    '4000002500003155',
    '5555555555554444',
    '378282246310005',
  ])('accepts the test card %s', (digits) => expect(passesLuhn(digits)).toBe(true));

  it('rejects a number with a wrong check digit', () => {
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  it('rejects anything but digits', () => {
    expect(passesLuhn('')).toBe(false);
    expect(passesLuhn('4242 4242')).toBe(false);
  });
});

describe('cardNumberError', () => {
  it('calls an empty or short number incomplete', () => {
    expect(cardNumberError('')).toBe('Your card number is incomplete.');
    expect(cardNumberError('4242 4242 4242 424')).toBe('Your card number is incomplete.');
    expect(cardNumberError('3782 822463 1000')).toBe('Your card number is incomplete.');
  });

  it('calls a full number that fails the checksum invalid', () => {
    expect(cardNumberError('4242 4242 4242 4241')).toBe('Your card number is invalid.');
  });

  it('accepts valid numbers', () => {
    expect(cardNumberError('4242 4242 4242 4242')).toBeNull();
    expect(cardNumberError('3782 822463 10005')).toBeNull();
  });
});
