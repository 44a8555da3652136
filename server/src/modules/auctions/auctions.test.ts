import { randomUUID } from 'node:crypto';
import type { Auction } from '@streamshop/contract/auctions.ts';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bid, liveRoomWith, saveCard, startAuction } from '../../test/auctions.ts';
import { eventually } from '../../test/eventually.ts';
import { listProduct, openCheckout, TEST_ADDRESS } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';

/** Issue 28: live auctions through the HTTP API, every rule and every refusal (PGlite and PostgreSQL). */

let t: TestApp;
type Account = Awaited<ReturnType<typeof signUpFrom>>;
let seller: Account;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, auctionSweepMs: 200 });
  seller = await signUpFrom(t.app, '10.29');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const view = async (id: string): Promise<Auction> => (await call('GET', `/api/auctions/${id}`)).json();

/** A buyer who can bid: a saved card (and an address for shipped products). */
async function bidder(card: string = TEST_CARDS.success): Promise<Account> {
  const account = await signUpFrom(t.app, '10.29');
  await saveCard(t.app, account.cookie, card);
  return account;
}

async function auction(
  body: Record<string, unknown> = {},
  product: Parameters<typeof liveRoomWith>[2] = {},
): Promise<{ room: string; productId: string; auction: Auction }> {
  const { room, productId } = await liveRoomWith(t, seller.cookie, product);
  const started = await startAuction(t.app, seller.cookie, room, {
    productId,
    startingBidCents: 1000,
    durationSec: 60,
    ...body,
  });
  return { room, productId, auction: started };
}

/** Waits until the auction is over and its charge settled (paid or declined), by its own clock. */
const settled = (id: string) =>
  eventually(
    'the auction settled',
    () => view(id),
    (a) => a.status !== 'running' && a.result?.payment !== 'pending',
    15_000,
  );

