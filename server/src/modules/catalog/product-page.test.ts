import type { ProductPage } from '@streamshop/contract/catalog.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
  seller = await signUp(t.app, { businessName: 'Groove Vault' });
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

const page = async (id: string) => {
  const response = await call('GET', `/api/products/${id}/page`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ProductPage;
};

/** A room of the seller's with the product in its lineup, started unless told otherwise. */
async function roomWith(productId: string, title: string, { start = true } = {}): Promise<string> {
  const created = await call('POST', '/api/rooms', seller.cookie, { title });
  expect(created.statusCode, created.body).toBe(201);
  const room = created.json().roomName as string;
  if (start) expect((await call('POST', `/api/streams/${room}/start`, seller.cookie)).statusCode).toBe(200);
  const lined = await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId });
  expect(lined.statusCode, lined.body).toBe(200);
  return room;
}

async function end(room: string, { replay }: { replay: boolean }) {
  expect((await call('POST', `/api/streams/${room}/end`, seller.cookie)).statusCode).toBe(200);
  // The recording's replay, as the replay builder leaves it once it is joined.
  if (replay) {
    await t.database.pool.query(
      `update streams set vod_url = '/media/replays/' || id || '/index.m3u8', replay_state = 'ready' where room_name = $1`,
      [room],
    );
  }
}

describe('GET /api/products/:id/page', () => {
  it('answers anyone, signed out too, with the product, its seller and no shows yet', async () => {
    const product = await listProduct(t, seller.cookie, {
      stock: 3,
      fulfillment: 'ship',
      shippingCents: 450,
    });
    const body = await page(product.id);
    expect(body.product).toMatchObject({
      id: product.id,
      stock: 3,
      fulfillment: 'ship',
      shippingCents: 450,
      description: 'Plays clean.',
      seller: { handle: seller.handle },
    });
    expect(body.seller).toEqual({
      handle: seller.handle,
      businessName: 'Groove Vault',
      avatarUrl: null,
      liveRoomName: null,
    });
    expect(body.shows).toEqual([]);
  });

  it('names the room the seller is live in now, and none once the stream ended', async () => {
    const product = await listProduct(t, seller.cookie);
    const other = await listProduct(t, seller.cookie, { title: 'Another record' });
    // The seller is live with a show that does not have this product: still their live room.
    const room = await roomWith(other.id, 'Tonight');
    expect((await page(product.id)).seller.liveRoomName).toBe(room);
    await end(room, { replay: false });
    expect((await page(product.id)).seller.liveRoomName).toBeNull();
  });

  it('lists the shows it is lined up in: live first, then replays, newest first; none without anything to watch', async () => {
    const product = await listProduct(t, seller.cookie, { title: 'Lined up' });
    const olderReplay = await roomWith(product.id, 'First show');
    await end(olderReplay, { replay: true });
    const newerReplay = await roomWith(product.id, 'Second show');
    await end(newerReplay, { replay: true });
    const noRecording = await roomWith(product.id, 'Not recorded');
    await end(noRecording, { replay: false });
    await roomWith(product.id, 'Not started', { start: false });
    const live = await roomWith(product.id, 'On now');

    const { shows } = await page(product.id);
    expect(shows.map((show) => [show.roomName, show.title, show.live])).toEqual([
      [live, 'On now', true],
      [newerReplay, 'Second show', false],
      [olderReplay, 'First show', false],
    ]);
    expect(shows[0]?.startedAt).toEqual(expect.any(String));
    await end(live, { replay: false });
  });

  it('keeps a replay that pinned the product after it left the lineup (its chapter stays)', async () => {
    const product = await listProduct(t, seller.cookie, { title: 'Pinned once' });
    const room = await roomWith(product.id, 'Pinned show');
    expect(
      (await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: product.id })).statusCode,
    ).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/streams/${room}/lineup/${product.id}`,
      headers: { cookie: seller.cookie },
    });
    expect(removed.statusCode).toBe(200);
    await end(room, { replay: true });
    expect((await page(product.id)).shows.map((show) => show.roomName)).toEqual([room]);
  });

  it('does not list another product’s shows', async () => {
    const product = await listProduct(t, seller.cookie, { title: 'Alone' });
    const other = await listProduct(t, seller.cookie, { title: 'Shown' });
    const room = await roomWith(other.id, 'Other show');
    expect((await page(product.id)).shows).toEqual([]);
    await end(room, { replay: false });
  });

  it('is 404 for an unknown id and for a product taken out of the catalogue', async () => {
    const unknown = await call('GET', '/api/products/00000000-0000-4000-8000-000000000000/page');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Product not found');
    const product = await listProduct(t, seller.cookie, { title: 'Retired' });
    await t.database.pool.query('update products set unlisted_at = now() where id = $1', [product.id]);
    expect((await call('GET', `/api/products/${product.id}/page`)).statusCode).toBe(404);
  });

  it('is 400 for a malformed id, naming the field', async () => {
    const response = await call('GET', '/api/products/not-a-uuid/page');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ id: 'id must be a product id' });
  });

  it('leaves GET /api/products/:id as it was: the product itself, for anyone', async () => {
    const product = await listProduct(t, seller.cookie, { title: 'Plain read' });
    const response = await call('GET', `/api/products/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: product.id, title: 'Plain read' });
    expect(response.json()).not.toHaveProperty('shows');
  });
});
