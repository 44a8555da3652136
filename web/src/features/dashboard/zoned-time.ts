/**
 * Wall times in a named time zone. A show is scheduled as "7 PM on Dec 1 in America/New_York"
 * (what a `datetime-local` input and a zone select give), sent as an instant with its offset, and
 * shown again as a wall time in the show's zone. Intl knows every zone's rules (DST included).
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone that prints every part of a wall time as numbers, 00–23 hours. */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall time in `timeZone` at `instant`, as if it were UTC (ms since the epoch). */
function wallTimeMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of wallClock(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The zone's offset from UTC at `instant`, in whole minutes (New York in winter: -300). */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return Math.round((wallTimeMs(wholeSecond, timeZone) - wholeSecond) / MINUTE_MS);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** "+05:30", "-04:00", "+00:00". */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const size = Math.abs(minutes);
  return `${sign}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/** "2026-12-01T19:00" as `datetime-local` writes it, of a wall time given as if it were UTC. */
function localText(wallMs: number, seconds: boolean): string {
  const date = new Date(wallMs);
  const text = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
  return seconds ? `${text}:${pad(date.getUTCSeconds())}` : text;
}

/** A `datetime-local` value ("2026-12-01T19:00", seconds optional) as if it were UTC, if it is one. */
function parseLocal(local: string): number | undefined {
  const match = LOCAL_TIME.exec(local);
  if (!match) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Feb 30 rolls over into March: not a date.
  return new Date(wall).getUTCDate() === day && year >= 1000 ? wall : undefined;
}

/** Whether `local` reads as a `datetime-local` value ("2026-12-01T19:00", seconds optional). */
export const isLocalDateTime = (local: string): boolean => parseLocal(local) !== undefined;

/**
 * The instant at which the wall clock in `timeZone` reads `local` ("2026-12-01T19:00"), as ISO 8601
 * with that zone's offset ("2026-12-01T19:00:00-05:00"). As Temporal's "compatible" choice: a time
 * that happens twice (clocks go back) is the first of the two; a time the clocks skip (clocks go
 * forward) is moved forward by the gap (New York's 02:30 on a spring-forward day is 03:30 -04:00).
 * Throws a RangeError for a value that is not a date and time, or an unknown zone.
 */
export function zonedTimeToIso(local: string, timeZone: string): string {
  const wall = parseLocal(local);
  if (wall === undefined) throw new RangeError(`Not a date and time: ${local}`);
  // The offsets a day either side cover any one change of the zone's clocks near this time.
  const before = zoneOffsetMinutes(wall - DAY_MS, timeZone);
  const after = zoneOffsetMinutes(wall + DAY_MS, timeZone);
  const readsAsLocal = (offset: number) => {
    const instant = wall - offset * MINUTE_MS;
    return zoneOffsetMinutes(instant, timeZone) === offset ? instant : undefined;
  };
  const candidates = [readsAsLocal(before), readsAsLocal(after)].filter(
    (instant): instant is number => instant !== undefined,
  );
  // None: the clocks skipped this time; read it with the offset before the change.
  const instant = candidates.length > 0 ? Math.min(...candidates) : wall - before * MINUTE_MS;
  const offset = zoneOffsetMinutes(instant, timeZone);
  return `${localText(instant + offset * MINUTE_MS, true)}${offsetText(offset)}`;
}

/** The `datetime-local` value ("2026-12-01T19:00") of an instant on the wall clock of `timeZone`. */
export function isoToZonedLocal(iso: string, timeZone: string): string {
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return '';
  return localText(wallTimeMs(instant, timeZone), false);
}

/**
 * Today's IANA names of zones that ICU still lists under their old names (Intl lists
 * "Asia/Calcutta"; people look for Kolkata). Both name the same zone to every runtime.
 */
const RENAMED_ZONES: Record<string, string> = {
  'America/Godthab': 'America/Nuuk',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** A zone under its current name, when the runtime knows that name. */
export function currentZoneName(zone: string): string {
  const renamed = RENAMED_ZONES[zone];
  if (!renamed) return zone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: renamed });
    return renamed;
  } catch {
    return zone;
  }
}

/** The browser's own zone ("Europe/Paris"), or UTC when it does not say. */
export function browserTimeZone(): string {
  try {
    return currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  } catch {
    return 'UTC';
  }
}

/** The zones to choose from, sorted, with `including` (the browser's or the show's) among them. */
export function timeZoneChoices(including: readonly string[]): string[] {
  const known: string[] =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return [...new Set([...known.map(currentZoneName), ...including.filter(Boolean)])].sort();
}

/** "Tue, Dec 1, 2026, 7:00 PM EST": an instant as the wall time of `timeZone`, named by its zone. */
export function formatInZone(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  try {
    return date.toLocaleString('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
  } catch {
    return date.toISOString();
  }
}
