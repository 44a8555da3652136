/**
 * A scheduled show's time as buyers read it (issue 29): in their own time zone, with the seller's
 * beside it when that reads differently, and how soon it starts.
 */

/** The viewer's IANA time zone, as the browser knows it ('UTC' when it will not say). */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Formats in `timeZone`, or undefined when the runtime does not know that zone. */
function format(date: Date, timeZone: string, options: Intl.DateTimeFormatOptions): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(date);
  } catch {
    return undefined;
  }
}

const DAY: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const YEAR: Intl.DateTimeFormatOptions = { year: 'numeric' };

export interface ShowTime {
  /** In the viewer's zone: 'Sat, Dec 5, 7:00 PM' (the year too when it is not this year). */
  viewer: string;
  /** In the seller's zone when it reads differently: '1:00 PM', or 'Sun, Dec 6, 1:00 AM' on another day. */
  seller: string | null;
  /** The seller's zone, as the show names it. */
  sellerZone: string;
  /** 'Sat, Dec 5, 7:00 PM your time (1:00 PM in America/Chicago)'. */
  text: string;
}

/**
 * A show's start for a viewer: their own time, and the seller's time in the seller's zone when it
 * differs (the date only when it is another day there). `now` decides whether the year is said.
 */
export function formatShowTime(
  startsAt: string,
  sellerZone: string,
  viewerZone: string = viewerTimeZone(),
  now: number = Date.now(),
): ShowTime {
  const start = new Date(startsAt);
  const zone = format(start, viewerZone, TIME) === undefined ? 'UTC' : viewerZone;
  const thisYear = format(new Date(now), zone, YEAR) === format(start, zone, YEAR);
  const day = (z: string) => format(start, z, thisYear ? DAY : { ...DAY, ...YEAR }) ?? '';
  const time = (z: string) => format(start, z, TIME) ?? '';
  const viewer = `${day(zone)}, ${time(zone)}`;
  let seller: string | null = null;
  if (format(start, sellerZone, TIME) !== undefined) {
    const sameDay = day(sellerZone) === day(zone);
    if (!sameDay) seller = `${day(sellerZone)}, ${time(sellerZone)}`;
    else if (time(sellerZone) !== time(zone)) seller = time(sellerZone);
  }
  const text = seller ? `${viewer} your time (${seller} in ${sellerZone})` : `${viewer} your time`;
  return { viewer, seller, sellerZone, text };
}

/** How soon a show starts, as a card says it: 'in 25 min', 'in 2 h', 'in 3 days', 'starting now'. */
export function formatStartsIn(startsAt: string, now: number): string {
  const minutes = Math.ceil((Date.parse(startsAt) - now) / 60_000);
  if (Number.isNaN(minutes)) return '';
  if (minutes <= 0) return 'starting now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} h`;
  const days = Math.round(hours / 24);
  if (days < 14) return days === 1 ? 'in 1 day' : `in ${days} days`;
  const weeks = Math.round(days / 7);
  return `in ${weeks} weeks`;
}

export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Whole seconds as days, hours, minutes and seconds (never below zero). */
export function splitSeconds(totalSeconds: number): TimeLeft {
  const s = Math.max(0, Math.floor(totalSeconds));
  return {
    days: Math.floor(s / 86_400),
    hours: Math.floor((s % 86_400) / 3600),
    minutes: Math.floor((s % 3600) / 60),
    seconds: s % 60,
  };
}

const unit = (value: number, name: string) => `${value} ${name}${value === 1 ? '' : 's'}`;

/** The countdown in words, for a screen reader: '2 days, 3 hours, 4 minutes'. */
export function describeTimeLeft(totalSeconds: number): string {
  const { days, hours, minutes, seconds } = splitSeconds(totalSeconds);
  if (days > 0) return [unit(days, 'day'), unit(hours, 'hour'), unit(minutes, 'minute')].join(', ');
  if (hours > 0) return [unit(hours, 'hour'), unit(minutes, 'minute')].join(', ');
  if (minutes > 0) return [unit(minutes, 'minute'), unit(seconds, 'second')].join(', ');
  return unit(seconds, 'second');
}
