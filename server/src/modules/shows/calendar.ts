import type { Show } from '@streamshop/contract/shows.ts';

/** A show as an iCalendar file (RFC 5545) with one event, an hour long, at its time in UTC. */

const SHOW_LENGTH_MS = 60 * 60 * 1000;

/** TEXT values escape backslashes, semicolons, commas and line breaks (RFC 5545 §3.3.11). */
const escapeText = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

const utc = (date: Date) =>
  `${date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}`;

/** Lines longer than 75 octets are folded: CRLF and a space, never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function showCalendar(show: Show, publicUrl: string, now = new Date()): string {
  const url = new URL(`/shows/${show.id}`, publicUrl).toString();
  const start = new Date(show.startsAt);
  const description = [show.description, `Watch and shop live: ${url}`].filter(Boolean).join('\n\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//StreamShop//Shows//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:show-${show.id}@${new URL(publicUrl).hostname || 'streamshop.local'}`,
    `DTSTAMP:${utc(now)}`,
    `DTSTART:${utc(start)}`,
    `DTEND:${utc(new Date(start.getTime() + SHOW_LENGTH_MS))}`,
    `SUMMARY:${escapeText(`${show.title} (live with @${show.seller.handle})`)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${url}`,
    `LOCATION:${escapeText(url)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
