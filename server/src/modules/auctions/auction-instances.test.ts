import { randomUUID } from 'node:crypto';
import { type Auction, applyBid, type BiddingState } from '@streamshop/contract/auctions.ts';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  killHard,
  listProduct,
  type Pair,
  type Reply,
  request,
  type Shopper,
  signUpShopper,
  startPair,
} from '../../test/checkout-drill.ts';
import { eventually } from '../../test/eventually.ts';
import type { ServerProcess } from '../../test/server-process.ts';

/**
 * Issue 28: one truth per auction across instances (ADR 0022). Two real server processes share a
 * PostgreSQL database (and Redis when TEST_REDIS_URL is set): bidders on both instances bid at
 * once, a viewer on the other instance sees every change, and the result is what the rules give
 * from the requests the auction took, in the order it took them; then an instance is killed with
 * SIGKILL at the close and the other closes the auction, charges the winner once and writes one
 * order. Needs PostgreSQL (two processes cannot share the embedded database).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn('auction-instances.test.ts needs TEST_DATABASE_URL (PostgreSQL): skipped');

const BIDDERS = 8;

function redisUrlForThisRun(): string | undefined {
  const shared = process.env.TEST_REDIS_URL;
  if (!shared) return undefined;
  const url = new URL(shared);
  if (url.pathname.length <= 1) url.pathname = `/${1 + ((process.pid + 7) % 15)}`;
  return url.toString();
}

describe.skipIf(!serverUrl)('auctions on two instances', () => {
  let pair: Pair;
  let seller: Shopper;
  let room = '';
  const bidders: Array<Shopper & { server: ServerProcess }> = [];

  const as = (server: ServerProcess, who: Shopper, method: 'GET' | 'POST', path: string, body?: unknown) =>
    request(server, method, path, { cookie: who.cookie, forwardedFor: who.address, body });

  async function lineUp(): Promise<string> {
    const productId = await listProduct(pair, pair.a, seller, 1);
    const lined = await as(pair.a, seller, 'POST', `/api/streams/${room}/lineup`, { productId });
    if (lined.status !== 200) throw new Error(`lineup: ${lined.status}`);
    return productId;
  }

  async function startAuction(server: ServerProcess, body: Record<string, unknown>): Promise<Auction> {
    const started = await as(server, seller, 'POST', `/api/streams/${room}/auctions`, body);
    if (started.status !== 201) throw new Error(`auction: ${started.status} ${JSON.stringify(started.body)}`);
    return started.body;
  }

  /** Every bidder bids at once (each on their own instance), `rounds` times; answers every reply. */
  async function burst(auctionId: string, rounds: number, live: () => boolean = () => true) {
    const replies: Array<{ clientBidId: string; reply: Reply }> = [];
    for (let round = 0; round < rounds && live(); round++) {
      await Promise.all(
        bidders.map(async (bidder, i) => {
          const clientBidId = randomUUID();
          const maxBidCents = 1000 + round * 700 + i * 150 + Math.floor(Math.random() * 100);
          const reply = await as(bidder.server, bidder, 'POST', `/api/auctions/${auctionId}/bids`, {
            maxBidCents,
            clientBidId,
          });
          replies.push({ clientBidId, reply });
        }),
      );
    }
    return replies;
  }

  /** The requests the auction took, replayed through the rules: the price and leader they give. */
  async function replay(auction: Auction) {
    const taken = await pair.pool.query<{ bidder_id: string; client_bid_id: string; max_cents: number }>(
      `select bidder_id, client_bid_id, max_cents from auction_bid_requests where auction_id = $1 order by version`,
      [auction.id],
    );
    let state: BiddingState = {
      startingBidCents: auction.startingBidCents,
      currentBidCents: null,
      leader: null,
    };
    for (const row of taken.rows) {
      const outcome = applyBid(state, row.bidder_id, row.max_cents);
      // A request the auction took was never too low when it was taken.
      expect(outcome.kind).not.toBe('too_low');
      if (outcome.kind !== 'too_low') state = outcome.state;
    }
    const leader = state.leader
      ? await pair.pool.query<{ handle: string }>('select handle from users where id = $1', [
          state.leader.bidderId,
        ])
      : undefined;
    return {
      state,
      leaderHandle: leader?.rows[0]?.handle,
      ids: new Set(taken.rows.map((r) => r.client_bid_id)),
    };
  }

  const settled = (server: ServerProcess, id: string, within = 30_000) =>
    eventually(
      'the auction settled',
      async () => (await request(server, 'GET', `/api/auctions/${id}`)).body as Auction,
      (a) => a?.status === 'ended' && a.result?.payment === 'paid',
      within,
    );

  async function ordersAndCharges(paymentId: string) {
    const orders = await pair.pool.query('select id from orders where payment_id = $1', [paymentId]);
    const charges = await pair.pool.query(
      `select id from local_payment_intents where payment_id = $1 and status = 'succeeded'`,
      [paymentId],
    );
    return { orders: orders.rows.length, charges: charges.rows.length };
  }

  beforeAll(async () => {
    pair = await startPair({ serverUrl: serverUrl ?? '', redisUrl: redisUrlForThisRun(), label: 'auction' });
    seller = await signUpShopper(pair.a);
    room = (await as(pair.a, seller, 'POST', '/api/rooms', { title: 'Two-instance auctions' })).body.roomName;
    expect((await as(pair.a, seller, 'POST', `/api/streams/${room}/start`)).status).toBe(200);
    for (let i = 0; i < BIDDERS; i++) {
      const server = i % 2 === 0 ? pair.a : pair.b;
      const shopper = await signUpShopper(server);
      const setup = await as(server, shopper, 'POST', '/api/payment-methods/setup');
      const card = {
        number: TEST_CARDS.success,
        expMonth: 12,
        expYear: new Date().getFullYear() + 3,
        cvc: '123',
      };
      await request(server, 'POST', '/api/payments/local/setups/confirm', {
        body: { clientSecret: setup.body.clientSecret, card },
      });
      const saved = await as(server, shopper, 'POST', '/api/payment-methods', {
        setupRef: setup.body.setupRef,
      });
      if (saved.status !== 201) throw new Error(`card: ${saved.status} ${JSON.stringify(saved.body)}`);
      bidders.push({ ...shopper, server });
    }
  }, 180_000);

  afterAll(async () => {
    await pair?.close();
  }, 60_000);

  it('takes bids from both instances in one order, tells a viewer on either, and sells once', async () => {
    const productId = await lineUp();
    const viewer = new WebSocket(`${pair.b.url.replace('http', 'ws')}/ws?room=${room}`);
    const heard: ServerMessage[] = [];
    viewer.on('message', (data) => heard.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => viewer.once('open', resolve).once('error', reject));
    // B sends the chat history once it has joined the room's channel: from then on it hears A.
    // (Open alone came before that, and under load A's start went out before B listened.)
    await eventually('the chat history on B', () => heard.some((m) => m.type === 'chat_history'));

    const auction = await startAuction(pair.a, {
      productId,
      startingBidCents: 1000,
      durationSec: 8,
      extendSec: 2,
    });
    const replies = await burst(auction.id, 3);
    const done = await settled(pair.b, auction.id);
    viewer.close();

    // Every bid answered as taken (201 leading, 409 OUTBID) is in the auction's record.
    const { state, leaderHandle, ids } = await replay(done);
    const taken = replies.filter(({ reply }) => reply.status === 201 || reply.body?.code === 'OUTBID');
    expect(taken.length).toBeGreaterThan(0);
    for (const { clientBidId } of taken) expect(ids.has(clientBidId)).toBe(true);
    expect(replies.every(({ reply }) => [201, 409].includes(reply.status))).toBe(true);
    // The result is what the rules give from those requests, in the order they were taken.
    expect(done.result?.priceCents).toBe(state.currentBidCents);
    expect(done.result?.winner.handle).toBe(leaderHandle);
    const paymentId = (
      await pair.pool.query<{ payment_id: string }>('select payment_id from auctions where id = $1', [
        auction.id,
      ])
    ).rows[0]?.payment_id;
    expect(await ordersAndCharges(paymentId ?? '')).toEqual({ orders: 1, charges: 1 });
    // The viewer on B heard A's start, the bids, and the end with the winner.
    const types = new Set(heard.map((m) => m.type));
    expect([...types]).toEqual(expect.arrayContaining(['auction_started', 'auction_bid', 'auction_ended']));
    const ended = heard.filter((m) => m.type === 'auction_ended');
    expect(ended.at(-1)).toMatchObject({
      winner: { handle: leaderHandle },
      priceCents: state.currentBidCents,
    });
  });

  it('closes and charges once from the other instance when one is killed at the close', async () => {
    const productId = await lineUp();
    const auction = await startAuction(pair.a, {
      productId,
      startingBidCents: 1000,
      durationSec: 5,
      suddenDeath: true,
    });
    const onA = bidders.filter((b) => b.server === pair.a);
    const replies = await Promise.all(
      onA.map(async (bidder, i) => {
        const clientBidId = randomUUID();
        const reply = await as(pair.a, bidder, 'POST', `/api/auctions/${auction.id}/bids`, {
          maxBidCents: 2000 + i * 300,
          clientBidId,
        });
        return { clientBidId, reply };
      }),
    );
    // A dies a moment before the end: its timer for the close never fires.
    const left = Date.parse(auction.endsAt) - Date.parse(auction.serverNow) - 200;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, left)));
    await killHard(pair.a);

    const done = await settled(pair.b, auction.id);
    const { state, leaderHandle, ids } = await replay(done);
    for (const { clientBidId, reply } of replies) {
      if (reply.status === 201 || reply.body?.code === 'OUTBID') expect(ids.has(clientBidId)).toBe(true);
    }
    expect(done.result).toMatchObject({
      priceCents: state.currentBidCents,
      winner: { handle: leaderHandle },
    });
    const paymentId = (
      await pair.pool.query<{ payment_id: string }>('select payment_id from auctions where id = $1', [
        auction.id,
      ])
    ).rows[0]?.payment_id;
    expect(await ordersAndCharges(paymentId ?? '')).toEqual({ orders: 1, charges: 1 });
  });
});
