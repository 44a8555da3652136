import type { NotificationList } from '@streamshop/contract/notifications.ts';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../test/eventually.ts';
import { type MailTestApp, receivedOnceSent, useMailTestApp } from '../../test/mail-test-app.ts';
import { linkIn } from '../../test/smtp-server.ts';
import { listenOnLoopback, signUpFrom } from '../../test/test-app.ts';

let m: MailTestApp;
useMailTestApp(
  (started) => {
    m = started;
  },
  {},
  { notifySweepMs: 100 },
);

type Account = Awaited<ReturnType<typeof signUpFrom>>;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  who?: Account,
  payload?: object,
) =>
  m.t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(who ? { remoteAddress: who.ip } : {}),
    ...(payload ? { payload } : {}),
  });

async function account(prefix: string, verified = true): Promise<Account> {
  const person = await signUpFrom(m.t.app, prefix);
  if (verified)
    await m.t.database.pool.query('update users set email_verified_at = now() where id = $1', [person.id]);
  return person;
}

async function goLive(seller: Account, title = 'Crate digging'): Promise<string> {
  const room = (await call('POST', '/api/rooms', seller, { title })).json().roomName as string;
  const started = await call('POST', `/api/streams/${room}/start`, seller);
  if (started.statusCode !== 200) throw new Error(`going live failed: ${started.body}`);
  return room;
}

/** The mail sent to `email` once nothing to it is unsent, less the sign-up's verification. */
const notificationMails = async (email: string) =>
  (await receivedOnceSent(m, email)).filter((mail) => mail.subject !== 'Confirm your email address');

const bell = async (who: Account) =>
  (await call('GET', '/api/notifications', who)).json() as NotificationList;
const follow = (who: Account, seller: Account) => call('POST', `/api/sellers/${seller.handle}/follow`, who);

/** Waits until the event's fan-out is done (every batch committed). */
async function fannedOut(eventKey: string) {
  await eventually(
    `the fan-out of ${eventKey} done`,
    async () =>
      (
        await m.t.database.pool.query('select done_at from notification_fanouts where event_key = $1', [
          eventKey,
        ])
      ).rows[0]?.done_at,
    (done) => Boolean(done),
  );
}

async function streamId(room: string): Promise<string> {
  return (await call('GET', `/api/streams/${room}`)).json().id;
}

