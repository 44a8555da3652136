import type { ServerMessage } from '@streamshop/contract/live.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamFixtures } from '../../test/stream-fixtures.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';
import { recordViewerSamples, watchedRooms } from './viewer-samples.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, viewerSampling: false });
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

const {
  query,
  newStream,
  setLiveWindow,
  addSamples,
  addChat,
  addOrder: addAnyOrder,
} = streamFixtures(() => t);
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** An order of the stranger's from the owner. */
const addOrder = (
  streamId: string | null,
  amountCents: number,
  duringLive: boolean,
  status: 'paid' | 'refunded' = 'paid',
) =>
  addAnyOrder(
    { streamId, buyerId: stranger.user.id, sellerId: owner.user.id },
    amountCents,
    duringLive,
    status,
  );

const NO_STATS = {
  peakViewers: 0,
  averageViewers: 0,
  chatMessages: 0,
  live: { purchases: 0, revenueCents: 0 },
  replay: { purchases: 0, revenueCents: 0 },
  auctions: { count: 0, sold: 0, bids: 0, uniqueBidders: 0, soldStartCents: 0, soldForCents: 0 },
};

describe('GET /api/streams/:name/stats', () => {
  it('reports viewers, chat and completed sales live and from the replay', async () => {
    const stream = await newStream(owner.cookie);
    const other = await newStream(owner.cookie, 'Another show');
    // Live for one minute: 12 slots of 5 s, four of them watched.
    await setLiveWindow(stream.id, '2025-03-01T10:00:00Z', '2025-03-01T10:01:00Z');
    await addSamples(stream.id, [
      ['2025-03-01T10:00:05Z', 4],
      ['2025-03-01T10:00:10Z', 10],
      ['2025-03-01T10:00:15Z', 12],
      ['2025-03-01T10:00:20Z', 5],
    ]);
    await addSamples(other.id, [['2025-03-01T10:00:05Z', 99]]);
    await addChat(stream.id, 'user', 3);
    await addChat(stream.id, 'purchase', 2);
    await addChat(other.id, 'user', 4);
    await addOrder(stream.id, 1500, true);
    await addOrder(stream.id, 2500, true);
    await addOrder(stream.id, 9999, true, 'refunded');
    await addOrder(stream.id, 700, false);
    await addOrder(other.id, 4200, false);
    await addOrder(null, 5000, false);

    const response = await get(`/api/streams/${stream.roomName}/stats`, owner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...NO_STATS,
      peakViewers: 12,
      averageViewers: 2.6, // 31 viewer-slots over 12 slots
      chatMessages: 3,
      live: { purchases: 2, revenueCents: 4000 },
      replay: { purchases: 1, revenueCents: 700 },
    });
  });

  it('averages over the samples when there are more of them than whole slots', async () => {
    const stream = await newStream(owner.cookie);
    await setLiveWindow(stream.id, '2025-03-01T10:00:01Z', '2025-03-01T10:00:06Z');
    await addSamples(stream.id, [
      ['2025-03-01T10:00:00Z', 3],
      ['2025-03-01T10:00:05Z', 4],
    ]);
    const response = await get(`/api/streams/${stream.roomName}/stats`, owner.cookie);
    expect(response.json()).toMatchObject({ peakViewers: 4, averageViewers: 3.5 });
  });

  it('gives zeros for a stream that never went live', async () => {
    const stream = await newStream(owner.cookie);
    const response = await get(`/api/streams/${stream.roomName}/stats`, owner.cookie);
    expect(response.json()).toEqual(NO_STATS);
  });

  it('answers 401 signed out and 404 for someone else’s stream or an unknown one', async () => {
    const stream = await newStream(owner.cookie);
    expect((await get(`/api/streams/${stream.roomName}/stats`)).statusCode).toBe(401);
    expect((await get(`/api/streams/${stream.roomName}/stats`, stranger.cookie)).statusCode).toBe(404);
    expect((await get('/api/streams/no-such-room-123/stats', owner.cookie)).statusCode).toBe(404);
  });
});

