import type { Show } from '@streamshop/contract/shows.ts';
import { describe, expect, it } from 'vitest';
import {
  emptyShowForm,
  parseShowEdit,
  parseShowForm,
  type ShowFormValues,
  showToFormValues,
  toggleProduct,
} from './show-form.ts';

/** "Now" for every check: Nov 20, 2026, noon UTC. */
const NOW = Date.parse('2026-11-20T12:00:00Z');
const P1 = '0b7d2c1e-0000-4000-8000-000000000001';
const P2 = '0b7d2c1e-0000-4000-8000-000000000002';

const filled = (changes: Partial<ShowFormValues> = {}): ShowFormValues => ({
  ...emptyShowForm('America/New_York'),
  title: 'Friday vinyl drop',
  startsAt: '2026-12-01T19:00',
  ...changes,
});

const errorsOf = (values: ShowFormValues) => {
  const result = parseShowForm(values, NOW);
  return result.ok ? {} : result.errors;
};

const show: Show = {
  id: '5a0d1c3e-0000-4000-8000-000000000009',
  title: 'Friday vinyl drop',
  description: 'Blue Note night',
  startsAt: '2026-12-02T00:00:00.000Z',
  timeZone: 'America/New_York',
  coverUrl: '/media/uploads/cover.jpg',
  status: 'scheduled',
  seller: { handle: 'ana', name: 'Ana' },
  products: [P2, P1].map((id) => ({
    id,
    title: id,
    imageUrl: null,
    priceCents: 100,
    stock: 1,
    condition: 'new',
    fulfillment: 'ship' as const,
    shippingCents: 0,
  })),
  roomName: null,
  reminders: 0,
  reminded: false,
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('the schedule form', () => {
  it('sends the wall time in the chosen zone as an instant with that zone’s offset', () => {
    const result = parseShowForm(
      filled({ description: '  ', coverUrl: '/media/uploads/a.jpg', productIds: [P2, P1] }),
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      body: {
        title: 'Friday vinyl drop',
        description: null,
        startsAt: '2026-12-01T19:00:00-05:00',
        timeZone: 'America/New_York',
        coverUrl: '/media/uploads/a.jpg',
        productIds: [P2, P1],
      },
    });
  });

  it('says, in words beside each field, what a blank form is missing', () => {
    expect(errorsOf({ ...emptyShowForm('UTC') })).toEqual({
      title: 'Title is required',
      startsAt: 'Choose a date and time',
    });
  });

  it('refuses a time that has passed or is more than a year away', () => {
    expect(errorsOf(filled({ startsAt: '2026-11-20T06:59' }))).toEqual({
      startsAt: 'Date and time must be in the future',
    });
    // 07:30 in New York is 12:30 UTC: ahead of noon UTC, though 07:30 UTC would not be.
    expect(errorsOf(filled({ startsAt: '2026-11-20T07:30' }))).toEqual({});
    expect(errorsOf(filled({ startsAt: '2027-12-01T19:00' }))).toEqual({
      startsAt: 'Date and time must be within 365 days',
    });
  });

  it('puts the contract’s own reasons beside the title, time zone, cover and products', () => {
    const errors = errorsOf(
      filled({
        title: 'x'.repeat(201),
        timeZone: 'Mars/Olympus_Mons',
        coverUrl: 'https://elsewhere.example/cover.jpg',
        productIds: [P1, P1],
      }),
    );
    expect(errors).toEqual({
      title: 'Title must be at most 200 characters',
      timeZone: 'Time zone must be an IANA time zone such as America/New_York',
      coverUrl: 'Cover image must be an image uploaded here',
      productIds: 'Products names a product twice',
    });
  });

  it('keeps the lineup in the order the products were ticked', () => {
    expect(toggleProduct([], P2, true)).toEqual([P2]);
    expect(toggleProduct([P2], P1, true)).toEqual([P2, P1]);
    expect(toggleProduct([P2, P1], P2, false)).toEqual([P1]);
    expect(toggleProduct([P1], P2, true)).toEqual([P1, P2]);
  });
});

describe('the edit form', () => {
  it('opens with the show’s time as the wall time of the zone it was scheduled in', () => {
    expect(showToFormValues(show)).toEqual({
      title: 'Friday vinyl drop',
      description: 'Blue Note night',
      startsAt: '2026-12-01T19:00',
      timeZone: 'America/New_York',
      coverUrl: '/media/uploads/cover.jpg',
      productIds: [P2, P1],
    });
  });

  it('sends only what changed; a new zone sends the time again, read in that zone', () => {
    const initial = showToFormValues(show);
    expect(parseShowEdit(initial, initial, NOW)).toEqual({ ok: true, body: {} });
    expect(parseShowEdit({ ...initial, title: ' Saturday drop ', productIds: [P1] }, initial, NOW)).toEqual({
      ok: true,
      body: { title: 'Saturday drop', productIds: [P1] },
    });
    expect(parseShowEdit({ ...initial, timeZone: 'Asia/Kolkata', coverUrl: '' }, initial, NOW)).toEqual({
      ok: true,
      body: { startsAt: '2026-12-01T19:00:00+05:30', timeZone: 'Asia/Kolkata', coverUrl: null },
    });
  });

  it('leaves an unchanged time alone even once it has passed, but checks a new one', () => {
    const initial = showToFormValues(show);
    const later = Date.parse('2026-12-02T00:10:00Z');
    expect(parseShowEdit({ ...initial, title: 'Late start' }, initial, later)).toEqual({
      ok: true,
      body: { title: 'Late start' },
    });
    expect(parseShowEdit({ ...initial, startsAt: '2026-12-01T18:00' }, initial, later)).toEqual({
      ok: false,
      errors: { startsAt: 'Date and time must be in the future' },
    });
    expect(parseShowEdit({ ...initial, title: '' }, initial, later)).toEqual({
      ok: false,
      errors: { title: 'Title is required' },
    });
  });
});
