import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { redisBus } from '../../platform/bus.ts';
import { memoryTokenBuckets } from '../../platform/token-bucket.ts';
import { connectChat } from '../../test/chat-client.ts';
import { movableClock } from '../../test/clock.ts';
import { eventually } from '../../test/eventually.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';

/** Chat's message buckets run on this clock, so a test moves it instead of waiting for a refill. */
const clock = movableClock();

let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;
let room: string;

const connect = (roomName: string, cookie?: string, origin?: string, at = base) =>
  connectChat(at, roomName, cookie, origin);

beforeAll(async () => {
  t = await buildTestApp(
    {},
    {
      autoEnd: false,
      chatBuckets: memoryTokenBuckets({ burst: CHAT_BURST, perSecond: CHAT_REFILL_PER_SEC }, clock.now),
    },
  );
  base = await listenOnLoopback(t.app);
  owner = await signUp(t.app);
  viewer = await signUp(t.app);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: owner.cookie },
    payload: { title: 'Chat room' },
  });
  room = created.json().roomName;
});
afterAll(async () => {
  await t.close();
});

describe('chat on /ws?room=', () => {
  it('broadcasts a signed-in user’s message with the name from the session, not the client', async () => {
    const watcher = await connect(room);
    const sender = await connect(room, viewer.cookie);
    await sender.next('chat_history');
    sender.send({ type: 'chat_message', username: 'admin', message: '  hello <b>there</b>  ' });
    const seen = await watcher.next('chat_message');
    expect(seen).toMatchObject({ username: viewer.handle, message: 'hello <b>there</b>' });
    expect(Date.parse(seen.timestamp)).not.toBeNaN();
    watcher.socket.close();
    sender.socket.close();
  });

  it('sends the last 50 messages to a client that joins, oldest first', async () => {
    const sender = await connect(room, owner.cookie);
    await sender.next('chat_history');
    for (let i = 0; i < 3; i++) {
      sender.send({ type: 'chat_message', message: `history ${i}` });
      await sender.next('chat_message', (m) => m.message === `history ${i}`);
    }
    const late = await connect(room);
    const history = await late.next('chat_history');
    const texts = history.messages.map((m) => m.message);
    expect(texts.slice(-3)).toEqual(['history 0', 'history 1', 'history 2']);
    expect(history.messages.length).toBeLessThanOrEqual(50);
    sender.socket.close();
    late.socket.close();
  });

  it('lets anonymous sockets read but not send', async () => {
    const anonymous = await connect(room);
    anonymous.send({ type: 'chat_message', message: 'hi' });
    const error = await anonymous.next('error');
    expect(error).toMatchObject({ code: 'SIGN_IN_REQUIRED', message: 'Sign in to chat' });
    anonymous.socket.close();
  });

  it('drops empty messages and refuses ones over 500 characters', async () => {
    const sender = await connect(room, viewer.cookie);
    await sender.next('chat_history');
    sender.send({ type: 'chat_message', message: '    ' });
    sender.send({ type: 'chat_message', message: 'x'.repeat(501) });
    expect((await sender.next('error')).code).toBe('TOO_LONG');
    sender.send({ type: 'chat_message', message: 'x'.repeat(500) });
    await sender.next('chat_message', (m) => m.message.length === 500);
    expect(sender.received.filter((m) => m.type === 'chat_message' && m.message === '')).toEqual([]);
    sender.socket.close();
  });

  it('answers malformed frames with an error and keeps the socket open', async () => {
    const sender = await connect(room, viewer.cookie);
    await sender.next('chat_history');
    for (const frame of ['not json', '{"type":"nope"}', '[]', '{"type":"chat_message","message":42}']) {
      sender.send(frame);
      expect((await sender.next('error')).code).toBe('BAD_MESSAGE');
    }
    expect(sender.socket.readyState).toBe(WebSocket.OPEN);
    sender.socket.close();
  });

  it('rate-limits a burst: 3 go through, the rest get an error and are not broadcast', async () => {
    const spammer = await signUp(t.app);
    const sender = await connect(room, spammer.cookie);
    await sender.next('chat_history');
    for (let i = 0; i < 6; i++) sender.send({ type: 'chat_message', message: `burst ${i}` });
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(await sender.next('error'));
    expect(errors.every((e) => e.code === 'RATE_LIMITED')).toBe(true);
    for (let i = 0; i < 3; i++) await sender.next('chat_message', (m) => m.message === `burst ${i}`);
    // Saved after the broadcast (ADR 0019): the three, and only them.
    const stored = () =>
      t.database.pool
        .query(`select count(*)::int as n from chat_messages where username = $1`, [spammer.handle])
        .then(({ rows }) => rows[0].n as number);
    expect(await eventually('the three saved', stored, (n) => n >= 3)).toBe(3);
    sender.socket.close();
  });

  it('lets the owner delete a message and mute a user; others cannot', async () => {
    const host = await connect(room, owner.cookie);
    const guest = await connect(room, viewer.cookie);
    await host.next('chat_history');
    await guest.next('chat_history');
    guest.send({ type: 'chat_message', message: 'buy my stuff elsewhere' });
    const spam = await host.next('chat_message', (m) => m.message === 'buy my stuff elsewhere');

    guest.send({ type: 'delete_message', id: spam.id });
    expect((await guest.next('error')).code).toBe('FORBIDDEN');
    host.send({ type: 'delete_message', id: spam.id });
    expect((await guest.next('message_deleted')).id).toBe(spam.id);

    guest.send({ type: 'mute_user', username: owner.handle });
    expect((await guest.next('error')).code).toBe('FORBIDDEN');
    host.send({ type: 'mute_user', username: `@${viewer.handle}` });
    // Every message bucket refills (the host's was used by the tests before).
    clock.advance(CHAT_BURST * 1000);
    // The host's frames are handled in order: once the guest sees this one, the mute is in place.
    host.send({ type: 'chat_message', message: 'muted them' });
    await guest.next('chat_message', (m) => m.message === 'muted them');
    guest.send({ type: 'chat_message', message: 'am I muted?' });
    expect((await guest.next('error')).code).toBe('MUTED');
    host.socket.close();
    guest.socket.close();
  });

  it('counts viewers and pushes the count on the same socket', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Count room' },
    });
    const countRoom = other.json().roomName;
    const a = await connect(countRoom);
    expect((await a.next('viewer_count', (m) => m.count === 1)).count).toBe(1);
    const b = await connect(countRoom);
    await a.next('viewer_count', (m) => m.count === 2);
    b.socket.close();
    await a.next('viewer_count', (m) => m.count === 1);
    a.socket.close();
    const stream = (await t.app.inject({ url: `/api/streams/${countRoom}` })).json();
    // Both sockets are one signed-out viewer at one address: one view (views.test.ts).
    expect(stream.viewCount).toBe(1);
  });

  it('does not count the seller in their own room as a viewer or a view', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Seller alone' },
    });
    const sellerRoom = created.json().roomName;
    const seller = await connect(sellerRoom, owner.cookie);
    expect((await seller.next('viewer_count')).count).toBe(0);
    const viewer = await connect(sellerRoom);
    await seller.next('viewer_count', (m) => m.count === 1);
    viewer.socket.close();
    await seller.next('viewer_count', (m) => m.count === 0);
    seller.socket.close();
    const stream = (await t.app.inject({ url: `/api/streams/${sellerRoom}` })).json();
    expect(stream.viewCount).toBe(1);
  });

  it('tells the seller who joins after a viewer the count the viewer sees', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Seller joins late' },
    });
    const lateRoom = created.json().roomName;
    const viewerSocket = await connect(lateRoom);
    await viewerSocket.next('viewer_count', (m) => m.count === 1);
    // The seller's joining leaves the total at 1: it must reach the seller all the same.
    const seller = await connect(lateRoom, owner.cookie);
    expect((await seller.next('viewer_count')).count).toBe(1);
    // And a viewer who comes back at once (1 -> 0 -> 1 within a second) is told it too.
    viewerSocket.socket.close();
    const back = await connect(lateRoom);
    expect((await back.next('viewer_count')).count).toBe(1);
    seller.socket.close();
    back.socket.close();
  });

  it('sends viewer counts at most about once a second, with the latest total', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Crowd room' },
    });
    const crowdRoom = created.json().roomName;
    const first = await connect(crowdRoom);
    const crowd = await Promise.all(Array.from({ length: 20 }, () => connect(crowdRoom)));
    await first.next('viewer_count', (m) => m.count === 21);
    const counts = first.received.filter((m) => m.type === 'viewer_count');
    expect(counts.length).toBeLessThanOrEqual(3); // 21 joins, a handful of broadcasts
    for (const c of [first, ...crowd]) c.socket.close();
  });

  it('tells viewers when the stream ends', async () => {
    const watcher = await connect(room);
    await watcher.next('chat_history');
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/start`,
      headers: { cookie: owner.cookie },
    });
    await watcher.next('stream_started');
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/end`,
      headers: { cookie: owner.cookie },
    });
    await watcher.next('stream_ended');
    watcher.socket.close();
  });

  it('tells a viewer who joins a live room when it ends, and lets them chat', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Already live' },
    });
    const liveRoom = created.json().roomName;
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${liveRoom}/start`,
      headers: { cookie: owner.cookie },
    });
    const joiner = await signUp(t.app);
    const late = await connect(liveRoom, joiner.cookie);
    expect((await late.next('stream_started')).endsAt).toBe(started.json().endsAt);
    late.send({ type: 'chat_message', message: 'joined while live' });
    await late.next('chat_message', (m) => m.message === 'joined while live');
    expect(late.socket.readyState).toBe(WebSocket.OPEN);
    late.socket.close();
  });

  it('closes sockets for unknown rooms and cross-site origins', async () => {
    const missing = await connect('no-such-room-42');
    expect((await missing.next('error')).message).toBe('Invalid room URL');
    expect(await missing.closed).toBe(4404);
    const crossSite = await connect(room, viewer.cookie, 'https://evil.example');
    expect(await crossSite.closed).toBe(4403);
  });

  it('closes sockets with 1012 when the server shuts down', async () => {
    const extra = await buildTestApp({}, { database: t.database, autoEnd: false });
    const extraBase = await listenOnLoopback(extra.app);
    const socket = new WebSocket(`${extraBase}/ws?room=${room}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const code = new Promise<number>((resolve) => socket.once('close', (c) => resolve(c)));
    await extra.close();
    expect(await code).toBe(1012);
  });
});

