import type { ServerMessage } from '@streamshop/contract/live.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../test/eventually.ts';
import { listProduct, payWithCard, signUpMany, stockOf } from '../../test/payments.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';
import { CHECKOUT_RESERVATION_SECONDS, OFFER_RESERVATION_SECONDS } from '../checkout/service.ts';

let t: TestApp;
let base: string;
let seller: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
  base = await listenOnLoopback(t.app);
  seller = await signUp(t.app);
  viewer = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

async function newRoom(start = true): Promise<string> {
  const created = await call('POST', '/api/rooms', seller.cookie, { title: 'Shop room' });
  const room = created.json().roomName;
  if (start) await call('POST', `/api/streams/${room}/start`, seller.cookie);
  return room;
}

async function pinned(room: string, overrides: { priceCents?: number; stock?: number } = {}) {
  const product = await listProduct(t, seller.cookie, { priceCents: 5000, stock: 5, ...overrides });
  expect(
    (await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: product.id })).statusCode,
  ).toBe(200);
  expect(
    (await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: product.id })).statusCode,
  ).toBe(200);
  return product;
}

function listen(room: string, cookie?: string) {
  const socket = new WebSocket(`${base}/ws?room=${room}`, { headers: cookie ? { cookie } : {} });
  const received: ServerMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString())));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  async function next<T extends ServerMessage['type']>(
    type: T,
    match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
  ) {
    const wanted = (m: ServerMessage) => m.type === type && match(m as Extract<ServerMessage, { type: T }>);
    // On time-out the error shows every message received (eventually's last answer).
    const all = await eventually(
      `a ${type} message`,
      () => received,
      (ms) => ms.some(wanted),
      5000,
    );
    return all.find(wanted) as Extract<ServerMessage, { type: T }>;
  }
  return { socket, received, opened, next };
}

