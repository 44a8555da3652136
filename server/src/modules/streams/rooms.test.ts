import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { endExpired } from './auto-end.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false });
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

const createRoom = (cookie: string | undefined, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/rooms', headers: cookie ? { cookie } : {}, payload });

describe('POST /api/rooms', () => {
  it('creates a stream with the plan’s duration and a URL-safe room name', async () => {
    const response = await createRoom(owner.cookie, {
      title: '  Friday Crate Digging! ',
      description: 'rare jazz',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.roomName).toMatch(/^friday-crate-digging-[0-9a-f]{8}$/);
    expect(body.stream).toMatchObject({
      title: 'Friday Crate Digging!',
      durationSec: 99,
      isActive: false,
      viewCount: 0,
    });
    expect(body.stream.owner.handle).toBe(owner.handle);
    const again = await createRoom(owner.cookie, { title: 'Friday Crate Digging!' });
    expect(again.json().roomName).not.toBe(body.roomName);
  });

  it('gives pro plans 15 minutes and accepts their RTMP URL', async () => {
    const pro = await signUp(t.app);
    await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [pro.user.id]);
    const response = await createRoom(pro.cookie, {
      title: 'Pro show',
      rtmpUrl: 'rtmps://203.0.113.10/app/key',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().stream.durationSec).toBe(900);
  });

  it.each([
    'rtmp://127.0.0.1/live/key',
    'rtmp://[::1]/live/key',
    'rtmp://[::ffff:127.0.0.1]/live/key',
    'rtmp://169.254.169.254/live/key',
    'rtmp://10.1.2.3/live/key',
    'rtmp://192.168.0.10/live/key',
    'rtmp://100.64.0.1/live/key',
    'rtmp://[fd00:ec2::254]/live/key',
    'rtmp://localhost/live/key',
    'rtmp://2130706433/live/key',
    'rtmp://0x7f.1/live/key',
    'rtmp://no-such-host.invalid/live/key',
    // IPv6 spellings of 127.0.0.1: IPv4-compatible, IPv4-translated, 6to4 (security review 3).
    'rtmp://[::7f00:1]/live/key',
    'rtmp://[::ffff:0:7f00:1]/live/key',
    'rtmp://[2002:7f00:1::]/live/key',
    // This host's own addresses, on every interface.
    ...ownInterfaceAddresses().map(
      (address) => `rtmp://${address.includes(':') ? `[${address}]` : address}/live/key`,
    ),
  ])(
    'refuses a restream to %s (loopback, private, metadata, this host or unresolvable) with 400',
    async (rtmpUrl) => {
      const pro = await signUp(t.app);
      await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [pro.user.id]);
      const response = await createRoom(pro.cookie, { title: 'Inside job', rtmpUrl });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual(['rtmpUrl']);
    },
  );

  it('lets an operator allow a private restream host (RESTREAM_ALLOWED_HOSTS)', async () => {
    const allowing = await buildTestApp(
      { restreamAllowedHosts: ['127.0.0.1', '10.0.0.0/8', 'localhost'] },
      { database: t.database, autoEnd: false },
    );
    try {
      const pro = await signUp(allowing.app);
      await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [pro.user.id]);
      for (const rtmpUrl of [
        'rtmp://127.0.0.1/live/key',
        'rtmp://10.1.2.3/live/key',
        'rtmp://localhost/live/key',
      ]) {
        const response = await allowing.app.inject({
          method: 'POST',
          url: '/api/rooms',
          headers: { cookie: pro.cookie },
          payload: { title: 'Studio', rtmpUrl },
        });
        expect(response.statusCode, rtmpUrl).toBe(201);
      }
    } finally {
      await allowing.close();
    }
  });

  it('refuses an RTMP URL from a free account with 403', async () => {
    const response = await createRoom(owner.cookie, {
      title: 'Sneaky',
      rtmpUrl: 'rtmp://live.example/app/key',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('Pro');
  });

  it('validates the body and needs a signed-in user', async () => {
    expect((await createRoom(undefined, { title: 'x' })).statusCode).toBe(401);
    const blank = await createRoom(owner.cookie, { title: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields.title).toBe('Stream title is required');
    const badRtmp = await createRoom(owner.cookie, { title: 'x', rtmpUrl: 'http://nope' });
    expect(badRtmp.statusCode).toBe(400);
    expect(Object.keys(badRtmp.json().fields)).toEqual(['rtmpUrl']);
  });
});

describe('start, end and the plan limit', () => {
  async function newRoom() {
    return (await createRoom(owner.cookie, { title: 'Limit test' })).json().roomName as string;
  }
  const post = (url: string, cookie?: string) =>
    t.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {} });

  it('lets only the owner start and end; the live list follows', async () => {
    const room = await newRoom();
    expect((await post(`/api/streams/${room}/start`, stranger.cookie)).statusCode).toBe(403);
    expect((await post(`/api/streams/${room}/start`)).statusCode).toBe(401);
    const started = await post(`/api/streams/${room}/start`, owner.cookie);
    expect(started.statusCode).toBe(200);
    const stream = started.json();
    expect(stream.isActive).toBe(true);
    const seconds = (Date.parse(stream.endsAt) - Date.parse(stream.startedAt)) / 1000;
    expect(seconds).toBe(99);
    const live = (await t.app.inject({ url: '/api/streams/live' })).json();
    expect(live.map((s: { roomName: string }) => s.roomName)).toContain(room);

    expect((await post(`/api/streams/${room}/end`, stranger.cookie)).statusCode).toBe(403);
    const ended = await post(`/api/streams/${room}/end`, owner.cookie);
    expect(ended.json().isActive).toBe(false);
    const after = (await t.app.inject({ url: '/api/streams/live' })).json();
    expect(after.map((s: { roomName: string }) => s.roomName)).not.toContain(room);
    expect((await post(`/api/streams/${room}/start`, owner.cookie)).statusCode).toBe(409);
  });

  it('answers unknown and malformed room names with 404 and 400', async () => {
    expect((await post('/api/streams/no-such-room-123/end', owner.cookie)).statusCode).toBe(404);
    expect((await post('/api/streams/Bad%20Name!/end', owner.cookie)).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/streams/no-such-room-123' })).statusCode).toBe(404);
  });

  it('ends a stream whose time is up, once, even from another instance of the app', async () => {
    const room = await newRoom();
    await post(`/api/streams/${room}/start`, owner.cookie);
    expect(await endExpired(t.database.db, t.app.hub)).not.toContain(room);
    // The clock is the database's: move this stream's end into the past.
    await t.database.pool.query(
      `update streams set ends_at = now() - interval '1 second' where room_name = $1`,
      [room],
    );
    // A second app on the same database (a restart, or another instance) ends it.
    const other = await buildTestApp({}, { database: t.database, autoEnd: false });
    try {
      expect(await endExpired(other.database.db, other.app.hub)).toEqual([room]);
      expect(await endExpired(t.database.db, t.app.hub)).toEqual([]);
    } finally {
      await other.close();
    }
    const stream = (await t.app.inject({ url: `/api/streams/${room}` })).json();
    expect(stream.isActive).toBe(false);
  });

  it('ends a stream whose publisher has been gone for the grace, counting a lapsed lease from a heartbeat later', async () => {
    const options = { publisherGraceMs: 30_000, publisherHeartbeatMs: 5000 };
    const started = async () => {
      const room = await newRoom();
      await post(`/api/streams/${room}/start`, owner.cookie);
      return room;
    };
    const [neverPublished, left, crashed] = [await started(), await started(), await started()];
    // The publisher's instance set these (the media module): one left 31 s ago; one's instance
    // last renewed its lease 31 s ago and never released it (killed).
    const seen = (room: string, secondsAgo: number, instance: string | null) =>
      t.database.pool.query(
        `update streams set publisher_seen_at = now() - make_interval(secs => $2), publisher_instance = $3
         where room_name = $1`,
        [room, secondsAgo, instance],
      );
    await seen(left, 31, null);
    await seen(crashed, 31, 'a-killed-instance');
    const ended = await endExpired(t.database.db, t.app.hub, options);
    expect(ended).toContain(left);
    expect(ended).not.toContain(crashed);
    expect(ended).not.toContain(neverPublished);
    await seen(crashed, 36, 'a-killed-instance');
    expect(await endExpired(t.database.db, t.app.hub, options)).toEqual([crashed]);
    for (const room of [left, crashed]) {
      expect((await t.app.inject({ url: `/api/streams/${room}` })).json().isActive).toBe(false);
    }
    expect((await t.app.inject({ url: `/api/streams/${neverPublished}` })).json().isActive).toBe(true);
  });
});

/** The addresses of this machine's network interfaces other than loopback (zone ids dropped). */
function ownInterfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry.address);
}
