import { drawIndex, drawOrder, type Giveaway, seedHashOf } from '@streamshop/contract/giveaways.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { listProduct, openCheckout, payWithCard, stockOf, TEST_ADDRESS } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false, giveawaySweepMs: 100 });
});
afterAll(async () => {
  await t.close();
});

type Account = Awaited<ReturnType<typeof signUpFrom>>;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who?: Account, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(who ? { remoteAddress: who.ip } : {}),
    ...(payload ? { payload } : {}),
  });

/** A live room of the seller's with one product (stock 1 unless told) in its lineup. */
async function liveRoom(seller: Account, product: Parameters<typeof listProduct>[2] = {}) {
  const room = (await call('POST', '/api/rooms', seller, { title: 'Giveaway night' })).json()
    .roomName as string;
  await call('POST', `/api/streams/${room}/start`, seller);
  const listed = await listProduct(t, seller.cookie, { stock: 1, ...product });
  await call('POST', `/api/streams/${room}/lineup`, seller, { productId: listed.id });
  return { room, productId: listed.id };
}

async function start(seller: Account, room: string, body: Record<string, unknown>): Promise<Giveaway> {
  const response = await call('POST', `/api/streams/${room}/giveaways`, seller, { durationSec: 30, ...body });
  if (response.statusCode !== 201) throw new Error(`start failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

const enter = (who: Account, id: string) => call('POST', `/api/giveaways/${id}/entries`, who);

/** Ends the giveaway now (as its clock would) and waits for a sweep to draw it. */
async function drawNow(id: string, who?: Account): Promise<Giveaway> {
  await t.database.pool.query('update giveaways set ends_at = now() where id = $1', [id]);
  return eventually(
    'the giveaway drawn',
    async () => (await call('GET', `/api/giveaways/${id}`, who)).json() as Giveaway,
    (giveaway) => giveaway.status === 'drawn',
  );
}

describe('starting a giveaway', () => {
  it('is the seller’s alone, in a live room, of a lineup product with a free unit, one at a time', async () => {
    const seller = await signUpFrom(t.app, '10.61');
    const stranger = await signUpFrom(t.app, '10.61');
    const { room, productId } = await liveRoom(seller);
    const url = `/api/streams/${room}/giveaways`;
    expect((await call('POST', url, undefined, { productId })).statusCode).toBe(401);
    expect((await call('POST', url, stranger, { productId: 'nope' })).statusCode).toBe(403);
    expect((await call('POST', url, seller, { productId, durationSec: 10 })).statusCode).toBe(400);
    expect((await call('POST', url, seller, { productId, audience: 'vips' })).statusCode).toBe(400);
    const other = await listProduct(t, seller.cookie);
    const notInLineup = await call('POST', url, seller, { productId: other.id });
    expect(notInLineup.statusCode).toBe(409);
    expect(notInLineup.json().message).toBe('Add the product to the lineup before giving it away.');

    const giveaway = await start(seller, room, { productId });
    expect(giveaway).toMatchObject({ status: 'running', audience: 'everyone', seed: null, entrants: null });
    expect(giveaway.seedHash).toMatch(/^[0-9a-f]{64}$/);
    const second = await call('POST', url, seller, { productId });
    expect(second.statusCode).toBe(409);
    // Its unit is taken: an auction of the same one-unit product is refused.
    const auction = await call('POST', `/api/streams/${room}/auctions`, seller, {
      productId,
      startingBidCents: 100,
    });
    expect(auction.statusCode).toBe(409);
    expect(auction.json().message).toBe('This product has no unit free to auction.');
    const current = (await call('GET', `/api/streams/${room}/giveaways/current`)).json();
    expect(current.giveaway.id).toBe(giveaway.id);

    expect((await call('POST', `/api/giveaways/${giveaway.id}/cancel`, stranger)).statusCode).toBe(403);
    const cancelled = await call('POST', `/api/giveaways/${giveaway.id}/cancel`, seller);
    expect(cancelled.json().status).toBe('cancelled');
    await call('POST', `/api/streams/${room}/end`, seller);
    const ended = await call('POST', url, seller, { productId });
    expect(ended.json().message).toBe('Giveaways run while the stream is live.');
  });
});

describe('entering', () => {
  it('refuses with the reason: the seller, not a follower, already entered, not a buyer, no address', async () => {
    const seller = await signUpFrom(t.app, '10.62');
    const viewer = await signUpFrom(t.app, '10.62');
    const { room, productId } = await liveRoom(seller, { stock: 3 });
    const forFollowers = await start(seller, room, { productId, audience: 'followers' });
    expect((await enter(seller, forFollowers.id)).json()).toMatchObject({ code: 'SELLER' });
    const refused = await enter(viewer, forFollowers.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'NOT_FOLLOWER',
      message: 'This giveaway is for followers: follow the seller to enter.',
    });
    await call('POST', `/api/sellers/${seller.handle}/follow`, viewer);
    const entered = await enter(viewer, forFollowers.id);
    expect(entered.statusCode).toBe(201);
    expect(entered.json()).toMatchObject({ entered: true, entryCount: 1 });
    expect((await enter(viewer, forFollowers.id)).json().code).toBe('ALREADY_ENTERED');
    expect((await call('POST', `/api/giveaways/${forFollowers.id}/entries`)).statusCode).toBe(401);
    await call('POST', `/api/giveaways/${forFollowers.id}/cancel`, seller);
    expect((await enter(viewer, forFollowers.id)).json().code).toBe('ENDED');

    const forBuyers = await start(seller, room, { productId, audience: 'buyers' });
    expect((await enter(viewer, forBuyers.id)).json().code).toBe('NOT_BUYER');
    const checkout = await openCheckout(t.app, viewer.cookie, productId, { roomName: room });
    await payWithCard(t.app, checkout.json().clientSecret);
    await eventually(
      'the viewer’s order',
      async () => (await call('GET', '/api/orders', viewer)).json().length,
      (n) => n === 1,
    );
    expect((await enter(viewer, forBuyers.id)).statusCode).toBe(201);
    await call('POST', `/api/giveaways/${forBuyers.id}/cancel`, seller);

    const shipped = await liveRoom(seller, { fulfillment: 'ship', shippingCents: 500 });
    const ships = await start(seller, shipped.room, { productId: shipped.productId });
    expect((await enter(viewer, ships.id)).json().code).toBe('ADDRESS_REQUIRED');
    await call('POST', '/api/addresses', viewer, TEST_ADDRESS);
    expect((await enter(viewer, ships.id)).statusCode).toBe(201);
  });
});

describe('the draw', () => {
  it('picks the winner anyone can recompute from the seed, and writes their $0 order once', async () => {
    const seller = await signUpFrom(t.app, '10.63');
    const viewers = await Promise.all([1, 2, 3, 4].map(() => signUpFrom(t.app, '10.63')));
    const { room, productId } = await liveRoom(seller, { title: 'Test pressing' });
    const giveaway = await start(seller, room, { productId });
    for (const viewer of viewers) expect((await enter(viewer, giveaway.id)).statusCode).toBe(201);

    const drawn = await drawNow(giveaway.id);
    expect(drawn.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await seedHashOf(drawn.seed ?? '')).toBe(giveaway.seedHash);
    expect(drawn.entrants).toEqual(drawOrder(viewers.map((v) => v.handle)));
    const index = await drawIndex(drawn.seed ?? '', drawn.entrants ?? []);
    expect(drawn.winner?.handle).toBe(drawn.entrants?.[index]);
    expect(drawn.orderId).toBeNull(); // not to a bystander

    const winner = viewers.find((v) => v.handle === drawn.winner?.handle);
    if (!winner) throw new Error('no winner');
    const seen = (await call('GET', `/api/giveaways/${giveaway.id}`, winner)).json() as Giveaway;
    expect(seen.orderId).toMatch(/^[0-9a-f-]{36}$/);
    const order = (await call('GET', `/api/orders/${seen.orderId}`, winner)).json();
    expect(order).toMatchObject({ amountCents: 0, status: 'paid' });
    expect((await call('GET', `/api/giveaways/${giveaway.id}`, seller)).json().orderId).toBe(seen.orderId);
    expect(await stockOf(t, productId)).toBe(0);
    const orders = await t.database.pool.query(
      'select count(*)::int as n from orders where product_id = $1',
      [productId],
    );
    expect(orders.rows[0].n).toBe(1);
  });

  it('ends with no winner when nobody entered', async () => {
    const seller = await signUpFrom(t.app, '10.64');
    const { room, productId } = await liveRoom(seller);
    const giveaway = await start(seller, room, { productId });
    const drawn = await drawNow(giveaway.id);
    expect(drawn).toMatchObject({ winner: null, entrants: [], entryCount: 0 });
    expect(await stockOf(t, productId)).toBe(1);
  });
});
