import { describe, expect, it } from 'vitest';
import {
  currentZoneName,
  formatInZone,
  isLocalDateTime,
  isoToZonedLocal,
  timeZoneChoices,
  zonedTimeToIso,
  zoneOffsetMinutes,
} from './zoned-time.ts';

const NEW_YORK = 'America/New_York';

/** The instant of an ISO text, to compare two spellings of one moment. */
const instant = (iso: string) => new Date(iso).toISOString();

describe('zonedTimeToIso', () => {
  it('reads a New York winter evening with its -05:00 offset', () => {
    expect(zonedTimeToIso('2026-12-01T19:00', NEW_YORK)).toBe('2026-12-01T19:00:00-05:00');
    expect(instant(zonedTimeToIso('2026-12-01T19:00', NEW_YORK))).toBe('2026-12-02T00:00:00.000Z');
  });

  it('changes offset across the spring-forward night (March 8, 2026)', () => {
    expect(zonedTimeToIso('2026-03-07T19:00', NEW_YORK)).toBe('2026-03-07T19:00:00-05:00');
    expect(zonedTimeToIso('2026-03-08T01:30', NEW_YORK)).toBe('2026-03-08T01:30:00-05:00');
    expect(zonedTimeToIso('2026-03-08T03:30', NEW_YORK)).toBe('2026-03-08T03:30:00-04:00');
    expect(zonedTimeToIso('2026-03-08T19:00', NEW_YORK)).toBe('2026-03-08T19:00:00-04:00');
  });

  it('moves a time the clocks skip forward by the hour they skip', () => {
    // 02:30 does not happen in New York on March 8, 2026: 01:59 EST is followed by 03:00 EDT.
    expect(zonedTimeToIso('2026-03-08T02:30', NEW_YORK)).toBe('2026-03-08T03:30:00-04:00');
    expect(instant(zonedTimeToIso('2026-03-08T02:30', NEW_YORK))).toBe('2026-03-08T07:30:00.000Z');
  });

  it('takes the first of a time that happens twice as clocks go back (November 1, 2026)', () => {
    expect(zonedTimeToIso('2026-11-01T01:30', NEW_YORK)).toBe('2026-11-01T01:30:00-04:00');
    expect(zonedTimeToIso('2026-11-01T02:30', NEW_YORK)).toBe('2026-11-01T02:30:00-05:00');
    expect(zonedTimeToIso('2026-10-31T19:00', NEW_YORK)).toBe('2026-10-31T19:00:00-04:00');
  });

  it('keeps half-hour offsets: Asia/Kolkata is +05:30 all year', () => {
    expect(zonedTimeToIso('2026-12-01T19:00', 'Asia/Kolkata')).toBe('2026-12-01T19:00:00+05:30');
    expect(instant(zonedTimeToIso('2026-12-01T19:00', 'Asia/Kolkata'))).toBe('2026-12-01T13:30:00.000Z');
    expect(zonedTimeToIso('2026-06-01T00:15', 'Asia/Kolkata')).toBe('2026-06-01T00:15:00+05:30');
  });

  it('reads UTC and a southern-hemisphere summer', () => {
    expect(zonedTimeToIso('2026-07-04T12:00:30', 'UTC')).toBe('2026-07-04T12:00:30+00:00');
    expect(zonedTimeToIso('2026-01-10T20:00', 'Australia/Sydney')).toBe('2026-01-10T20:00:00+11:00');
    expect(zonedTimeToIso('2026-07-10T20:00', 'Australia/Sydney')).toBe('2026-07-10T20:00:00+10:00');
  });

  it('refuses what is not a date and time, and an unknown zone', () => {
    expect(() => zonedTimeToIso('', NEW_YORK)).toThrow(RangeError);
    expect(() => zonedTimeToIso('2026-02-30T10:00', NEW_YORK)).toThrow(RangeError);
    expect(() => zonedTimeToIso('2026-12-01 19:00', NEW_YORK)).toThrow(RangeError);
    expect(() => zonedTimeToIso('2026-12-01T19:00', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('the other way round', () => {
  it('gives the wall time of an instant in a zone, as a datetime-local value', () => {
    expect(isoToZonedLocal('2026-12-02T00:00:00.000Z', NEW_YORK)).toBe('2026-12-01T19:00');
    expect(isoToZonedLocal('2026-12-01T13:30:00.000Z', 'Asia/Kolkata')).toBe('2026-12-01T19:00');
    expect(isoToZonedLocal('not a time', NEW_YORK)).toBe('');
  });

  it('round-trips every half hour across both of New York’s 2026 changes', () => {
    for (const start of ['2026-03-07T12:00:00Z', '2026-10-31T12:00:00Z']) {
      for (let step = 0; step < 96; step += 1) {
        const at = new Date(Date.parse(start) + step * 30 * 60_000).toISOString();
        const local = isoToZonedLocal(at, NEW_YORK);
        const back = zonedTimeToIso(local, NEW_YORK);
        // The second 01:xx of the fall-back night reads as the first one (a choice, not a loss).
        expect(isoToZonedLocal(back, NEW_YORK)).toBe(local);
      }
    }
  });

  it('knows offsets, checks datetime-local values and names the zone in what it prints', () => {
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T00:00:00Z'), NEW_YORK)).toBe(-240);
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T00:00:00Z'), 'Asia/Kolkata')).toBe(330);
    expect(isLocalDateTime('2026-12-01T19:00')).toBe(true);
    expect(isLocalDateTime('2026-13-01T19:00')).toBe(false);
    expect(formatInZone('2026-12-02T00:00:00.000Z', NEW_YORK).replace(/\s/g, ' ')).toBe(
      'Tue, Dec 1, 2026, 7:00 PM EST',
    );
    expect(timeZoneChoices(['UTC'])).toContain('UTC');
    expect(timeZoneChoices([])).toContain(NEW_YORK);
    // Listed under today's names, though ICU lists some under their old ones.
    expect(timeZoneChoices([])).toContain('Asia/Kolkata');
    expect(timeZoneChoices([])).not.toContain('Asia/Calcutta');
    expect(currentZoneName('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(currentZoneName('Europe/Paris')).toBe('Europe/Paris');
  });
});
