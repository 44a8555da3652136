import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryTokenBuckets } from '../../platform/token-bucket.ts';
import { type ChatClient, connectChat } from '../../test/chat-client.ts';
import { movableClock } from '../../test/clock.ts';
import { eventually } from '../../test/eventually.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp, unlimited } from '../../test/test-app.ts';

/** Chat's message buckets run on this clock, so a test moves it instead of waiting for a refill. */
const clock = movableClock();

type Account = Awaited<ReturnType<typeof signUp>>;

let t: TestApp;
let base: string;
const clients: ChatClient[] = [];

/** This file signs up dozens of accounts from one address; the sign-up limit is not under test. */

beforeAll(async () => {
  t = await buildTestApp(
    {},
    {
      autoEnd: false,
      rateLimiter: unlimited,
      chatBuckets: memoryTokenBuckets({ burst: CHAT_BURST, perSecond: CHAT_REFILL_PER_SEC }, clock.now),
    },
  );
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  for (const client of clients) client.socket.close();
  await t.close();
});

async function createRoom(owner: Account, title = 'Moderated room'): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: owner.cookie },
    payload: { title },
  });
  return created.json().roomName;
}

/** A seller with a room, and a moderator they appointed. */
async function sellerWithRoom() {
  const owner = await signUp(t.app);
  const moderator = await signUp(t.app);
  const appointed = await t.app.inject({
    method: 'POST',
    url: '/api/moderators',
    headers: { cookie: owner.cookie },
    payload: { handle: moderator.handle },
  });
  expect(appointed.statusCode).toBe(201);
  return { owner, moderator, room: await createRoom(owner) };
}

async function join(room: string, account?: Account): Promise<ChatClient> {
  const client = await connectChat(base, room, account?.cookie);
  clients.push(client);
  await client.next('chat_history');
  return client;
}

/** Resolves once the server has handled every frame the client sent before: a socket's frames are handled in order. */
async function settled(client: ChatClient) {
  client.send({ type: 'ping' });
  await client.next('error', (e) => e.code === 'BAD_MESSAGE');
}

async function say(client: ChatClient, text: string) {
  client.send({ type: 'chat_message', message: text });
  return client.next('chat_message', (m) => m.message === text);
}

async function refusal(client: ChatClient, frame: unknown) {
  client.send(frame);
  return client.next('error');
}

async function storedCount(where: string, ...params: unknown[]): Promise<number> {
  const { rows } = await t.database.pool.query(`select count(*)::int as n from ${where}`, params);
  return rows[0].n;
}

/** A broadcast message is saved just after (ADR 0019): waits until the count is reached. */
const savedCount = (expected: number, where: string, ...params: unknown[]) =>
  eventually(
    where,
    () => storedCount(where, ...params),
    (n) => n >= expected,
  );

async function putSettings(owner: Account, settings: { slowModeSec: number; blockedWords: string[] }) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/chat-settings',
    headers: { cookie: owner.cookie },
    payload: settings,
  });
  expect(response.statusCode).toBe(200);
}

