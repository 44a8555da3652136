import { describe, expect, it } from 'vitest';
import { reservationNote } from './reservation.ts';

describe('reservationNote', () => {
  const now = Date.parse('2026-06-15T12:00:00.000Z');

  it('says how long the unit is held, in minutes and seconds', () => {
    expect(reservationNote('2026-06-15T12:10:00.000Z', now)).toBe('Reserved for you for 10:00 more.');
    expect(reservationNote('2026-06-15T12:00:05.200Z', now)).toBe('Reserved for you for 0:06 more.');
  });

  it('says when the hold has run out', () => {
    expect(reservationNote('2026-06-15T11:59:00.000Z', now)).toBe(
      'Your reservation has run out. Reload the page to reserve it again.',
    );
  });

  it('is null without a hold', () => {
    expect(reservationNote(null, now)).toBeNull();
    expect(reservationNote('not a date', now)).toBeNull();
  });
});
