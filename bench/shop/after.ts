/** After the window: the API's view, then the database's once the sockets closed and the servers stopped. */
import type WebSocket from 'ws';
import { type AppServer, closeSockets, type Storage, wallMs } from '../support.ts';
import { readDatabase } from './database.ts';
import type { Setup } from './setup.ts';
import type { Watch } from './watch.ts';

export async function checkAfter(
  storage: Storage,
  { api, roomName, productId, title }: Setup,
  offerId: string,
  servers: AppServer[],
  w: Watch,
  sockets: WebSocket[],
) {
  const productAfter = await api.request('GET', `/api/products/${productId}`);
  const shopAfter = await api.request('GET', `/api/streams/${roomName}/shop`);
  const stockViaApi = Number(productAfter.body?.stock);
  const offerRemainingViaApi = shopAfter.body?.offer ? Number(shopAfter.body.offer.remaining) : Number.NaN;
  w.closing = true;
  await closeSockets(sockets);
  const exitCodes: Array<number | null> = [];
  for (const s of servers.splice(0).reverse()) exitCodes.unshift(await s.stop());
  const clockOffset = Date.now() - wallMs();
  const db = await readDatabase(storage, productId, offerId, title);
  return { stockViaApi, offerRemainingViaApi, exitCodes, clockOffset, db };
}

export type After = Awaited<ReturnType<typeof checkAfter>>;