describe('spoofed messages from a viewer', () => {
  it('refuses each with an error to that socket only, and nothing is broadcast or stored', async () => {
    const { owner, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    const bystander = await signUp(t.app);
    const host = await join(room, owner);
    const guest = await join(room, viewer);
    const watcher = await join(room);
    const hostLine = await say(host, 'Welcome, everyone');
    await watcher.next('chat_message', (m) => m.id === hostLine.id);

    const frames: Array<[unknown, string]> = [
      [{ type: 'delete_message', id: hostLine.id }, 'FORBIDDEN'],
      [{ type: 'ban_user', username: bystander.handle }, 'FORBIDDEN'],
      [{ type: 'mute_user', username: bystander.handle }, 'FORBIDDEN'],
      [{ type: 'timeout_user', username: bystander.handle, seconds: 600 }, 'FORBIDDEN'],
      [{ type: 'unban_user', username: viewer.handle }, 'FORBIDDEN'],
      [
        { type: 'shop', lineup: [], pinned: [], offer: null, serverNow: new Date().toISOString() },
        'BAD_MESSAGE',
      ],
      [{ type: 'stock', productId: '00000000-0000-0000-0000-000000000000', stock: 0 }, 'BAD_MESSAGE'],
      [{ type: 'chat_message', message: 'I just bought everything', kind: 'purchase' }, 'BAD_MESSAGE'],
      [
        { type: 'chat_message', message: 'fake id', id: 1, timestamp: new Date().toISOString() },
        'BAD_MESSAGE',
      ],
      [{ type: 'message_deleted', id: hostLine.id }, 'BAD_MESSAGE'],
      [{ type: 'chat_history', messages: [] }, 'BAD_MESSAGE'],
      [{ type: 'viewer_count', count: 100_000 }, 'BAD_MESSAGE'],
      [{ type: 'stream_ended' }, 'BAD_MESSAGE'],
      [{ type: 'error', code: 'MUTED', message: 'The host left' }, 'BAD_MESSAGE'],
    ];
    for (const [frame, code] of frames) {
      expect(await refusal(guest, frame), JSON.stringify(frame)).toMatchObject({ type: 'error', code });
    }

    // Frames are handled in order, so anything the spoofs caused would reach the watcher first.
    const sentinel = await say(guest, 'just a normal message');
    await watcher.next('chat_message', (m) => m.id === sentinel.id);
    expect(watcher.received.filter((m) => m.type !== 'viewer_count')).toEqual([]);
    expect(host.received.filter((m) => m.type === 'error')).toEqual([]);
    expect(await savedCount(1, 'chat_messages where id = $1', hostLine.id)).toBe(1);
    expect(await storedCount('chat_messages where kind = $1', 'purchase')).toBe(0);
    expect(await storedCount('chat_mutes where owner_id = $1', owner.user.id)).toBe(0);
  });
});

describe('deleting messages', () => {
  it('lets a moderator delete a viewer’s message and their own, not the host’s or another moderator’s', async () => {
    const { owner, moderator, room } = await sellerWithRoom();
    const other = await signUp(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/moderators',
      headers: { cookie: owner.cookie },
      payload: { handle: other.handle },
    });
    const viewer = await signUp(t.app);
    const host = await join(room, owner);
    const mod = await join(room, moderator);
    const otherMod = await join(room, other);
    const guest = await join(room, viewer);

    const spam = await say(guest, 'cheap stuff at my shop');
    mod.send({ type: 'delete_message', id: spam.id });
    expect((await guest.next('message_deleted')).id).toBe(spam.id);

    const own = await say(mod, 'typo mesage');
    mod.send({ type: 'delete_message', id: own.id });
    await guest.next('message_deleted', (m) => m.id === own.id);

    const hostLine = await say(host, 'Next up: the red lamp');
    expect((await refusal(mod, { type: 'delete_message', id: hostLine.id })).code).toBe('FORBIDDEN');
    const otherLine = await say(otherMod, 'Keep it friendly');
    expect((await refusal(mod, { type: 'delete_message', id: otherLine.id })).code).toBe('FORBIDDEN');
    expect(await savedCount(2, 'chat_messages where id in ($1, $2)', hostLine.id, otherLine.id)).toBe(2);

    // The host may delete anyone's.
    host.send({ type: 'delete_message', id: otherLine.id });
    await guest.next('message_deleted', (m) => m.id === otherLine.id);
  });
});

