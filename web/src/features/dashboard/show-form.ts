import {
  type CreateShowBody,
  createShowBodySchema,
  isTimeZone,
  SHOW_MAX_DAYS_AHEAD,
  type Show,
  type UpdateShowBody,
} from '@streamshop/contract/shows.ts';
import { type FieldErrors, fieldErrorsFromIssues } from '../../lib/form-errors.ts';
import { browserTimeZone, isLocalDateTime, isoToZonedLocal, zonedTimeToIso } from './zoned-time.ts';

/** The Schedule/Edit show dialog's fields as the seller sees them, keyed by the body's names. */
export const SHOW_LABELS = {
  title: 'Title',
  description: 'Description',
  startsAt: 'Date and time',
  timeZone: 'Time zone',
  coverUrl: 'Cover image',
  productIds: 'Products',
} as const;
export type ShowField = keyof typeof SHOW_LABELS;

export interface ShowFormValues {
  title: string;
  description: string;
  /** The wall time in `timeZone`, as a `datetime-local` input holds it ("2026-12-01T19:00"). */
  startsAt: string;
  timeZone: string;
  /** An uploaded image's `/media/uploads/…` URL, or ''. */
  coverUrl: string;
  /** The lineup, in the order the products were ticked. */
  productIds: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function emptyShowForm(timeZone = browserTimeZone()): ShowFormValues {
  return { title: '', description: '', startsAt: '', timeZone, coverUrl: '', productIds: [] };
}

/** Edit mode: the show's values, its time as the wall time of the zone it was scheduled in. */
export function showToFormValues(show: Show): ShowFormValues {
  return {
    title: show.title,
    description: show.description ?? '',
    startsAt: isoToZonedLocal(show.startsAt, show.timeZone),
    timeZone: show.timeZone,
    coverUrl: show.coverUrl ?? '',
    productIds: show.products.map((product) => product.id),
  };
}

/** Ticks or unticks a product: a newly ticked one joins the end of the lineup. */
export function toggleProduct(productIds: readonly string[], id: string, checked: boolean): string[] {
  const without = productIds.filter((productId) => productId !== id);
  return checked ? [...without, id] : without;
}

export type ShowFormResult<Body> = { ok: true; body: Body } | { ok: false; errors: FieldErrors<ShowField> };

/** The date-and-time checks the browser can make: a real time, ahead, and within a year. */
function checkStartsAt(values: ShowFormValues, now: number): { iso?: string; error?: string } {
  if (!values.startsAt.trim()) return { error: 'Choose a date and time' };
  if (!isLocalDateTime(values.startsAt))
    return { error: 'Enter a date and time such as 12/01/2026, 7:00 PM' };
  // An unknown zone is the time zone's own error (from the schema); the time waits for it.
  if (!isTimeZone(values.timeZone)) return {};
  const iso = zonedTimeToIso(values.startsAt, values.timeZone);
  const at = Date.parse(iso);
  if (at <= now) return { iso, error: 'Date and time must be in the future' };
  if (at - now > SHOW_MAX_DAYS_AHEAD * DAY_MS) {
    return { iso, error: `Date and time must be within ${SHOW_MAX_DAYS_AHEAD} days` };
  }
  return { iso };
}

/**
 * The body of POST /api/shows, checked with the contract's schema (as the server checks it) and
 * the time's own checks; or each field's problem in words.
 */
export function parseShowForm(values: ShowFormValues, now = Date.now()): ShowFormResult<CreateShowBody> {
  const time = checkStartsAt(values, now);
  const body: CreateShowBody = {
    title: values.title,
    description: values.description.trim() || null,
    // A placeholder when the time has its own error, so that the schema reports only the others.
    startsAt: time.iso ?? '1970-01-01T00:00:00Z',
    timeZone: values.timeZone,
    coverUrl: values.coverUrl || null,
    productIds: values.productIds,
  };
  const parsed = createShowBodySchema.safeParse(body);
  const errors: FieldErrors<ShowField> = parsed.success
    ? {}
    : fieldErrorsFromIssues(parsed.error.issues, SHOW_LABELS);
  if (time.error) errors.startsAt = time.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: { ...body, title: body.title.trim(), timeZone: body.timeZone.trim() },
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * The body of PATCH /api/shows/:id: only what changed from `initial` (an empty body when nothing
 * did). An unchanged time is neither checked nor sent, so a show a few minutes past its time can
 * still have its title fixed before the seller goes live.
 */
export function parseShowEdit(
  values: ShowFormValues,
  initial: ShowFormValues,
  now = Date.now(),
): ShowFormResult<UpdateShowBody> {
  const timeChanged = values.startsAt !== initial.startsAt || values.timeZone !== initial.timeZone;
  const checked = parseShowForm(values, now);
  if (!checked.ok) {
    const { startsAt: _unchanged, ...others } = checked.errors;
    const errors = timeChanged ? checked.errors : others;
    if (Object.keys(errors).length > 0) return { ok: false, errors };
  }
  const body: UpdateShowBody = {};
  if (values.title.trim() !== initial.title.trim()) body.title = values.title.trim();
  if (values.description.trim() !== initial.description.trim()) {
    body.description = values.description.trim() || null;
  }
  if (timeChanged) {
    body.startsAt = zonedTimeToIso(values.startsAt, values.timeZone);
    body.timeZone = values.timeZone.trim();
  }
  if (values.coverUrl !== initial.coverUrl) body.coverUrl = values.coverUrl || null;
  if (!sameList(values.productIds, initial.productIds)) body.productIds = values.productIds;
  return { ok: true, body };
}