describe('GET /api/streams/mine/stats', () => {
  it('maps each of the caller’s streams in /api/streams/mine to its stats', async () => {
    const seller = await signUp(t.app);
    const first = await newStream(seller.cookie, 'First');
    const second = await newStream(seller.cookie, 'Second');
    await setLiveWindow(first.id, '2025-03-01T10:00:00Z', '2025-03-01T10:00:10Z');
    await addSamples(first.id, [
      ['2025-03-01T10:00:00Z', 2],
      ['2025-03-01T10:00:05Z', 6],
    ]);
    await addChat(second.id, 'user', 2);
    await newStream(stranger.cookie, 'Not theirs');

    const response = await get('/api/streams/mine/stats', seller.cookie);
    expect(response.statusCode).toBe(200);
    const stats = response.json();
    const mine = (await get('/api/streams/mine', seller.cookie)).json() as Array<{ id: string }>;
    expect(Object.keys(stats).sort()).toEqual(mine.map((s) => s.id).sort());
    expect(stats[first.id]).toEqual({ ...NO_STATS, peakViewers: 6, averageViewers: 4 });
    expect(stats[second.id]).toEqual({ ...NO_STATS, chatMessages: 2 });
  });

  it('answers 401 signed out and {} to a user without streams', async () => {
    expect((await get('/api/streams/mine/stats')).statusCode).toBe(401);
    const newcomer = await signUp(t.app);
    const response = await get('/api/streams/mine/stats', newcomer.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
  });
});

describe('viewer sampling', () => {
  const samplesOf = async (streamId: string) =>
    (
      await query(
        `select to_char(at at time zone 'UTC', 'HH24:MI:SS') as at, viewers
         from stream_viewer_samples where stream_id = $1 order by at`,
        [streamId],
      )
    ).rows;

  it('keeps one sample per 5-second slot, the highest count any call gave', async () => {
    const stream = await newStream(owner.cookie);
    await setLiveWindow(stream.id, '2025-03-01T10:00:00Z', null);
    await recordViewerSamples(
      t.database.db,
      [{ roomName: stream.roomName, viewers: 3 }],
      new Date('2025-03-01T10:00:06.2Z'),
    );
    await recordViewerSamples(
      t.database.db,
      [{ roomName: stream.roomName, viewers: 7 }],
      new Date('2025-03-01T10:00:09.9Z'),
    );
    await recordViewerSamples(
      t.database.db,
      [{ roomName: stream.roomName, viewers: 5 }],
      new Date('2025-03-01T10:00:07Z'),
    );
    await recordViewerSamples(
      t.database.db,
      [{ roomName: stream.roomName, viewers: 2 }],
      new Date('2025-03-01T10:00:10Z'),
    );
    expect(await samplesOf(stream.id)).toEqual([
      { at: '10:00:05', viewers: 7 },
      { at: '10:00:10', viewers: 2 },
    ]);
  });

  it('samples active streams only', async () => {
    const ended = await newStream(owner.cookie);
    await setLiveWindow(ended.id, '2025-03-01T10:00:00Z', '2025-03-01T10:01:00Z');
    const notStarted = await newStream(owner.cookie);
    const written = await recordViewerSamples(t.database.db, [
      { roomName: ended.roomName, viewers: 4 },
      { roomName: notStarted.roomName, viewers: 4 },
    ]);
    expect(written).toBe(0);
    expect(await samplesOf(ended.id)).toEqual([]);
    expect(await samplesOf(notStarted.id)).toEqual([]);
  });

  /** Starts a stream and connects one viewer to the app; resolves once its hub counts them. */
  async function watchLiveStream(app: TestApp['app']) {
    const base = await listenOnLoopback(app);
    const stream = await newStream(owner.cookie);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${stream.roomName}/start`,
      headers: { cookie: owner.cookie },
    });
    expect(started.statusCode).toBe(200);
    const socket = new WebSocket(`${base}/ws?room=${stream.roomName}`);
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as ServerMessage;
        if (message.type === 'viewer_count' && message.count === 1) resolve();
      });
      socket.once('error', reject);
    });
    return { stream, socket };
  }

  it('records the viewers of the rooms this instance has sockets in, at a 5-second boundary', async () => {
    const { stream, socket } = await watchLiveStream(t.app);

    expect(t.app.hub.openRooms()).toContain(stream.roomName);
    expect(await recordViewerSamples(t.database.db, watchedRooms(t.app.hub))).toBe(1);
    const { rows } = await query(
      'select viewers, extract(epoch from at)::float8 as epoch from stream_viewer_samples where stream_id = $1',
      [stream.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].viewers).toBe(1);
    expect(rows[0].epoch % 5).toBe(0);

    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    await expect.poll(() => t.app.hub.openRooms()).not.toContain(stream.roomName);
  });

  it('samples on its own in a running app', async () => {
    const sampling = await buildTestApp({}, { autoEnd: false, database: t.database });
    try {
      const { stream, socket } = await watchLiveStream(sampling.app);
      await expect
        .poll(async () => (await samplesOf(stream.id)).map((sample) => sample.viewers), { timeout: 10_000 })
        .toEqual([1]);
      socket.close();
    } finally {
      await sampling.close();
    }
  });
});
