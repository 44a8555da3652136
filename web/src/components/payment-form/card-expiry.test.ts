import { describe, expect, it } from 'vitest';
import { expiryError, formatExpiry, parseExpiry } from './card-expiry.ts';

describe('formatExpiry', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '12 / '],
    ['123', '12 / 3'],
    ['1234', '12 / 34'],
    ['12345', '12 / 34'],
    ['4', '04 / '],
    ['13', '01 / 3'],
    ['12 / 3', '12 / 3'],
    ['12/34', '12 / 34'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatExpiry(input)).toBe(expected);
  });

  it('lets Backspace remove the separator after the month', () => {
    // '12 / ' minus its last character.
    expect(formatExpiry('12 /', true)).toBe('12');
  });
});

describe('parseExpiry', () => {
  it('reads month and four-digit year', () => {
    expect(parseExpiry('04 / 29')).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('0429')).toEqual({ month: 4, year: 2029 });
  });

  it('is null for an incomplete date', () => {
    expect(parseExpiry('04 / 2')).toBeNull();
    expect(parseExpiry('')).toBeNull();
  });
});

describe('expiryError', () => {
  const now = new Date(2026, 5, 15); // 15 June 2026

  it('accepts this month and later', () => {
    expect(expiryError('06 / 26', now)).toBeNull();
    expect(expiryError('01 / 27', now)).toBeNull();
  });

  it('refuses a month already over this year', () => {
    expect(expiryError('05 / 26', now)).toBe("Your card's expiration date is in the past.");
  });

  it('refuses a year already over', () => {
    expect(expiryError('12 / 25', now)).toBe("Your card's expiration year is in the past.");
  });

  it('refuses an incomplete date and an impossible month', () => {
    expect(expiryError('06 / 2', now)).toBe("Your card's expiration date is incomplete.");
    expect(expiryError('00 / 27', now)).toBe("Your card's expiration month is invalid.");
  });

  it('refuses a year too far ahead', () => {
    expect(expiryError('01 / 99', now)).toBe("Your card's expiration year is invalid.");
  });
});
