import { SHOW_CALENDAR_LENGTH_MS } from '@streamshop/contract/show-seo.ts';
import type { Show } from '@streamshop/contract/shows.ts';

/** An instant as Google Calendar's `dates` want it: 2026-12-05T19:00:00.000Z -> 20261205T190000Z. */
export function calendarUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * "Add to Google Calendar": the event at the show's time (an hour long, as the .ics), titled as
 * the .ics titles it, with the description and the show's page (`pageUrl`) in its details.
 */
export function googleCalendarUrl(
  show: Pick<Show, 'title' | 'description' | 'startsAt' | 'seller'>,
  pageUrl: string,
): string {
  const start = new Date(show.startsAt);
  const end = new Date(start.getTime() + SHOW_CALENDAR_LENGTH_MS);
  const params: [string, string][] = [
    ['action', 'TEMPLATE'],
    ['text', `${show.title} (live with @${show.seller.handle})`],
    ['dates', `${calendarUtc(start)}/${calendarUtc(end)}`],
    ['details', [show.description, `Watch and shop live: ${pageUrl}`].filter(Boolean).join('\n\n')],
    ['location', pageUrl],
  ];
  // Spaces as %20, not '+': every value percent-encoded as a URI component.
  const query = params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
  return `https://calendar.google.com/calendar/render?${query}`;
}