describe('time-outs and bans', () => {
  it('lets a moderator time a viewer out: refused with until when, and free again when it ends', async () => {
    const { moderator, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    const mod = await join(room, moderator);
    const guest = await join(room, viewer);
    const watcher = await join(room);

    mod.send({ type: 'timeout_user', username: `@${viewer.handle.toUpperCase()}`, seconds: 300 });
    await settled(mod);
    const muted = await refusal(guest, { type: 'chat_message', message: 'let me talk' });
    expect(muted).toMatchObject({ code: 'MUTED' });
    expect(muted.type === 'error' && muted.message).toMatch(
      /^You are timed out of this chat until \d\d:\d\d:\d\d UTC \(5 min from now\)$/,
    );
    expect(await storedCount('chat_messages where message = $1', 'let me talk')).toBe(0);

    // The time-out ends: move its end into the past rather than wait five minutes.
    await t.database.pool.query(
      `update chat_mutes set expires_at = now() - interval '1 second' where user_id = $1`,
      [viewer.user.id],
    );
    const back = await say(guest, 'thanks, I will behave');
    await watcher.next('chat_message', (m) => m.id === back.id);
    expect(watcher.received.filter((m) => m.type === 'chat_message')).toEqual([]);
  });

  it('bans a viewer from every room of the seller until unbanned; mute_user is a ban too', async () => {
    const { owner, moderator, room } = await sellerWithRoom();
    const secondRoom = await createRoom(owner, 'Second room');
    const viewer = await signUp(t.app);
    const host = await join(room, owner);
    const guest = await join(room, viewer);

    host.send({ type: 'ban_user', username: viewer.handle });
    await settled(host);
    const banned = await refusal(guest, { type: 'chat_message', message: 'hello?' });
    expect(banned).toMatchObject({ code: 'MUTED', message: 'The host has banned you from their chat' });
    const elsewhere = await join(secondRoom, viewer);
    expect((await refusal(elsewhere, { type: 'chat_message', message: 'hello?' })).code).toBe('MUTED');
    const { rows } = await t.database.pool.query('select expires_at from chat_mutes where user_id = $1', [
      viewer.user.id,
    ]);
    expect(rows).toEqual([{ expires_at: null }]);

    // A time-out does not shorten a ban.
    const mod = await join(room, moderator);
    mod.send({ type: 'timeout_user', username: viewer.handle, seconds: 10 });
    await settled(mod);
    expect(
      (await t.database.pool.query('select expires_at from chat_mutes where user_id = $1', [viewer.user.id]))
        .rows,
    ).toEqual([{ expires_at: null }]);

    mod.send({ type: 'unban_user', username: viewer.handle });
    await settled(mod);
    await say(elsewhere, 'free again');

    host.send({ type: 'mute_user', username: viewer.handle });
    await settled(host);
    expect((await refusal(guest, { type: 'chat_message', message: 'and again?' })).code).toBe('MUTED');
  });

  it('keeps the host and moderators out of reach: no time-out or ban of them', async () => {
    const { owner, moderator, room } = await sellerWithRoom();
    const other = await signUp(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/moderators',
      headers: { cookie: owner.cookie },
      payload: { handle: other.handle },
    });
    const host = await join(room, owner);
    const mod = await join(room, moderator);

    for (const frame of [
      { type: 'ban_user', username: owner.handle },
      { type: 'timeout_user', username: owner.handle, seconds: 60 },
      { type: 'ban_user', username: other.handle },
      { type: 'timeout_user', username: other.handle, seconds: 60 },
      { type: 'ban_user', username: moderator.handle },
    ]) {
      expect((await refusal(mod, frame)).code, JSON.stringify(frame)).toBe('FORBIDDEN');
    }
    const hostTry = await refusal(host, { type: 'ban_user', username: moderator.handle });
    expect(hostTry).toMatchObject({
      code: 'FORBIDDEN',
      message: `@${moderator.handle} is one of your moderators: remove them as a moderator first`,
    });
    expect((await refusal(mod, { type: 'ban_user', username: 'nobody_by_that_name' })).code).toBe(
      'NOT_FOUND',
    );
    expect(await storedCount('chat_mutes where owner_id = $1', owner.user.id)).toBe(0);
  });

  it('gives a moderator no say in another seller’s rooms', async () => {
    const { moderator } = await sellerWithRoom();
    const otherSeller = await signUp(t.app);
    const otherRoom = await createRoom(otherSeller, 'Not yours');
    const viewer = await signUp(t.app);
    const seller = await join(otherRoom, otherSeller);
    const guest = await join(otherRoom, viewer);
    const outsider = await join(otherRoom, moderator);
    const line = await say(guest, 'hi all');

    expect((await refusal(outsider, { type: 'delete_message', id: line.id })).code).toBe('FORBIDDEN');
    expect((await refusal(outsider, { type: 'ban_user', username: viewer.handle })).code).toBe('FORBIDDEN');
    expect(
      (await refusal(outsider, { type: 'timeout_user', username: viewer.handle, seconds: 60 })).code,
    ).toBe('FORBIDDEN');
    expect(await storedCount('chat_mutes where owner_id = $1', otherSeller.user.id)).toBe(0);
    await say(guest, 'still here');
    expect(seller.received.filter((m) => m.type === 'message_deleted')).toEqual([]);
  });

  it('lifts a mute when the seller appoints that user a moderator', async () => {
    const { owner, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    const host = await join(room, owner);
    host.send({ type: 'ban_user', username: viewer.handle });
    await settled(host);
    const appointed = await t.app.inject({
      method: 'POST',
      url: '/api/moderators',
      headers: { cookie: owner.cookie },
      payload: { handle: viewer.handle },
    });
    expect(appointed.statusCode).toBe(201);
    const guest = await join(room, viewer);
    await say(guest, 'thanks for trusting me');
  });
});

describe('slow mode', () => {
  it('refuses a viewer’s second message within the window with the seconds to wait', async () => {
    const { owner, moderator, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    const neighbour = await signUp(t.app);
    await putSettings(owner, { slowModeSec: 30, blockedWords: [] });
    const guest = await join(room, viewer);
    const watcher = await join(room);

    await say(guest, 'first');
    const slow = await refusal(guest, { type: 'chat_message', message: 'second' });
    expect(slow.code).toBe('SLOW_MODE');
    expect(slow.type === 'error' && slow.message).toMatch(
      /^Slow mode is on: wait (29|30) seconds before your next message$/,
    );
    expect(await storedCount('chat_messages where message = $1', 'second')).toBe(0);

    // Per user: another viewer is not held back by the first one's message.
    await say(await join(room, neighbour), 'my first too');

    // The window passes: move the first message back rather than wait (once it is saved).
    await savedCount(1, 'chat_messages where user_id = $1', viewer.user.id);
    await t.database.pool.query(
      `update chat_messages set created_at = now() - interval '31 seconds' where user_id = $1 and stream_id = (select id from streams where room_name = $2)`,
      [viewer.user.id, room],
    );
    const third = await say(guest, 'third');
    await watcher.next('chat_message', (m) => m.id === third.id);
    expect(watcher.received.filter((m) => m.type === 'chat_message' && m.message === 'second')).toEqual([]);

    // The host and moderators are exempt.
    const host = await join(room, owner);
    await say(host, 'host one');
    await say(host, 'host two');
    const mod = await join(room, moderator);
    await say(mod, 'mod one');
    await say(mod, 'mod two');
  });

  it('counts per room: a message in one of the seller’s rooms does not hold back another', async () => {
    const { owner, room } = await sellerWithRoom();
    const secondRoom = await createRoom(owner, 'Other slow room');
    const viewer = await signUp(t.app);
    await putSettings(owner, { slowModeSec: 60, blockedWords: [] });
    await say(await join(room, viewer), 'here');
    await say(await join(secondRoom, viewer), 'and there');
  });

  it('applies a change at once to rooms already open, and off means off', async () => {
    const { owner, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    const guest = await join(room, viewer);
    await say(guest, 'one');
    await say(guest, 'two');
    await putSettings(owner, { slowModeSec: 10, blockedWords: [] });
    expect((await refusal(guest, { type: 'chat_message', message: 'three' })).code).toBe('SLOW_MODE');
    await putSettings(owner, { slowModeSec: 0, blockedWords: [] });
    clock.advance(1000); // the guest's message bucket refills
    await say(guest, 'four');
  });
});

describe('blocked words', () => {
  it('refuses a message with a blocked word (whole word, any case) and stores or broadcasts nothing', async () => {
    const { owner, moderator, room } = await sellerWithRoom();
    const viewer = await signUp(t.app);
    await putSettings(owner, { slowModeSec: 0, blockedWords: ['scam', 'dm me'] });
    const guest = await join(room, viewer);
    const watcher = await join(room);

    const blocked = await refusal(guest, { type: 'chat_message', message: 'This is a SCAM!' });
    expect(blocked).toMatchObject({
      code: 'BLOCKED_WORD',
      message: 'Your message contains a word the host does not allow',
    });
    expect((await refusal(guest, { type: 'chat_message', message: 'DM   me for deals' })).code).toBe(
      'BLOCKED_WORD',
    );
    const fine = await say(guest, 'no scammers here');
    await watcher.next('chat_message', (m) => m.id === fine.id);
    expect(watcher.received.filter((m) => m.type === 'chat_message')).toEqual([]);
    expect(await storedCount('chat_messages where message ilike $1', '%scam!%')).toBe(0);

    // The room's rules bind its host and moderators as well.
    const host = await join(room, owner);
    expect((await refusal(host, { type: 'chat_message', message: 'not a scam' })).code).toBe('BLOCKED_WORD');
    const mod = await join(room, moderator);
    expect((await refusal(mod, { type: 'chat_message', message: 'scam' })).code).toBe('BLOCKED_WORD');
  });
});