describe('GET /api/streams/:name/chat-replay', () => {
  it('gives every message with its moment from the start of the stream, oldest first', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Replay room' },
    });
    const replayRoom = created.json().roomName;
    await t.app.inject({
      method: 'POST',
      url: `/api/streams/${replayRoom}/start`,
      headers: { cookie: owner.cookie },
    });
    const fan = await signUp(t.app);
    const sender = await connect(replayRoom, fan.cookie);
    await sender.next('chat_history');
    await t.database.pool.query(
      `update streams set started_at = now() - interval '90 seconds' where room_name = $1`,
      [replayRoom],
    );
    sender.send({ type: 'chat_message', message: 'first' });
    await sender.next('chat_message', (m) => m.message === 'first');
    sender.send({ type: 'chat_message', message: 'second' });
    await sender.next('chat_message', (m) => m.message === 'second');
    sender.socket.close();

    const response = await t.app.inject({ url: `/api/streams/${replayRoom}/chat-replay` });
    expect(response.statusCode).toBe(200);
    const { messages } = response.json();
    expect(messages.map((m: { message: string }) => m.message)).toEqual(['first', 'second']);
    expect(messages[0]).toMatchObject({ username: fan.handle });
    expect(messages[0].offsetSec).toBeGreaterThanOrEqual(89);
    expect(messages[0].offsetSec).toBeLessThan(120);
    expect(messages[1].offsetSec).toBeGreaterThanOrEqual(messages[0].offsetSec);
  });

  it('answers 404 for an unknown room and 400 for a malformed name', async () => {
    expect((await t.app.inject({ url: '/api/streams/no-such-room-9/chat-replay' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/streams/NO_SUCH/chat-replay' })).statusCode).toBe(400);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('two instances through Redis', () => {
  it('delivers chat and sums viewer counts across instances', async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    const instances = await Promise.all(
      [0, 1].map(() =>
        buildTestApp(
          { sessionSecret: t.config.sessionSecret },
          { database: t.database, autoEnd: false, bus: redisBus(redisUrl ?? '', prefix) },
        ),
      ),
    );
    try {
      const urls: string[] = [];
      for (const instance of instances) urls.push(await listenOnLoopback(instance.app));
      const talker = await signUp(t.app);
      const onA = await connect(room, talker.cookie, undefined, urls[0]);
      await onA.next('chat_history');
      const onB = await connect(room, undefined, undefined, urls[1]);
      await onB.next('viewer_count', (m) => m.count === 2);
      await onA.next('viewer_count', (m) => m.count === 2);
      onA.send({ type: 'chat_message', message: 'across instances' });
      const seen = await onB.next('chat_message', (m) => m.message === 'across instances');
      expect(seen.username).toBe(talker.handle);
      onB.socket.close();
      await onA.next('viewer_count', (m) => m.count === 1);
      onA.socket.close();
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});
