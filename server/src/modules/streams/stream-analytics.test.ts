import { PRO_REQUIRED_MESSAGE } from '@streamshop/contract/stream-analytics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct } from '../../test/payments.ts';
import { streamFixtures } from '../../test/stream-fixtures.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

/** Pro's advanced analytics of a stream: minute by minute, per pinned product, conversion; who may read them. */

let t: TestApp;
type User = Awaited<ReturnType<typeof signUp>>;
let pro: User;
let free: User;
let buyer: User;
let secondBuyer: User;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, viewerSampling: false });
  pro = await signUp(t.app);
  free = await signUp(t.app);
  buyer = await signUp(t.app);
  secondBuyer = await signUp(t.app);
  await fixtures.query(`update users set plan = 'pro' where id = $1`, [pro.user.id]);
});
afterAll(async () => {
  await t.close();
});

const fixtures = streamFixtures(() => t);
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const analyticsOf = (roomName: string, user?: User) =>
  get(`/api/streams/${roomName}/analytics`, user?.cookie);

const newProduct = async (seller: User, title: string) => (await listProduct(t, seller.cookie, { title })).id;

describe('GET /api/streams/:name/analytics', () => {
  it('gives a Pro seller viewers and chat per minute, sales per pinned product and conversion', async () => {
    const stream = await fixtures.newStream(pro.cookie, 'Analytics show');
    const other = await fixtures.newStream(pro.cookie, 'Another show');
    // Live for 3 minutes and 20 seconds: minutes 0, 1, 2 and 3.
    await fixtures.setLiveWindow(stream.id, '2025-03-01T10:00:00Z', '2025-03-01T10:03:20Z');
    await fixtures.addSamples(stream.id, [
      ['2025-03-01T10:00:05Z', 2],
      ['2025-03-01T10:00:55Z', 4],
      ['2025-03-01T10:02:00Z', 9],
      ['2025-03-01T10:02:30Z', 7],
    ]);
    await fixtures.addSamples(other.id, [['2025-03-01T10:01:00Z', 50]]);
    await fixtures.addChat(stream.id, 'user', 3, '2025-03-01T10:00:30Z');
    await fixtures.addChat(stream.id, 'user', 2, '2025-03-01T10:03:10Z');
    await fixtures.addChat(stream.id, 'purchase', 4, '2025-03-01T10:01:10Z');
    // Replay chat after the end is not part of any live minute.
    await fixtures.addChat(stream.id, 'user', 6, '2025-03-01T11:00:00Z');

    const record = await newProduct(pro, 'Blue Note pressing');
    const tape = await newProduct(pro, 'Cassette deck');
    const unpinned = await newProduct(pro, 'Never pinned');
    await fixtures.addPin(stream.id, record, '2025-03-01T10:00:10Z', '2025-03-01T10:01:10Z');
    await fixtures.addPin(stream.id, record, '2025-03-01T10:02:00Z', '2025-03-01T10:02:30Z');
    // Still pinned when the stream ended: counted to the end.
    await fixtures.addPin(stream.id, tape, '2025-03-01T10:03:00Z', null);
    const sale = (who: User, productId: string) => ({
      streamId: stream.id,
      buyerId: who.user.id,
      sellerId: pro.user.id,
      productId,
    });
    await fixtures.addOrder(sale(buyer, record), 2500, true);
    await fixtures.addOrder(sale(secondBuyer, record), 2000, false);
    await fixtures.addOrder(sale(buyer, record), 9999, true, 'refunded');
    await fixtures.addOrder(sale(buyer, unpinned), 1200, true);
    await fixtures.addViews(stream.id, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);

    const response = await analyticsOf(stream.roomName, pro);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      minutes: [
        { minute: 0, peakViewers: 4, chatMessages: 3 },
        { minute: 1, peakViewers: 0, chatMessages: 0 },
        { minute: 2, peakViewers: 9, chatMessages: 0 },
        { minute: 3, peakViewers: 0, chatMessages: 2 },
      ],
      products: [
        {
          productId: record,
          title: 'Blue Note pressing',
          pinnedSeconds: 90,
          purchases: 2,
          revenueCents: 4500,
        },
        { productId: tape, title: 'Cassette deck', pinnedSeconds: 20, purchases: 0, revenueCents: 0 },
      ],
      uniqueViewers: 8,
      buyers: 2,
      conversion: 0.25,
    });
  });

  it('has no minutes before the stream starts, and no conversion before anyone watched', async () => {
    const stream = await fixtures.newStream(pro.cookie, 'Not yet');
    const response = await analyticsOf(stream.roomName, pro);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      minutes: [],
      products: [],
      uniqueViewers: 0,
      buyers: 0,
      conversion: null,
    });
  });

  it('counts a live stream up to now', async () => {
    const stream = await fixtures.newStream(pro.cookie, 'Live now');
    const startedAt = new Date(Date.now() - 125_000).toISOString();
    await fixtures.setLiveWindow(stream.id, startedAt, null);
    const { minutes } = (await analyticsOf(stream.roomName, pro)).json();
    expect(minutes.map((m: { minute: number }) => m.minute)).toEqual([0, 1, 2]);
  });

  it('lists at most the last 180 minutes of a very long stream', async () => {
    const stream = await fixtures.newStream(pro.cookie, 'Marathon');
    await fixtures.setLiveWindow(stream.id, '2025-03-01T00:00:00Z', '2025-03-01T05:00:30Z');
    const { minutes } = (await analyticsOf(stream.roomName, pro)).json();
    expect(minutes).toHaveLength(180);
    expect(minutes[0].minute).toBe(121);
    expect(minutes.at(-1).minute).toBe(300);
  });

  it('answers 403 PRO_REQUIRED to the owner on the free plan, who keeps the totals', async () => {
    const stream = await fixtures.newStream(free.cookie, 'Free show');
    const response = await analyticsOf(stream.roomName, free);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'PRO_REQUIRED', message: PRO_REQUIRED_MESSAGE });
    expect((await get(`/api/streams/${stream.roomName}/stats`, free.cookie)).statusCode).toBe(200);
  });

  it('answers 401 signed out, 404 for someone else’s stream (Pro or not) and 400 for a malformed name', async () => {
    const stream = await fixtures.newStream(pro.cookie, 'Private figures');
    expect((await analyticsOf(stream.roomName)).statusCode).toBe(401);
    expect((await analyticsOf(stream.roomName, free)).statusCode).toBe(404);
    const otherPro = await signUp(t.app);
    await fixtures.query(`update users set plan = 'pro' where id = $1`, [otherPro.user.id]);
    expect((await analyticsOf(stream.roomName, otherPro)).statusCode).toBe(404);
    expect((await analyticsOf('no-such-room-123', pro)).statusCode).toBe(404);
    const malformed = await analyticsOf('NOT%20A%20ROOM', pro);
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json().fields)).toEqual(['name']);
  });
});