describe('going live', () => {
  it('tells each follower once, in the app and by email with a one-click unsubscribe, and never the seller', async () => {
    const seller = await account('10.91');
    const fan = await account('10.91');
    const unverified = await account('10.91', false);
    const stranger = await account('10.91');
    expect((await follow(fan, seller)).json()).toMatchObject({ following: true, followers: 1 });
    expect((await follow(fan, seller)).json()).toMatchObject({ following: true, followers: 1 });
    await follow(unverified, seller);
    const room = await goLive(seller, 'Friday digs');
    await fannedOut(`live:${await streamId(room)}`);

    const list = await bell(fan);
    expect(list.unread).toBe(1);
    expect(list.notifications[0]).toMatchObject({
      kind: 'live',
      text: `@${seller.handle} is live now: Friday digs`,
      link: `/room/${room}`,
      read: false,
    });
    expect((await bell(unverified)).unread).toBe(1);
    expect((await bell(stranger)).unread).toBe(0);
    expect((await bell(seller)).unread).toBe(0);

    const mails = await notificationMails(fan.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    if (!mail) throw new Error('no mail');
    expect(mail.subject).toBe(`@${seller.handle} is live now`);
    expect(mail.text).toContain(`/room/${room}`);
    expect(mail.headerLines['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = mail.headerLines['list-unsubscribe']?.replace(/^<|>$/g, '') ?? '';
    expect(unsubscribe).toMatch(/^http:\/\/localhost:3000\/api\/notifications\/unsubscribe\?token=/);
    expect(linkIn(mail, '/unsubscribe').searchParams.get('token')).toBe(
      new URL(unsubscribe).searchParams.get('token'),
    );
    // Unverified addresses get no mail: anyone can type anyone's address at sign-up.
    expect(await notificationMails(unverified.email)).toHaveLength(0);

    // The one-click POST as a mail provider sends it: a form body, no session, no Origin.
    const url = new URL(unsubscribe);
    const oneClick = await m.t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toEqual({ kind: 'live', email: false });
    const preferences = (await call('GET', '/api/notification-preferences', fan)).json();
    expect(preferences).toEqual({
      live: { email: false, inApp: true },
      reminder: { email: true, inApp: true },
    });

    // The next show: in the app still, no more mail.
    await call('POST', `/api/streams/${room}/end`, seller);
    const next = await goLive(seller, 'Saturday digs');
    await fannedOut(`live:${await streamId(next)}`);
    expect((await bell(fan)).unread).toBe(2);
    expect(await notificationMails(fan.email)).toHaveLength(1);
  });

  it('honours in-app preferences and refuses a forged unsubscribe token', async () => {
    const seller = await account('10.92');
    const quiet = await account('10.92');
    await follow(quiet, seller);
    const bad = await call('PUT', '/api/notification-preferences', quiet, { live: { email: 'no' } });
    expect(bad.statusCode).toBe(400);
    const saved = await call('PUT', '/api/notification-preferences', quiet, {
      live: { email: true, inApp: false },
      reminder: { email: true, inApp: true },
    });
    expect(saved.statusCode).toBe(200);
    const room = await goLive(seller);
    await fannedOut(`live:${await streamId(room)}`);
    expect((await bell(quiet)).notifications).toHaveLength(0);
    expect(await notificationMails(quiet.email)).toHaveLength(1);

    const forged = `${quiet.id}.live.${'A'.repeat(43)}`;
    const refused = await call('POST', `/api/notifications/unsubscribe?token=${forged}`);
    expect(refused.statusCode).toBe(400);
    expect((await call('POST', '/api/notifications/unsubscribe?token=short')).statusCode).toBe(400);
    expect((await call('GET', '/api/notification-preferences', quiet)).json().live.email).toBe(true);
  });

  it('needs a session for the bell and preferences, and reads one or all', async () => {
    const seller = await account('10.93');
    const fan = await account('10.93');
    expect((await call('GET', '/api/notifications')).statusCode).toBe(401);
    expect((await call('POST', '/api/notifications/read', undefined, {})).statusCode).toBe(401);
    expect((await call('GET', '/api/notification-preferences')).statusCode).toBe(401);
    expect((await call('POST', '/api/sellers/nobody_at_all_here/follow', fan)).statusCode).toBe(404);
    expect((await call('POST', `/api/sellers/${fan.handle}/follow`, fan)).statusCode).toBe(400);
    await follow(fan, seller);
    const first = await goLive(seller, 'One');
    await fannedOut(`live:${await streamId(first)}`);
    await call('POST', `/api/streams/${first}/end`, seller);
    const second = await goLive(seller, 'Two');
    await fannedOut(`live:${await streamId(second)}`);
    const list = await bell(fan);
    expect(list.unread).toBe(2);
    const [newest] = list.notifications;
    if (!newest) throw new Error('no notification');
    const read = await call('POST', '/api/notifications/read', fan, { ids: [newest.id] });
    expect(read.json()).toEqual({ unread: 1 });
    // Someone else's notification id changes nothing.
    const other = await account('10.93');
    expect((await call('POST', '/api/notifications/read', other, { ids: [newest.id] })).json()).toEqual({
      unread: 0,
    });
    expect((await call('POST', '/api/notifications/read', fan, {})).json()).toEqual({ unread: 0 });
    const unfollowed = await call('DELETE', `/api/sellers/${seller.handle}/follow`, fan);
    expect(unfollowed.json()).toMatchObject({ following: false, followers: 0 });
  });

  it('rings the bell live over /ws/notifications', async () => {
    const seller = await account('10.94');
    const fan = await account('10.94');
    await follow(fan, seller);
    const base = await listenOnLoopback(m.t.app);
    const anonymous = new WebSocket(`${base}/ws/notifications`);
    const closed = await new Promise<number>((resolve) => anonymous.once('close', (code) => resolve(code)));
    expect(closed).toBe(4001);
    const socket = new WebSocket(`${base}/ws/notifications`, { headers: { cookie: fan.cookie } });
    const counts: number[] = [];
    socket.on('message', (data) => counts.push(JSON.parse(data.toString()).unread));
    await eventually(
      'the first count',
      async () => counts.length,
      (n) => n >= 1,
    );
    expect(counts[0]).toBe(0);
    await goLive(seller);
    await eventually(
      'the bell rang',
      async () => counts.at(-1),
      (n) => n === 1,
    );
    socket.close();
  });
});

describe('scheduled shows', () => {
  it('reminds 15 minutes before, then tells each person once when the seller goes live from the show', async () => {
    const seller = await account('10.95');
    const both = await account('10.95');
    const follower = await account('10.95');
    await follow(both, seller);
    await follow(follower, seller);
    const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const show = (
      await call('POST', '/api/shows', seller, {
        title: 'Late night soul',
        startsAt: inMinutes(60),
        timeZone: 'UTC',
      })
    ).json();
    await call('POST', `/api/shows/${show.id}/reminder`, both);
    // Moved to 10 minutes from now: inside the reminder window.
    const moved = await call('PATCH', `/api/shows/${show.id}`, seller, { startsAt: inMinutes(10) });
    await fannedOut(`reminder:${show.id}:${Date.parse(moved.json().startsAt)}`);
    const reminded = await bell(both);
    expect(reminded.notifications).toHaveLength(1);
    expect(reminded.notifications[0]).toMatchObject({ kind: 'reminder', link: `/shows/${show.id}` });
    expect(reminded.notifications[0]?.text).toMatch(/^Late night soul with @\S+ starts in (9|10) minutes$/);
    expect((await bell(follower)).notifications).toHaveLength(0);
    const reminderMail = await notificationMails(both.email);
    expect(reminderMail.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Reminder: Late night soul/),
    ]);

    const live = await call('POST', `/api/shows/${show.id}/live`, seller);
    const room = live.json().roomName as string;
    await call('POST', `/api/streams/${room}/start`, seller);
    await fannedOut(`live:${await streamId(room)}`);
    const after = await bell(both);
    expect(after.notifications.map((n) => n.kind)).toEqual(['reminder', 'reminder']);
    expect(after.notifications[0]?.link).toBe(`/room/${room}`);
    expect((await bell(follower)).notifications.map((n) => n.kind)).toEqual(['live']);
    expect(await notificationMails(both.email)).toHaveLength(2);
  });
});
