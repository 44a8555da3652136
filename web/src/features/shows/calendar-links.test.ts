import { describe, expect, it } from 'vitest';
import { calendarUtc, googleCalendarUrl } from './calendar-links.ts';

const show = {
  title: 'Friday digs: jazz & soul',
  description: 'Rare pressings.\nBring friends.',
  startsAt: '2026-12-05T19:00:00.000Z',
  seller: { handle: 'groovevault', name: 'Groove Vault' },
};
const PAGE = 'https://shop.example.com/shows/6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';

describe('calendarUtc', () => {
  it('writes an instant as YYYYMMDDTHHMMSSZ', () => {
    expect(calendarUtc(new Date('2026-12-05T19:00:00.000Z'))).toBe('20261205T190000Z');
    expect(calendarUtc(new Date('2027-01-01T00:05:09.999Z'))).toBe('20270101T000509Z');
  });
});

describe('googleCalendarUrl', () => {
  it('opens Google Calendar’s new-event form with the show an hour long, in UTC', () => {
    const url = new URL(googleCalendarUrl(show, PAGE));
    expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Friday digs: jazz & soul (live with @groovevault)',
      dates: '20261205T190000Z/20261205T200000Z',
      details: `Rare pressings.\nBring friends.\n\nWatch and shop live: ${PAGE}`,
      location: PAGE,
    });
  });

  it('encodes every value: spaces as %20, & and # never split the query', () => {
    const href = googleCalendarUrl({ ...show, title: 'A & B #1 + more' }, PAGE);
    expect(href).toContain('text=A%20%26%20B%20%231%20%2B%20more%20(live%20with%20%40groovevault)');
    expect(href).not.toContain(' ');
  });

  it('leaves the description out of the details when there is none', () => {
    const url = new URL(googleCalendarUrl({ ...show, description: null }, PAGE));
    expect(url.searchParams.get('details')).toBe(`Watch and shop live: ${PAGE}`);
  });
});
