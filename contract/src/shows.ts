import { z } from 'zod';
import { roomProductSchema } from './shop.ts';
import { textSchema } from './text.ts';

/**
 * Scheduled shows (issue 29, ADR 0023): a seller announces a show with its time, its lineup and a
 * cover; buyers ask to be reminded; at its time the seller goes live from it and the show becomes
 * the room. A show not started SHOW_MISSED_AFTER_MINUTES after its time is marked missed.
 */

/** A scheduled show not started this long after its time is missed. */
export const SHOW_MISSED_AFTER_MINUTES = 30;
/** Reminders go out this long before a show's time. */
export const SHOW_REMINDER_MINUTES = 15;
/** A show may be scheduled at most this far ahead. */
export const SHOW_MAX_DAYS_AHEAD = 365;
/** A show's lineup holds at most this many products (a room's lineup limit). */
export const SHOW_MAX_PRODUCTS = 50;
/** A seller may have at most this many shows scheduled at once (explore's Upcoming stays readable). */
export const SHOW_MAX_SCHEDULED = 50;
/** GET /api/shows answers at most this many. */
export const SHOWS_PAGE_LIMIT = 50;

export const SHOW_STATUSES = ['scheduled', 'live', 'ended', 'missed'] as const;
export type ShowStatus = (typeof SHOW_STATUSES)[number];

/** Whether the runtime knows `zone` as an IANA time zone ("Europe/Paris", "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

const timeZoneField = z
  .string({ error: 'timeZone is required' })
  .trim()
  .refine(isTimeZone, { message: 'timeZone must be an IANA time zone such as America/New_York' });

/** An ISO 8601 time with its offset ("2026-12-01T19:00:00-05:00" or "…Z"). */
const startsAtField = z
  .string({ error: 'startsAt is required' })
  .trim()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value), {
    message: 'startsAt must be an ISO 8601 time with its offset, such as 2026-12-01T19:00:00Z',
  })
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), { message: 'startsAt is not a real time' });

const titleField = textSchema('title')
  .min(1, 'title is required')
  .max(200, 'title must be at most 200 characters');
const descriptionField = textSchema('description', { multiline: true })
  .max(2000, 'description must be at most 2,000 characters')
  .nullish()
  .transform((value) => value || null);
const productIdsField = z
  .array(z.uuid({ error: 'productIds must hold product ids' }), { error: 'productIds must be a list' })
  .max(SHOW_MAX_PRODUCTS, `productIds holds at most ${SHOW_MAX_PRODUCTS} products`)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'productIds names a product twice' });
/** A cover uploaded with POST /api/uploads/product-image (`/media/uploads/…`), or none. */
const coverUrlField = z
  .string()
  .trim()
  .max(500, 'coverUrl is too long')
  .refine((value) => value === '' || /^\/media\/uploads\/[\w.-]+$/.test(value), {
    message: 'coverUrl must be an image uploaded here',
  })
  .nullish()
  .transform((value) => value || null);

export const createShowBodySchema = z.object({
  title: titleField,
  description: descriptionField,
  startsAt: startsAtField,
  timeZone: timeZoneField,
  coverUrl: coverUrlField,
  productIds: productIdsField.default([]),
});
export type CreateShowBody = z.input<typeof createShowBodySchema>;

export const updateShowBodySchema = z
  .object({
    title: titleField,
    description: descriptionField,
    startsAt: startsAtField,
    timeZone: timeZoneField,
    coverUrl: coverUrlField,
    productIds: productIdsField,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateShowBody = z.input<typeof updateShowBodySchema>;

export const showIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be a show id' }) });

export const showsQuerySchema = z.object({
  /** Upcoming shows of every seller (default), or of one seller by handle. */
  seller: z.string().trim().max(64).optional(),
  /** `mine`: the signed-in seller's shows, every status. */
  scope: z.enum(['upcoming', 'mine'], { error: 'scope must be upcoming or mine' }).default('upcoming'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SHOWS_PAGE_LIMIT, `limit must be at most ${SHOWS_PAGE_LIMIT}`)
    .default(24),
});

export const showSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** ISO time (UTC). */
  startsAt: z.string(),
  /** The seller's IANA time zone, shown beside the viewer's own. */
  timeZone: z.string(),
  coverUrl: z.string().nullable(),
  status: z.enum(SHOW_STATUSES),
  seller: z.object({ handle: z.string(), name: z.string() }),
  products: z.array(roomProductSchema),
  /** The room once the seller went live from the show. */
  roomName: z.string().nullable(),
  reminders: z.number().int(),
  /** Whether the signed-in viewer asked to be reminded (false when signed out). */
  reminded: z.boolean(),
  createdAt: z.string(),
});
export type Show = z.infer<typeof showSchema>;

export const showListSchema = z.object({ shows: z.array(showSchema) });
export type ShowList = z.infer<typeof showListSchema>;

export const reminderResponseSchema = z.object({ reminded: z.boolean(), reminders: z.number().int() });
export type ReminderResponse = z.infer<typeof reminderResponseSchema>;
