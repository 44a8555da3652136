import type { Show } from '@streamshop/contract/shows.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';
import { markMissedShows } from './repo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(async () => {
  await t.close();
});

type Account = Awaited<ReturnType<typeof signUpFrom>>;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who?: Account, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(who ? { remoteAddress: who.ip } : {}),
    ...(payload ? { payload } : {}),
  });

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

async function schedule(seller: Account, body: Record<string, unknown> = {}): Promise<Show> {
  const response = await call('POST', '/api/shows', seller, {
    title: 'Friday digs',
    startsAt: inHours(2),
    timeZone: 'America/Chicago',
    ...body,
  });
  if (response.statusCode !== 201)
    throw new Error(`scheduling failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

describe('scheduling a show', () => {
  it('keeps the time as an instant and the seller’s time zone beside it', async () => {
    const seller = await signUpFrom(t.app, '10.81');
    const product = await listProduct(t, seller.cookie, { title: 'Kind of Blue' });
    const show = await schedule(seller, {
      startsAt: '2027-01-15T19:00:00-05:00',
      timeZone: 'America/New_York',
      description: 'Jazz crates',
      productIds: [product.id],
    });
    expect(show).toMatchObject({
      title: 'Friday digs',
      description: 'Jazz crates',
      startsAt: '2027-01-16T00:00:00.000Z',
      timeZone: 'America/New_York',
      status: 'scheduled',
      roomName: null,
      reminders: 0,
      seller: { handle: seller.handle },
    });
    expect(show.products.map((p) => p.title)).toEqual(['Kind of Blue']);
    const read = await call('GET', `/api/shows/${show.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().startsAt).toBe('2027-01-16T00:00:00.000Z');
  });

  it('refuses a time in the past, without an offset, too far ahead, and an unknown time zone', async () => {
    const seller = await signUpFrom(t.app, '10.81');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ startsAt: inHours(-1) }, 'startsAt'],
      [{ startsAt: '2027-01-15T19:00:00' }, 'startsAt'],
      [{ startsAt: inHours(24 * 400) }, 'startsAt'],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ title: '' }, 'title'],
      [{ coverUrl: 'https://elsewhere.example/cover.png' }, 'coverUrl'],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', '/api/shows', seller, {
        title: 'Friday digs',
        startsAt: inHours(2),
        timeZone: 'UTC',
        ...body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
  });

  it('asks for a session first, and takes only the seller’s own products', async () => {
    const seller = await signUpFrom(t.app, '10.81');
    const other = await signUpFrom(t.app, '10.81');
    const theirs = await listProduct(t, other.cookie);
    expect((await call('POST', '/api/shows', undefined, { title: '' })).statusCode).toBe(401);
    const response = await call('POST', '/api/shows', seller, {
      title: 'Not mine',
      startsAt: inHours(2),
      timeZone: 'UTC',
      productIds: [theirs.id],
    });
    expect(response.statusCode).toBe(404);
  });

  it('holds at most 50 scheduled shows per seller', async () => {
    const seller = await signUpFrom(t.app, '10.81');
    await t.database.pool.query(
      `insert into shows (seller_id, title, starts_at, time_zone)
       select $1, 'Show ' || n, now() + make_interval(days => n), 'UTC' from generate_series(1, 50) n`,
      [seller.id],
    );
    const refused = await call('POST', '/api/shows', seller, {
      title: 'One more',
      startsAt: inHours(2),
      timeZone: 'UTC',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'You have 50 shows scheduled: delete one or wait until one has started.',
    );
  });
});

