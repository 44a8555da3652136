import { describe, expect, it } from 'vitest';
import { describeTimeLeft, formatShowTime, formatStartsIn, splitSeconds } from './show-time.ts';

// Sat, Dec 5, 2026, 19:00 UTC.
const START = '2026-12-05T19:00:00.000Z';
const NOW = Date.parse('2026-11-20T12:00:00.000Z');

describe('formatShowTime', () => {
  it('says the viewer’s time, then the seller’s in the seller’s zone', () => {
    expect(formatShowTime(START, 'America/Chicago', 'UTC', NOW)).toEqual({
      viewer: 'Sat, Dec 5, 7:00 PM',
      seller: '1:00 PM',
      sellerZone: 'America/Chicago',
      text: 'Sat, Dec 5, 7:00 PM your time (1:00 PM in America/Chicago)',
    });
  });

  it('names the day in the seller’s zone when it is another day there', () => {
    expect(formatShowTime(START, 'Asia/Tokyo', 'America/Los_Angeles', NOW).text).toBe(
      'Sat, Dec 5, 11:00 AM your time (Sun, Dec 6, 4:00 AM in Asia/Tokyo)',
    );
  });

  it('says the time once when the seller’s zone reads the same', () => {
    const same = formatShowTime(START, 'Europe/Paris', 'Europe/Paris', NOW);
    expect(same.seller).toBeNull();
    expect(same.text).toBe('Sat, Dec 5, 8:00 PM your time');
    // Another name for the same clock is the same time.
    expect(formatShowTime(START, 'Europe/Berlin', 'Europe/Paris', NOW).seller).toBeNull();
  });

  it('adds the year when the show is not this year', () => {
    const nextYear = Date.parse('2025-12-01T00:00:00.000Z');
    expect(formatShowTime(START, 'UTC', 'UTC', nextYear).viewer).toBe('Sat, Dec 5, 2026, 7:00 PM');
  });

  it('follows daylight saving time: the offset of the show’s day, not of today', () => {
    // July: Chicago is UTC-5 (CDT), not -6.
    expect(formatShowTime('2026-07-04T19:00:00.000Z', 'America/Chicago', 'UTC', NOW).seller).toBe('2:00 PM');
  });

  it('falls back to UTC for a zone the browser does not know, and leaves out a seller zone it does not know', () => {
    expect(formatShowTime(START, 'Nowhere/Else', 'Mars/Base', NOW).text).toBe(
      'Sat, Dec 5, 7:00 PM your time',
    );
  });
});

describe('formatStartsIn', () => {
  const start = Date.parse(START);
  it.each([
    [start - 30_000, 'in 1 min'],
    [start - 25 * 60_000, 'in 25 min'],
    [start - 60 * 60_000, 'in 1 h'],
    [start - (2 * 60 + 40) * 60_000, 'in 2 h'],
    [start - 23 * 3_600_000, 'in 23 h'],
    [start - 26 * 3_600_000, 'in 1 day'],
    [start - 3 * 86_400_000, 'in 3 days'],
    [start - 21 * 86_400_000, 'in 3 weeks'],
    [start, 'starting now'],
    [start + 5 * 60_000, 'starting now'],
  ])('at %i says %s', (now, expected) => {
    expect(formatStartsIn(START, now)).toBe(expected);
  });
});

describe('the countdown', () => {
  it('splits seconds into days, hours, minutes and seconds', () => {
    expect(splitSeconds(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
    expect(splitSeconds(-3)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it('says it in words for a screen reader', () => {
    expect(describeTimeLeft(2 * 86_400 + 3 * 3600 + 60)).toBe('2 days, 3 hours, 1 minute');
    expect(describeTimeLeft(3600 + 5)).toBe('1 hour, 0 minutes');
    expect(describeTimeLeft(61)).toBe('1 minute, 1 second');
    expect(describeTimeLeft(9)).toBe('9 seconds');
  });
});