describe('starting an auction', () => {
  it('starts one on a lineup product of a live room, with the defaults and the server’s clock', async () => {
    const { room, productId, auction: started } = await auction({ durationSec: undefined });
    expect(started).toMatchObject({
      roomName: room,
      product: { id: productId },
      status: 'running',
      startingBidCents: 1000,
      currentBidCents: null,
      minNextBidCents: 1000,
      leader: null,
      suddenDeath: false,
      extendSec: 10,
      bidCount: 0,
      bids: [],
      result: null,
    });
    expect(Date.parse(started.endsAt) - Date.parse(started.serverNow)).toBeGreaterThan(19_000);
    expect(Date.parse(started.endsAt) - Date.parse(started.serverNow)).toBeLessThanOrEqual(20_000);
    const current = (await call('GET', `/api/streams/${room}/auctions/current`)).json();
    expect(current.auction.id).toBe(started.id);
  });

  it('answers 401, 404, 403 (another account, a moderator) before the body, then 400 with the field', async () => {
    const { room, productId } = await liveRoomWith(t, seller.cookie);
    const body = { productId, startingBidCents: 1000 };
    expect((await call('POST', `/api/streams/${room}/auctions`, undefined, {})).statusCode).toBe(401);
    expect((await call('POST', '/api/streams/no-such-room/auctions', seller.cookie, body)).statusCode).toBe(
      404,
    );
    const other = await signUpFrom(t.app, '10.29');
    expect((await call('POST', `/api/streams/${room}/auctions`, other.cookie, {})).statusCode).toBe(403);
    const moderator = await signUpFrom(t.app, '10.29');
    const appointed = await call('POST', '/api/moderators', seller.cookie, { handle: moderator.handle });
    expect(appointed.statusCode).toBe(201);
    expect((await call('POST', `/api/streams/${room}/auctions`, moderator.cookie, body)).statusCode).toBe(
      403,
    );
    const bad = await call('POST', `/api/streams/${room}/auctions`, seller.cookie, {
      ...body,
      durationSec: 301,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('durationSec');
  });

  it('answers 409 when the room is not live, the product is not lined up, or another auction runs', async () => {
    const created = await call('POST', '/api/rooms', seller.cookie, { title: 'Not yet' });
    const { productId } = await liveRoomWith(t, seller.cookie);
    const notLive = await call('POST', `/api/streams/${created.json().roomName}/auctions`, seller.cookie, {
      productId,
      startingBidCents: 500,
    });
    expect(notLive.statusCode).toBe(409);
    expect(notLive.json().message).toBe('Auctions run while the stream is live.');

    const { room, productId: lined } = await auction();
    const second = await call('POST', `/api/streams/${room}/auctions`, seller.cookie, {
      productId: lined,
      startingBidCents: 500,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Another auction is running in this room: wait for it to end.');
    const notLined = await call('POST', `/api/streams/${room}/auctions`, seller.cookie, {
      productId,
      startingBidCents: 500,
    });
    expect(notLined.statusCode).toBe(409);
    expect(notLined.json().message).toBe('Add the product to the lineup before auctioning it.');
  });

  it('reserves the unit: a checkout cannot hold it, and an auction cannot start on a held one', async () => {
    const { productId } = await auction();
    const buyer = await signUpFrom(t.app, '10.29');
    expect((await openCheckout(t.app, buyer.cookie, productId)).statusCode).toBe(409);

    const { room, productId: held } = await liveRoomWith(t, seller.cookie);
    expect((await openCheckout(t.app, buyer.cookie, held)).statusCode).toBe(200);
    const refused = await call('POST', `/api/streams/${room}/auctions`, seller.cookie, {
      productId: held,
      startingBidCents: 500,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This product has no unit free to auction.');
  });
});

describe('bidding', () => {
  it('answers 401 signed out, 404 unknown, 403 for the seller, 402 without a card, 400 with the field', async () => {
    const { auction: a } = await auction();
    expect((await call('POST', `/api/auctions/${a.id}/bids`, undefined, {})).statusCode).toBe(401);
    const noCard = await signUpFrom(t.app, '10.29');
    const refused = await bid(t.app, noCard.cookie, a.id, { amountCents: 1000 });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('PAYMENT_METHOD_REQUIRED');
    const buyer = await bidder();
    expect((await bid(t.app, buyer.cookie, randomUUID(), { amountCents: 1000 })).statusCode).toBe(404);
    expect((await bid(t.app, seller.cookie, a.id, { amountCents: 1000 })).statusCode).toBe(403);
    const both = await bid(t.app, buyer.cookie, a.id, { amountCents: 1000, maxBidCents: 2000 });
    expect(both.statusCode).toBe(400);
    expect(both.json().fields).toHaveProperty('amountCents');
    expect((await view(a.id)).bidCount).toBe(0);
  });

  it('needs an address to bid on a shipped product, and takes one saved in advance', async () => {
    const { auction: a } = await auction({}, { fulfillment: 'ship', shippingCents: 650 });
    const buyer = await bidder();
    expect((await bid(t.app, buyer.cookie, a.id, { amountCents: 1000 })).statusCode).toBe(402);
    const saved = await call('POST', '/api/addresses', buyer.cookie, TEST_ADDRESS);
    expect(saved.statusCode).toBe(201);
    expect((await bid(t.app, buyer.cookie, a.id, { amountCents: 1000 })).statusCode).toBe(201);
  });

  it('takes one-tap bids in increments, refuses a stale one as TOO_LOW, and never shows a maximum', async () => {
    const { auction: a } = await auction();
    const [ann, bob] = [await bidder(), await bidder()];
    const first = await bid(t.app, ann.cookie, a.id, { maxBidCents: 4000 });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      currentBidCents: 1000,
      minNextBidCents: 1100,
      leader: { handle: ann.handle },
    });
    expect(first.body).not.toContain('4000');

    const stale = await bid(t.app, bob.cookie, a.id, { amountCents: 1000 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'TOO_LOW',
      message: 'Bids start at $11.00 now.',
      minNextBidCents: 1100,
    });

    // bob's tap meets ann's maximum: the server bids for her, bob is told at once.
    const outbid = await bid(t.app, bob.cookie, a.id, { amountCents: 1100 });
    expect(outbid.statusCode).toBe(409);
    expect(outbid.json()).toMatchObject({ code: 'OUTBID', minNextBidCents: 1300 });
    const now = await view(a.id);
    expect(now).toMatchObject({ currentBidCents: 1200, leader: { handle: ann.handle }, bidCount: 3 });
    expect(now.bids.map((b) => [b.handle, b.amountCents])).toEqual([
      [ann.handle, 1200],
      [bob.handle, 1100],
      [ann.handle, 1000],
    ]);

    const over = await bid(t.app, bob.cookie, a.id, { maxBidCents: 9000 });
    expect(over.statusCode).toBe(201);
    expect(over.json()).toMatchObject({ currentBidCents: 4100, leader: { handle: bob.handle } });
  });

  it('gives a tie to the earlier maximum', async () => {
    const { auction: a } = await auction();
    const [ann, bob] = [await bidder(), await bidder()];
    expect((await bid(t.app, ann.cookie, a.id, { maxBidCents: 2500 })).statusCode).toBe(201);
    expect((await bid(t.app, bob.cookie, a.id, { maxBidCents: 2500 })).json().code).toBe('OUTBID');
    expect(await view(a.id)).toMatchObject({ currentBidCents: 2500, leader: { handle: ann.handle } });
  });

  it('counts the same clientBidId once, and answers it as the first time', async () => {
    const { auction: a } = await auction();
    const [ann, bob] = [await bidder(), await bidder()];
    const clientBidId = randomUUID();
    const once = await bid(t.app, ann.cookie, a.id, { amountCents: 1000, clientBidId });
    const again = await bid(t.app, ann.cookie, a.id, { amountCents: 1000, clientBidId });
    expect([once.statusCode, again.statusCode]).toEqual([201, 201]);
    expect((await view(a.id)).bidCount).toBe(1);
    // bob, outbid by ann's proxy? No maximum: bob leads; ann's retry of her old tap changes nothing.
    expect((await bid(t.app, bob.cookie, a.id, { amountCents: 1100 })).statusCode).toBe(201);
    expect((await bid(t.app, ann.cookie, a.id, { amountCents: 1000, clientBidId })).statusCode).toBe(201);
    expect(await view(a.id)).toMatchObject({ bidCount: 2, leader: { handle: bob.handle } });
  });

  it('answers 429 past the per-account bid rate', async () => {
    const { auction: a } = await auction();
    const ann = await bidder();
    const answers: number[] = [];
    for (let i = 0; i < 22; i++) {
      answers.push((await bid(t.app, ann.cookie, a.id, { maxBidCents: 2000 + i * 1000 })).statusCode);
    }
    expect(answers.slice(0, 20).every((code) => code === 201)).toBe(true);
    expect(answers.slice(20)).toEqual([429, 429]);
  });

  it('extends the clock on a late bid, and not in sudden death', async () => {
    const { auction: late } = await auction({ durationSec: 5, extendSec: 30 });
    const ann = await bidder();
    const extended = (await bid(t.app, ann.cookie, late.id, { amountCents: 1000 })).json();
    expect(Date.parse(extended.endsAt) - Date.parse(extended.serverNow)).toBeGreaterThan(29_000);

    const { auction: sudden } = await auction({ durationSec: 5, extendSec: 30, suddenDeath: true });
    const kept = (await bid(t.app, ann.cookie, sudden.id, { amountCents: 1000 })).json();
    expect(kept.endsAt).toBe(sudden.endsAt);
    expect(kept.suddenDeath).toBe(true);
  });
});

/**
 * Each of these waits for an auction to close (5 s at the least): they run at once, each in a room
 * and with accounts of its own, so the file waits for the longest, not for their sum.
 */
describe.concurrent('the close', () => {
  it('charges the winner at the final price plus shipping and writes one order; no bid after the close', async () => {
    const { auction: a, productId } = await auction(
      { durationSec: 5, suddenDeath: true },
      { fulfillment: 'ship', shippingCents: 650 },
    );
    const [ann, bob] = [await bidder(), await bidder()];
    await call('POST', '/api/addresses', ann.cookie, TEST_ADDRESS);
    await call('POST', '/api/addresses', bob.cookie, TEST_ADDRESS);
    await bid(t.app, ann.cookie, a.id, { maxBidCents: 3000 });
    await bid(t.app, bob.cookie, a.id, { amountCents: 1500 });
    const done = await settled(a.id);
    expect(done.status).toBe('ended');
    expect(done.result).toMatchObject({ winner: { handle: ann.handle }, priceCents: 1600, payment: 'paid' });
    const orders = (await call('GET', '/api/orders?role=buyer', ann.cookie)).json();
    const order = orders.orders.find((o: { id: string }) => o.id === done.result?.orderId);
    expect(order).toMatchObject({ amountCents: 1600 + 650 });
    expect((await call('GET', `/api/products/${productId}`)).json().stock).toBe(0);
    // One purchase line in the room, whichever of the settlement and the charge's webhook wrote the order.
    const lines = await t.database.pool.query(
      `select message from chat_messages where kind = 'purchase' and stream_id = (select stream_id from auctions where id = $1)`,
      [a.id],
    );
    expect(lines.rows.map((row) => row.message)).toEqual([`@${ann.handle} just bought ${order.item.title}`]);
    const late = await bid(t.app, bob.cookie, a.id, { amountCents: 5000 });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('AUCTION_ENDED');
  });

  it('ends without a sale when nobody bid, and frees the unit', async () => {
    const { auction: a, productId } = await auction({ durationSec: 5 });
    const done = await settled(a.id);
    expect(done).toMatchObject({ status: 'ended', result: null, bidCount: 0 });
    const buyer = await signUpFrom(t.app, '10.29');
    expect((await openCheckout(t.app, buyer.cookie, productId)).statusCode).toBe(200);
  });

  it('gives a declined winner time to pay with another card', async () => {
    const { auction: a } = await auction({ durationSec: 5 });
    const ann = await bidder(TEST_CARDS.declineAfterAttach);
    await bid(t.app, ann.cookie, a.id, { amountCents: 1000 });
    const declined = await settled(a.id);
    expect(declined.result).toMatchObject({ payment: 'declined', orderId: null });
    expect(Date.parse(declined.result?.payBy ?? '')).toBeGreaterThan(Date.now());

    const stranger = await bidder();
    expect((await call('POST', `/api/auctions/${a.id}/pay`, stranger.cookie)).statusCode).toBe(403);
    await saveCard(t.app, ann.cookie, TEST_CARDS.success);
    const paid = await call('POST', `/api/auctions/${a.id}/pay`, ann.cookie);
    expect(paid.statusCode).toBe(200);
    const done = await settled(a.id);
    expect(done.result).toMatchObject({ payment: 'paid', winner: { handle: ann.handle } });
    expect(done.result?.orderId).toBeTruthy();
  });

  it('gets the unit at their highest bid once the declined winner’s time to pay is up', async () => {
    const { auction: a } = await auction({ durationSec: 5, suddenDeath: true });
    const bob = await bidder();
    const ann = await bidder(TEST_CARDS.declineAfterAttach);
    await bid(t.app, bob.cookie, a.id, { amountCents: 1000 });
    await bid(t.app, ann.cookie, a.id, { maxBidCents: 2500 });
    expect((await settled(a.id)).result).toMatchObject({
      winner: { handle: ann.handle },
      payment: 'declined',
    });

    const path = `/api/auctions/${a.id}/runner-up`;
    expect((await call('POST', path, bob.cookie)).statusCode).toBe(403);
    const early = await call('POST', path, seller.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('The winner still has time to pay with another card.');
    // The five minutes pass (the database's clock is the judge: the deadline is moved instead).
    await t.database.pool.query(`update auctions set pay_by = now() - interval '1 second' where id = $1`, [
      a.id,
    ]);
    const passed = await call('POST', path, seller.cookie);
    expect(passed.statusCode).toBe(200);
    const done = await settled(a.id);
    // bob's highest bid was his 1000; ann's proxy answered it at 1100.
    expect(done.result).toMatchObject({ winner: { handle: bob.handle }, priceCents: 1000, payment: 'paid' });
    expect(done.result?.orderId).toBeTruthy();
    expect((await call('POST', path, seller.cookie)).statusCode).toBe(409);
  });

  it('is asked again, with the same payment, until it answers: one charge, one order', async () => {
    const provider = t.app.payments;
    const charge = provider.chargeSavedCard.bind(provider);
    const title = `Retried pressing ${randomUUID().slice(0, 8)}`;
    const asked: string[] = [];
    provider.chargeSavedCard = async (input) => {
      if (input.description !== title) return charge(input);
      asked.push(input.paymentId);
      if (asked.length === 1) throw new Error('connect ETIMEDOUT');
      return charge(input);
    };
    try {
      const { auction: a } = await auction({ durationSec: 5 }, { title });
      const ann = await bidder();
      await bid(t.app, ann.cookie, a.id, { amountCents: 1000 });
      const done = await eventually(
        'the charge tried again',
        () => view(a.id),
        (v) => v.result?.payment === 'paid',
        30_000,
      );
      expect(done.result?.orderId).toBeTruthy();
      // Asked again after the failure, with the same payment (the provider's idempotency key).
      expect(asked.length).toBeGreaterThanOrEqual(2);
      expect(new Set(asked).size).toBe(1);
    } finally {
      provider.chargeSavedCard = charge;
    }
  });

  it('lists them as replay chapters with their results, and sums them for the stats', async () => {
    const { room, auction: sold } = await auction({ durationSec: 5, suddenDeath: true });
    const [ann, bob] = [await bidder(), await bidder()];
    await bid(t.app, ann.cookie, sold.id, { maxBidCents: 2000 });
    await bid(t.app, bob.cookie, sold.id, { amountCents: 1100 });
    await settled(sold.id);
    const second = await listProduct(t, seller.cookie, { priceCents: 800 });
    await call('POST', `/api/streams/${room}/lineup`, seller.cookie, { productId: second.id });
    const cancelled = await startAuction(t.app, seller.cookie, room, {
      productId: second.id,
      startingBidCents: 300,
    });
    await call('POST', `/api/auctions/${cancelled.id}/cancel`, seller.cookie);

    const answer = await call('GET', `/api/streams/${room}/auctions`);
    expect(answer.statusCode).toBe(200);
    const { auctions, summary } = answer.json();
    expect(auctions.map((a: { id: string }) => a.id)).toEqual([sold.id, cancelled.id]);
    expect(auctions[0]).toMatchObject({
      status: 'ended',
      priceCents: 1200,
      winner: { handle: ann.handle },
      bidders: 2,
    });
    expect(auctions[0].endSec).toBeGreaterThanOrEqual(auctions[0].startSec + 4);
    expect(auctions[1]).toMatchObject({ status: 'cancelled', priceCents: null, winner: null, bidCount: 0 });
    expect(summary).toEqual({
      auctions: 2,
      sold: 1,
      bids: 3,
      uniqueBidders: 2,
      soldStartCents: 1000,
      soldForCents: 1200,
    });
    expect((await call('GET', '/api/streams/no-such-room/auctions')).statusCode).toBe(404);
    // The seller's stream stats count the same.
    const stats = (await call('GET', `/api/streams/${room}/stats`, seller.cookie)).json();
    expect(stats.auctions).toEqual({
      count: 2,
      sold: 1,
      bids: 3,
      uniqueBidders: 2,
      soldStartCents: 1000,
      soldForCents: 1200,
    });
  });

  it('closes a running auction when the stream ends: the leader wins, later bids are refused', async () => {
    const { room, auction: a } = await auction({ durationSec: 120 });
    const ann = await bidder();
    await bid(t.app, ann.cookie, a.id, { amountCents: 1000 });
    expect((await call('POST', `/api/streams/${room}/end`, seller.cookie)).statusCode).toBe(200);
    const late = await bid(t.app, ann.cookie, a.id, { amountCents: 5000 });
    expect(late.json().code).toBe('AUCTION_ENDED');
    const done = await settled(a.id);
    expect(done.result).toMatchObject({ winner: { handle: ann.handle }, priceCents: 1000, payment: 'paid' });
  });
});

describe('cancelling', () => {
  it('lets the seller cancel before the first bid only', async () => {
    const { auction: a } = await auction();
    const other = await bidder();
    expect((await call('POST', `/api/auctions/${a.id}/cancel`, other.cookie)).statusCode).toBe(403);
    const cancelled = await call('POST', `/api/auctions/${a.id}/cancel`, seller.cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');

    const { auction: b } = await auction();
    await bid(t.app, other.cookie, b.id, { amountCents: 1000 });
    const refused = await call('POST', `/api/auctions/${b.id}/cancel`, seller.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('An auction with bids cannot be cancelled.');
  });
});

describe('the seller’s controls', () => {
  it('blocks a bidder from every auction of theirs, and unblocks them', async () => {
    const { auction: a } = await auction();
    const ann = await bidder();
    expect((await call('POST', '/api/auction-blocks', undefined, { handle: ann.handle })).statusCode).toBe(
      401,
    );
    const blocked = await call('POST', '/api/auction-blocks', seller.cookie, {
      handle: ann.handle.toUpperCase(),
    });
    expect(blocked.statusCode).toBe(201);
    expect(blocked.json().blocks.map((b: { handle: string }) => b.handle)).toEqual([ann.handle]);
    const refused = await bid(t.app, ann.cookie, a.id, { amountCents: 1000 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('The seller has blocked you from bidding in their auctions.');
    // Blocks are the seller's own: another account sees none of them.
    expect((await call('GET', '/api/auction-blocks', ann.cookie)).json()).toEqual({ blocks: [] });
    expect(
      (await call('POST', '/api/auction-blocks', seller.cookie, { handle: 'nobody_here_at_all' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/auction-blocks/${ann.handle}`, seller.cookie)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/auction-blocks/${ann.handle}`, seller.cookie)).statusCode).toBe(404);
    expect((await bid(t.app, ann.cookie, a.id, { amountCents: 1000 })).statusCode).toBe(201);
  });
});
