import { absoluteUrl, DEFAULT_DESCRIPTION, type HeadTag, OG_IMAGE, SITE_NAME } from './seo.ts';
import type { Show } from './shows.ts';

/**
 * Search and link-preview metadata of a show's page (/shows/:id, issue 29): the server writes it
 * into index.html for crawlers and shared links, the web app sets the same tags on client-side
 * navigation. The show's schema.org Event says when it starts and that it happens online.
 */

export const showPath = (id: string) => `/shows/${id}`;

/** The document title of a show's page. */
export const showTitle = (title: string) => `${title} · ${SITE_NAME}`;

/** The title of the page for an unknown show id (answered 404). */
export const SHOW_NOT_FOUND_TITLE = showTitle('Show Not Found');

/** What a search result shows under the title: at most this many characters. */
export const SHOW_DESCRIPTION_MAX = 160;

/** How long a show lasts in calendars (the .ics, Google Calendar, the Event's endDate). */
export const SHOW_CALENDAR_LENGTH_MS = 60 * 60 * 1000;

/** At most `max` characters, cut at a word with an ellipsis when it had to be cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:-]+$/, '')}…`;
}

/** The start in the seller's zone, with the zone's short name: "Sat, Dec 5, 2026, 1:00 PM CST". */
export function showStartInSellerZone(show: Pick<Show, 'startsAt' | 'timeZone'>): string {
  const start = new Date(show.startsAt);
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: show.timeZone }).format(start);
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(start);
  }
}

/** "Live show with @groovevault on StreamShop, Sat, Dec 5, 2026, 1:00 PM CST. Rare jazz…" */
export function showDescription(
  show: Pick<Show, 'status' | 'startsAt' | 'timeZone' | 'seller' | 'description'>,
): string {
  const who = `@${show.seller.handle} on ${SITE_NAME}`;
  const when = showStartInSellerZone(show);
  const lead = {
    scheduled: `Live show with ${who}, ${when}.`,
    live: `Live now with ${who}.`,
    ended: `Live show with ${who}, ${when}. Watch the replay.`,
    missed: `Show with ${who}, planned for ${when}.`,
  }[show.status];
  const about = show.description?.replace(/\s+/g, ' ').trim();
  return clip(about ? `${lead} ${about}` : lead, SHOW_DESCRIPTION_MAX);
}

/** The cover as an absolute URL (the site's own picture when the show has none). */
export function showImageUrl(origin: string, coverUrl: string | null): string {
  if (!coverUrl) return absoluteUrl(origin, OG_IMAGE.path);
  return coverUrl.startsWith('/') ? absoluteUrl(origin, coverUrl) : coverUrl;
}

/** Every head element a show's page owns, in document order. `origin` is the public URL. */
export function showHeadTags(origin: string, show: Show): HeadTag[] {
  const url = absoluteUrl(origin, showPath(show.id));
  const description = showDescription(show);
  const name = (key: string, content: string): HeadTag => ({ kind: 'meta', attribute: 'name', key, content });
  const property = (key: string, content: string): HeadTag => ({
    kind: 'meta',
    attribute: 'property',
    key,
    content,
  });
  return [
    { kind: 'title', text: showTitle(show.title) },
    name('description', description),
    { kind: 'link', rel: 'canonical', href: url },
    property('og:site_name', SITE_NAME),
    property('og:type', 'website'),
    property('og:title', show.title),
    property('og:description', description),
    property('og:url', url),
    property('og:image', showImageUrl(origin, show.coverUrl)),
    property('og:image:alt', show.coverUrl ? show.title : OG_IMAGE.alt),
    name('twitter:card', 'summary_large_image'),
  ];
}

/** The head of the page for an unknown show: its own title, kept out of search results. */
export function showNotFoundHeadTags(): HeadTag[] {
  return [
    { kind: 'title', text: SHOW_NOT_FOUND_TITLE },
    { kind: 'meta', attribute: 'name', key: 'description', content: DEFAULT_DESCRIPTION },
    { kind: 'meta', attribute: 'name', key: 'robots', content: 'noindex' },
  ];
}

/**
 * schema.org's eventStatus: a show that went live or ended happened as scheduled; one the seller
 * never started was, for those who came, cancelled.
 */
const EVENT_STATUS = {
  scheduled: 'https://schema.org/EventScheduled',
  live: 'https://schema.org/EventScheduled',
  ended: 'https://schema.org/EventScheduled',
  missed: 'https://schema.org/EventCancelled',
} as const;

/** The schema.org Event of the page: an online event at the show's page, free to watch. */
export function showJsonLd(origin: string, show: Show): Record<string, unknown> {
  const url = absoluteUrl(origin, showPath(show.id));
  const start = new Date(show.startsAt);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: show.title,
    description: show.description ?? showDescription(show),
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + SHOW_CALENDAR_LENGTH_MS).toISOString(),
    eventStatus: EVENT_STATUS[show.status],
    eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
    location: { '@type': 'VirtualLocation', url },
    image: [showImageUrl(origin, show.coverUrl)],
    url,
    isAccessibleForFree: true,
    organizer: {
      '@type': 'Organization',
      name: show.seller.name,
      url: absoluteUrl(origin, `/s/${encodeURIComponent(show.seller.handle)}`),
    },
  };
}