async function checkout(cookie: string, productId: string, body?: object) {
  const response = await call('POST', `/api/checkout/${productId}`, cookie, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { clientSecret: string; amountCents: number };
}

describe('lineup and pins', () => {
  it('lets the seller line up and pin their own products, and shows them to everyone', async () => {
    const room = await newRoom();
    const watcher = listen(room);
    await watcher.opened;
    const product = await pinned(room);
    const shop = (await call('GET', `/api/streams/${room}/shop`)).json();
    expect(shop.lineup.map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect(shop.pinned).toEqual([product.id]);
    expect(shop.offer).toBeNull();
    const event = await watcher.next('shop', (m) => m.shop.pinned.includes(product.id));
    expect(event.shop.lineup[0]).toMatchObject({ id: product.id, priceCents: 5000, stock: 5 });
    watcher.socket.close();
  });

  it('gives a signed-out viewer the whole lineup, pinned or not, and the stock of an unpinned one as it sells', async () => {
    const room = await newRoom();
    const first = await pinned(room);
    const [second, third] = [
      await listProduct(t, seller.cookie, { priceCents: 2500, stock: 2 }),
      await listProduct(t, seller.cookie, { priceCents: 900, stock: 4 }),
    ];
    for (const product of [second, third]) {
      const added = await call('POST', `/api/streams/${room}/lineup`, seller.cookie, {
        productId: product.id,
      });
      expect(added.statusCode).toBe(200);
    }
    const watcher = listen(room);
    await watcher.opened;

    const shop = (await call('GET', `/api/streams/${room}/shop`)).json();
    expect(shop.pinned).toEqual([first.id]);
    expect(shop.lineup.map((p: { id: string }) => p.id)).toEqual([first.id, second.id, third.id]);
    expect(shop.lineup[1]).toMatchObject({ priceCents: 2500, stock: 2 });

    const [buyer] = await signUpMany(t, 1);
    if (!buyer) throw new Error('no buyer');
    const session = await checkout(buyer.cookie, second.id, { roomName: room });
    await payWithCard(t.app, session.clientSecret);
    const sold = await watcher.next('stock', (m) => m.productId === second.id);
    expect(sold.stock).toBe(1);
    expect((await call('GET', `/api/streams/${room}/shop`)).json().lineup[1]).toMatchObject({
      id: second.id,
      stock: 1,
    });
    watcher.socket.close();
  });

  it('refuses strangers (403), signed-out visitors (401) and another seller’s product (404)', async () => {
    const room = await newRoom();
    const product = await listProduct(t, seller.cookie);
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, viewer.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, undefined, { productId: product.id })).statusCode,
    ).toBe(401);
    const foreign = await listProduct(t, viewer.cookie);
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: foreign.id }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: 'nope' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/streams/no-such-room-7/pins', seller.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(404);
    await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: product.id });
    expect(
      (await call('POST', `/api/streams/${room}/pins`, viewer.cookie, { productId: product.id })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/api/streams/${room}/pins/${product.id}`, viewer.cookie)).statusCode).toBe(
      403,
    );
    expect((await call('POST', `/api/streams/${room}/offers/end`, viewer.cookie)).statusCode).toBe(403);
  });

  it('lets a moderator the seller appointed pin', async () => {
    const room = await newRoom();
    const moderator = await signUp(t.app);
    await t.database.pool.query('insert into seller_moderators (owner_id, user_id) values ($1, $2)', [
      seller.user.id,
      moderator.user.id,
    ]);
    const product = await listProduct(t, seller.cookie);
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, moderator.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `/api/streams/${room}/pins`, moderator.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(200);
  });

  it('pins only lined-up products, at most 3 at once', async () => {
    const room = await newRoom();
    const loose = await listProduct(t, seller.cookie);
    const notLined = await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: loose.id });
    expect(notLined.statusCode).toBe(400);
    const three = [await pinned(room), await pinned(room), await pinned(room)];
    const fourth = await listProduct(t, seller.cookie);
    await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: fourth.id });
    const refused = await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: fourth.id });
    expect(refused.statusCode).toBe(409);
    const unpinned = await call('DELETE', `/api/streams/${room}/pins/${three[0]?.id}`, seller.cookie);
    expect(unpinned.json().pinned).toHaveLength(2);
    expect(
      (await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: fourth.id })).statusCode,
    ).toBe(200);
  });
});

describe('offers belong to the seller', () => {
  it('a moderator may line up and pin, but not start or end an offer (even with a bad body), and nobody buys at their own offer', async () => {
    const room = await newRoom();
    const moderator = await signUp(t.app);
    await t.database.pool.query('insert into seller_moderators (owner_id, user_id) values ($1, $2)', [
      seller.user.id,
      moderator.user.id,
    ]);
    const product = await listProduct(t, seller.cookie, { priceCents: 5000, stock: 5 });
    expect(
      (await call('POST', `/api/streams/${room}/lineup`, moderator.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `/api/streams/${room}/pins`, moderator.cookie, { productId: product.id }))
        .statusCode,
    ).toBe(200);
    const offer = {
      productId: product.id,
      priceCents: 1,
      quantity: 5,
      durationSec: 60,
      confirmBelowFloor: true,
    };
    const byModerator = await call('POST', `/api/streams/${room}/offers`, moderator.cookie, offer);
    expect(byModerator.statusCode).toBe(403);
    expect(byModerator.json().message).toMatch(/Only the seller can start or end offers/);
    expect(
      (await call('POST', `/api/streams/${room}/offers`, moderator.cookie, { bad: true })).statusCode,
    ).toBe(403);
    expect((await call('GET', `/api/streams/${room}/shop`)).json().offer).toBeNull();
    // The seller's offer: the moderator cannot end it either, and the seller who started it cannot buy at it.
    expect((await call('POST', `/api/streams/${room}/offers`, seller.cookie, offer)).statusCode).toBe(200);
    const own = await call('POST', `/api/checkout/${product.id}`, seller.cookie, { roomName: room });
    expect(own.statusCode).toBe(400);
    const endByModerator = await call('POST', `/api/streams/${room}/offers/end`, moderator.cookie);
    expect(endByModerator.statusCode).toBe(403);
    expect(endByModerator.json().message).toMatch(/Only the seller can start or end offers/);
    expect((await call('GET', `/api/streams/${room}/shop`)).json().offer?.priceCents).toBe(1);
    // Anyone else gets the offer price; the moderator still unpins (which ends the offer) as before.
    const buyer = await signUp(t.app);
    expect((await checkout(buyer.cookie, product.id, { roomName: room })).amountCents).toBe(1);
    expect(
      (await call('DELETE', `/api/streams/${room}/pins/${product.id}`, moderator.cookie)).statusCode,
    ).toBe(200);
    expect((await call('GET', `/api/streams/${room}/shop`)).json().offer).toBeNull();
    expect((await call('POST', `/api/streams/${room}/offers/end`, seller.cookie)).statusCode).toBe(200);
  });

  it(`refuses an offer below ${10} % of the price unless the seller confirms it`, async () => {
    const room = await newRoom();
    const product = await pinned(room, { priceCents: 5000 });
    const offer = { productId: product.id, quantity: 1, durationSec: 60 };
    for (const priceCents of [250, 499]) {
      // 5 %, and a cent under the floor.
      const low = await call('POST', `/api/streams/${room}/offers`, seller.cookie, { ...offer, priceCents });
      expect(low.statusCode).toBe(400);
      expect(low.json().fields.priceCents).toMatch(/below \$5\.00/);
    }
    expect((await call('GET', `/api/streams/${room}/shop`)).json().offer).toBeNull();
    const atFloor = await call('POST', `/api/streams/${room}/offers`, seller.cookie, {
      ...offer,
      priceCents: 500,
    });
    expect(atFloor.statusCode).toBe(200);
    await call('POST', `/api/streams/${room}/offers/end`, seller.cookie);
    const confirmed = await call('POST', `/api/streams/${room}/offers`, seller.cookie, {
      ...offer,
      priceCents: 250,
      confirmBelowFloor: true,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().offer.priceCents).toBe(250);
  });
});

describe('live offers', () => {
  it('checks the window, the price and the units, and runs one at a time', async () => {
    const notLive = await newRoom(false);
    const early = await pinned(notLive);
    const offer = (room: string, body: object) =>
      call('POST', `/api/streams/${room}/offers`, seller.cookie, body);
    const good = { priceCents: 3000, quantity: 2, durationSec: 60 };
    expect((await offer(notLive, { productId: early.id, ...good })).statusCode).toBe(409);

    const room = await newRoom();
    const product = await pinned(room);
    for (const bad of [
      { priceCents: 5000 },
      { quantity: 6 },
      { durationSec: 9 },
      { durationSec: 301 },
      { priceCents: 0 },
    ]) {
      const response = await offer(room, { productId: product.id, ...good, ...bad });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const started = await offer(room, { productId: product.id, ...good });
    expect(started.statusCode).toBe(200);
    const running = started.json().offer;
    expect(running).toMatchObject({ productId: product.id, priceCents: 3000, quantity: 2, remaining: 2 });
    expect(Date.parse(running.endsAt) - Date.parse(started.json().serverNow)).toBeGreaterThan(58_000);
    expect((await offer(room, { productId: product.id, ...good })).statusCode).toBe(409);
    const ended = await call('POST', `/api/streams/${room}/offers/end`, seller.cookie);
    expect(ended.json().offer).toBeNull();
  });

  it('charges the offer price to sessions opened in the window, while units last, and only in the room', async () => {
    const room = await newRoom();
    const product = await pinned(room);
    await call('POST', `/api/streams/${room}/offers`, seller.cookie, {
      productId: product.id,
      priceCents: 2500,
      quantity: 1,
      durationSec: 60,
    });
    const [a, b, c] = await signUpMany(t, 3);
    if (!a || !b || !c) throw new Error('no buyers');
    expect((await checkout(c.cookie, product.id)).amountCents).toBe(5000); // not from the room
    const inWindow = await checkout(a.cookie, product.id, { roomName: room });
    expect(inWindow.amountCents).toBe(2500);
    // The one offer unit is held by A: B pays the regular price.
    const regular = await checkout(b.cookie, product.id, { roomName: room });
    expect(regular.amountCents).toBe(5000);
    // A hold at the offer price is short, so the offer's few units are not kept from the room for long.
    const holdSeconds = async (clientSecret: string) =>
      Number(
        (
          await t.database.pool.query(
            'select extract(epoch from reserved_until - now()) as s from payments where client_secret = $1',
            [clientSecret],
          )
        ).rows[0].s,
      );
    expect(await holdSeconds(inWindow.clientSecret)).toBeGreaterThan(OFFER_RESERVATION_SECONDS - 10);
    expect(await holdSeconds(inWindow.clientSecret)).toBeLessThanOrEqual(OFFER_RESERVATION_SECONDS);
    expect(await holdSeconds(regular.clientSecret)).toBeGreaterThan(CHECKOUT_RESERVATION_SECONDS - 10);

    // The window closes before A pays: A still pays the price their session was opened at.
    await t.database.pool.query(
      `update stream_offers set ends_at = now() - interval '1 second' where product_id = $1`,
      [product.id],
    );
    expect((await payWithCard(t.app, inWindow.clientSecret)).json().status).toBe('succeeded');
    const order = await t.database.pool.query(
      'select amount_cents, during_live from orders where product_id = $1 and buyer_id = (select user_id from payments where client_secret = $2)',
      [product.id, inWindow.clientSecret],
    );
    expect(order.rows[0]).toEqual({ amount_cents: 2500, during_live: true });
    const [late] = await signUpMany(t, 1);
    if (!late) throw new Error('no buyer');
    expect((await checkout(late.cookie, product.id, { roomName: room })).amountCents).toBe(5000);
  });

  it('when the price changes before a buyer’s order exists, keeps a session they paid and replaces one they did not', async () => {
    const room = await newRoom();
    const product = await pinned(room, { stock: 5 });
    await call('POST', `/api/streams/${room}/offers`, seller.cookie, {
      productId: product.id,
      priceCents: 2500,
      quantity: 2,
      durationSec: 60,
    });
    const paid = await signUp(t.app);
    const unpaid = await signUp(t.app);
    const first = await checkout(paid.cookie, product.id, { roomName: room });
    const second = await checkout(unpaid.cookie, product.id, { roomName: room });
    expect([first.amountCents, second.amountCents]).toEqual([2500, 2500]);
    // The first buyer's card went through at the provider; the event that makes the order is on its way.
    await t.database.pool.query(
      "update local_payment_intents set status = 'succeeded' where client_secret = $1",
      [first.clientSecret],
    );
    expect((await call('POST', `/api/streams/${room}/offers/end`, seller.cookie)).statusCode).toBe(200);

    // Reopened after the offer: the paid session is theirs, at its price, and no second one to pay.
    const again = await checkout(paid.cookie, product.id, { roomName: room });
    expect(again).toMatchObject({ clientSecret: first.clientSecret, amountCents: 2500 });
    const paymentsOf = async (buyerId: string) =>
      (
        await t.database.pool.query(
          'select status, amount_cents from payments where user_id = $1 and product_id = $2 order by created_at',
          [buyerId, product.id],
        )
      ).rows;
    expect(await paymentsOf(paid.user.id)).toEqual([{ status: 'pending', amount_cents: 2500 }]);

    // The unpaid session is cancelled at the provider first, then replaced at the regular price.
    const replaced = await checkout(unpaid.cookie, product.id, { roomName: room });
    expect(replaced.amountCents).toBe(5000);
    expect(replaced.clientSecret).not.toBe(second.clientSecret);
    expect(await paymentsOf(unpaid.user.id)).toEqual([
      { status: 'expired', amount_cents: 2500 },
      { status: 'pending', amount_cents: 5000 },
    ]);
    const intent = await t.database.pool.query(
      'select status from local_payment_intents where client_secret = $1',
      [second.clientSecret],
    );
    expect(intent.rows[0].status).toBe('canceled');
    expect((await payWithCard(t.app, second.clientSecret)).statusCode).not.toBe(200);
  });

  it('refuses a room of another seller, and an unknown room', async () => {
    const product = await listProduct(t, seller.cookie);
    const otherRoom = (await call('POST', '/api/rooms', viewer.cookie, { title: 'Other' })).json().roomName;
    const [buyer] = await signUpMany(t, 1);
    if (!buyer) throw new Error('no buyer');
    const foreign = await call('POST', `/api/checkout/${product.id}`, buyer.cookie, { roomName: otherRoom });
    expect(foreign.statusCode).toBe(400);
    const unknown = await call('POST', `/api/checkout/${product.id}`, buyer.cookie, {
      roomName: 'no-such-room-3',
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await call('POST', `/api/checkout/${product.id}`, buyer.cookie, { roomName: 'Bad Name!' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('purchase moments', () => {
  it('posts the purchase in the room’s chat and pushes the stock left to every viewer', async () => {
    const room = await newRoom();
    const product = await pinned(room, { stock: 3 });
    const watcher = listen(room);
    await watcher.opened;
    const [named, shy] = await signUpMany(t, 2);
    if (!named || !shy) throw new Error('no buyers');
    const first = await checkout(named.cookie, product.id, { roomName: room });
    await payWithCard(t.app, first.clientSecret);
    const line = await watcher.next('chat_message', (m) => m.kind === 'purchase');
    expect(line.message).toMatch(/^@\S+ just bought Blue Note first pressing$/);
    const firstStock = await watcher.next('stock', (m) => m.productId === product.id);
    expect(firstStock.stock).toBe(2);

    // The buyer first opens the sheet showing their name, then unticks it: the latest choice counts.
    await checkout(shy.cookie, product.id, { roomName: room });
    const second = await checkout(shy.cookie, product.id, { roomName: room, showBuyer: false });
    await payWithCard(t.app, second.clientSecret);
    await watcher.next('chat_message', (m) => m.message === 'Someone just bought Blue Note first pressing');
    const secondStock = await watcher.next('stock', (m) => m.stock === 1);
    // Newer stock carries a higher version, so a client can drop an event that arrives late.
    expect(secondStock.version).toBeGreaterThan(firstStock.version);
    expect(await stockOf(t, product.id)).toBe(1);
    // The purchase lines are part of the room's history and of the replay's chat.
    const replay = (await call('GET', `/api/streams/${room}/chat-replay`)).json();
    expect(replay.messages.filter((m: { kind?: string }) => m.kind === 'purchase')).toHaveLength(2);
    watcher.socket.close();
  });

  it('refuses a viewer who sends shop events of their own, and passes nothing on', async () => {
    const room = await newRoom();
    const product = await pinned(room);
    const watcher = listen(room);
    const spoofer = listen(room, viewer.cookie);
    await Promise.all([watcher.opened, spoofer.opened]);
    await spoofer.next('chat_history');
    for (const spoof of [
      { type: 'stock', productId: product.id, stock: 0 },
      { type: 'shop', shop: { lineup: [], pinned: [], offer: null, serverNow: new Date().toISOString() } },
      { type: 'pin', productId: product.id },
    ]) {
      spoofer.socket.send(JSON.stringify(spoof));
      await spoofer.next('error', () => true);
      spoofer.received.length = 0;
    }
    // The spoofer's frames are handled in order: once the watcher has this line, any broadcast the
    // spoofs caused would have arrived before it.
    spoofer.socket.send(JSON.stringify({ type: 'chat_message', message: 'that was all' }));
    await watcher.next('chat_message', (m) => m.message === 'that was all');
    expect(watcher.received.filter((m) => m.type === 'stock' || m.type === 'shop')).toEqual([]);
    expect((await call('GET', `/api/streams/${room}/shop`)).json().pinned).toEqual([product.id]);
    watcher.socket.close();
    spoofer.socket.close();
  });
});

describe('shoppable replays', () => {
  it('gives each pin as a chapter with its moment, and sells from the replay at the regular price', async () => {
    const room = await newRoom();
    await t.database.pool.query(
      `update streams set started_at = now() - interval '60 seconds' where room_name = $1`,
      [room],
    );
    const first = await pinned(room);
    await call('DELETE', `/api/streams/${room}/pins/${first.id}`, seller.cookie);
    const second = await pinned(room);
    await call('POST', `/api/streams/${room}/end`, seller.cookie);

    const { chapters } = (await call('GET', `/api/streams/${room}/chapters`)).json();
    expect(chapters.map((c: { product: { id: string } }) => c.product.id)).toEqual([first.id, second.id]);
    expect(chapters[0].startSec).toBeGreaterThanOrEqual(59);
    expect(chapters[0].endSec).toBeGreaterThanOrEqual(chapters[0].startSec);
    expect(chapters[1].endSec).not.toBeNull(); // closed by the end of the stream

    const [buyer] = await signUpMany(t, 1);
    if (!buyer) throw new Error('no buyer');
    const session = await checkout(buyer.cookie, second.id, { roomName: room });
    expect(session.amountCents).toBe(5000);
    await payWithCard(t.app, session.clientSecret);
    const order = await t.database.pool.query(
      'select during_live, stream_id is not null as from_stream from orders where product_id = $1',
      [second.id],
    );
    expect(order.rows[0]).toEqual({ during_live: false, from_stream: true });
    expect(
      (await call('POST', `/api/streams/${room}/pins`, seller.cookie, { productId: first.id })).statusCode,
    ).toBe(409);
  });
});