describe('changing a show', () => {
  it('lets only its seller edit or delete it', async () => {
    const seller = await signUpFrom(t.app, '10.82');
    const stranger = await signUpFrom(t.app, '10.82');
    const show = await schedule(seller);
    expect((await call('PATCH', `/api/shows/${show.id}`, undefined, { title: 'x' })).statusCode).toBe(401);
    expect((await call('PATCH', `/api/shows/${show.id}`, stranger, { title: 'Mine now' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/shows/${show.id}`, stranger)).statusCode).toBe(403);
    const edited = await call('PATCH', `/api/shows/${show.id}`, seller, { title: 'Saturday digs' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().title).toBe('Saturday digs');
    expect((await call('PATCH', `/api/shows/${show.id}`, seller, {})).statusCode).toBe(400);
    expect((await call('DELETE', `/api/shows/${show.id}`, seller)).statusCode).toBe(204);
    expect((await call('GET', `/api/shows/${show.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/shows/not-a-show')).statusCode).toBe(400);
  });

  it('refuses edits once the show went live, and goes live once however often asked', async () => {
    const seller = await signUpFrom(t.app, '10.82');
    const stranger = await signUpFrom(t.app, '10.82');
    const records = await listProduct(t, seller.cookie, { title: 'Blue Train' });
    const show = await schedule(seller, { productIds: [records.id] });
    expect((await call('POST', `/api/shows/${show.id}/live`, stranger)).statusCode).toBe(403);
    const [first, second] = await Promise.all([
      call('POST', `/api/shows/${show.id}/live`, seller),
      call('POST', `/api/shows/${show.id}/live`, seller),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().roomName).toBe(first.json().roomName);
    const room = first.json().roomName as string;
    const shop = (await call('GET', `/api/streams/${room}/shop`)).json();
    expect(shop.lineup.map((p: { title: string }) => p.title)).toEqual(['Blue Train']);
    const live = (await call('GET', `/api/shows/${show.id}`)).json();
    expect(live).toMatchObject({ status: 'live', roomName: room });
    const edit = await call('PATCH', `/api/shows/${show.id}`, seller, { title: 'Too late' });
    expect(edit.statusCode).toBe(409);
    expect((await call('DELETE', `/api/shows/${show.id}`, seller)).statusCode).toBe(409);
    expect((await call('POST', `/api/streams/${room}/start`, seller)).statusCode).toBe(200);
    expect((await call('POST', `/api/streams/${room}/end`, seller)).statusCode).toBe(200);
    expect((await call('GET', `/api/shows/${show.id}`)).json().status).toBe('ended');
    expect((await call('POST', `/api/shows/${show.id}/live`, seller)).statusCode).toBe(409);
  });

  it('marks a show not started 30 minutes after its time as missed', async () => {
    const seller = await signUpFrom(t.app, '10.82');
    const show = await schedule(seller);
    await t.database.pool.query(`update shows set starts_at = now() - interval '31 minutes' where id = $1`, [
      show.id,
    ]);
    expect(await markMissedShows(t.database.db)).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `/api/shows/${show.id}`)).json().status).toBe('missed');
    expect((await call('POST', `/api/shows/${show.id}/live`, seller)).statusCode).toBe(409);
    const upcoming = (await call('GET', `/api/shows?seller=${seller.handle}`)).json().shows as Show[];
    expect(upcoming.map((s) => s.id)).not.toContain(show.id);
  });
});

describe('listing shows and reminders', () => {
  it('lists upcoming shows soonest first, per seller, and the seller’s own', async () => {
    const seller = await signUpFrom(t.app, '10.83');
    const later = await schedule(seller, { title: 'Later', startsAt: inHours(30) });
    const sooner = await schedule(seller, { title: 'Sooner', startsAt: inHours(3) });
    const mine = await call('GET', `/api/shows?seller=${seller.handle}`);
    expect(mine.json().shows.map((s: Show) => s.id)).toEqual([sooner.id, later.id]);
    const everyone = (await call('GET', '/api/shows?limit=50')).json().shows as Show[];
    const times = everyone.map((s) => s.startsAt);
    expect([...times].sort()).toEqual(times);
    expect((await call('GET', '/api/shows?scope=mine')).statusCode).toBe(401);
    expect((await call('GET', '/api/shows?scope=mine', seller)).json().shows).toHaveLength(2);
    expect((await call('GET', '/api/shows?seller=nobody_here_at_all')).statusCode).toBe(404);
    expect((await call('GET', '/api/shows?limit=500')).statusCode).toBe(400);
  });

  it('reminds once per person, never the seller, and only before the show starts', async () => {
    const seller = await signUpFrom(t.app, '10.83');
    const buyer = await signUpFrom(t.app, '10.83');
    const show = await schedule(seller);
    expect((await call('POST', `/api/shows/${show.id}/reminder`)).statusCode).toBe(401);
    const first = await call('POST', `/api/shows/${show.id}/reminder`, buyer);
    const again = await call('POST', `/api/shows/${show.id}/reminder`, buyer);
    expect(first.json()).toEqual({ reminded: true, reminders: 1 });
    expect(again.json()).toEqual({ reminded: true, reminders: 1 });
    expect((await call('GET', `/api/shows/${show.id}`, buyer)).json().reminded).toBe(true);
    expect((await call('GET', `/api/shows/${show.id}`)).json().reminded).toBe(false);
    expect((await call('POST', `/api/shows/${show.id}/reminder`, seller)).statusCode).toBe(400);
    const off = await call('DELETE', `/api/shows/${show.id}/reminder`, buyer);
    expect(off.json()).toEqual({ reminded: false, reminders: 0 });
    await call('POST', `/api/shows/${show.id}/live`, seller);
    expect((await call('POST', `/api/shows/${show.id}/reminder`, buyer)).statusCode).toBe(409);
  });

  it('serves the show as an iCalendar event at its time in UTC', async () => {
    const seller = await signUpFrom(t.app, '10.83');
    const show = await schedule(seller, {
      title: 'Soul, funk; and more',
      startsAt: '2027-03-01T18:30:00+01:00',
      timeZone: 'Europe/Paris',
    });
    const response = await call('GET', `/api/shows/${show.id}/calendar.ics`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    expect(response.headers['content-disposition']).toContain('.ics');
    const body = response.body;
    expect(body).toContain('BEGIN:VEVENT\r\n');
    expect(body).toContain('DTSTART:20270301T173000Z\r\n');
    expect(body).toContain('DTEND:20270301T183000Z\r\n');
    expect(body).toContain('SUMMARY:Soul\\, funk\\; and more');
    expect(body).toContain(`URL:http://localhost:3000/shows/${show.id}`);
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(
      (await call('GET', '/api/shows/00000000-0000-4000-8000-000000000000/calendar.ics')).statusCode,
    ).toBe(404);
  });
});
