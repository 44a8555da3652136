import { randomUUID } from 'node:crypto';
import type { Auction } from '@streamshop/contract/auctions.ts';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import type { FastifyInstance } from 'fastify';
import { listProduct } from './payments.ts';
import type { TestApp } from './test-app.ts';

/** The auction tests' steps, through the public API. */

const call = (
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  cookie?: string,
  payload?: object,
) => app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

/** Saves a card the local provider knows (settings' flow: setup, confirm in the browser, save). */
export async function saveCard(app: FastifyInstance, cookie: string, number: string = TEST_CARDS.success) {
  const setup = (await call(app, 'POST', '/api/payment-methods/setup', cookie)).json();
  const card = { number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
  const confirmed = await call(app, 'POST', '/api/payments/local/setups/confirm', undefined, {
    clientSecret: setup.clientSecret,
    card,
  });
  if (confirmed.json().status !== 'succeeded') throw new Error(`card setup failed: ${confirmed.body}`);
  const saved = await call(app, 'POST', '/api/payment-methods', cookie, { setupRef: setup.setupRef });
  if (saved.statusCode !== 201) throw new Error(`saving the card failed: ${saved.statusCode} ${saved.body}`);
  return saved.json().paymentMethod as { id: string };
}

/** A live room of the seller's with one product in its lineup (digital unless told otherwise). */
export async function liveRoomWith(
  t: TestApp,
  sellerCookie: string,
  product: Parameters<typeof listProduct>[2] = {},
): Promise<{ room: string; productId: string }> {
  const created = await call(t.app, 'POST', '/api/rooms', sellerCookie, { title: 'Auction night' });
  const room = created.json().roomName as string;
  const started = await call(t.app, 'POST', `/api/streams/${room}/start`, sellerCookie);
  if (started.statusCode !== 200) throw new Error(`starting the stream failed: ${started.body}`);
  const listed = await listProduct(t, sellerCookie, { priceCents: 5000, stock: 1, ...product });
  const lined = await call(t.app, 'POST', `/api/streams/${room}/lineup`, sellerCookie, {
    productId: listed.id,
  });
  if (lined.statusCode !== 200) throw new Error(`the lineup refused it: ${lined.body}`);
  return { room, productId: listed.id };
}

export async function startAuction(
  app: FastifyInstance,
  sellerCookie: string,
  room: string,
  body: Record<string, unknown>,
): Promise<Auction> {
  const started = await call(app, 'POST', `/api/streams/${room}/auctions`, sellerCookie, body);
  if (started.statusCode !== 201)
    throw new Error(`starting the auction failed: ${started.statusCode} ${started.body}`);
  return started.json();
}

/** A bid as a client sends it: one tap (`amountCents`) or a maximum; a fresh clientBidId unless given. */
export function bid(
  app: FastifyInstance,
  cookie: string,
  auctionId: string,
  body: { amountCents?: number; maxBidCents?: number; clientBidId?: string },
) {
  return call(app, 'POST', `/api/auctions/${auctionId}/bids`, cookie, { clientBidId: randomUUID(), ...body });
}
