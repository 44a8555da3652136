import { randomBytes } from 'node:crypto';
import {
  drawIndex,
  drawOrder,
  GIVEAWAY_REFUSALS,
  type Giveaway,
  type GiveawayRefusal,
  type StartGiveawayBody,
  seedHashOf,
  startGiveawayBodySchema,
} from '@streamshop/contract/giveaways.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sqlState } from '../../db/query-errors.ts';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { freeUnitsOf, lockProductForSale, savedAddresses, takeOneUnit } from '../checkout/service.ts';
import { isFollower } from '../follows/service.ts';
import { boughtFromStream, insertGiftOrder, type OrderPlacing, orderPlaced } from '../orders/service.ts';
import { announceStock, isInLineup } from '../shop/service.ts';
import type { StreamRecord } from '../streams/service.ts';
import {
  currentGiveawayOf,
  dueGiveawayIds,
  entrantsOf,
  findGiveaway,
  type GiveawayRow,
  hasEntered,
  hasRunningGiveaway,
  insertEntry,
  insertGiveaway,
  lockDueGiveaway,
  markCancelled,
  markDrawn,
} from './repo.ts';
import { toGiveaway } from './view.ts';

const UNIQUE_VIOLATION = '23505';

export const GIVEAWAY_MESSAGES = {
  notLive: 'Giveaways run while the stream is live.',
  running: 'Another giveaway is running in this room: wait for it to end.',
  notInLineup: 'Add the product to the lineup before giving it away.',
  noUnit: 'This product has no unit free to give away.',
} as const;

/** An entry refused for a reason the viewer can act on: 409 `{code, message}` (403 for the seller). */
export class EntryRefused extends AppError {
  constructor(readonly reason: GiveawayRefusal) {
    super(
      reason === 'SELLER' ? 403 : 409,
      reason === 'SELLER' ? 'FORBIDDEN' : 'CONFLICT',
      GIVEAWAY_REFUSALS[reason],
    );
  }
}

export interface GiveawaysDeps {
  db: Db;
  hub: RoomHub;
  placing: OrderPlacing;
  log: FastifyBaseLogger;
}

async function view(db: Db, row: GiveawayRow, viewerId: string | undefined): Promise<Giveaway> {
  const entered = viewerId ? await hasEntered(db, row.id, viewerId) : false;
  const entrants = row.status === 'drawn' ? (await entrantsOf(db, row.id)).map((e) => e.handle) : null;
  return toGiveaway(row, { id: viewerId, entered }, entrants);
}

export async function getGiveaway(db: Db, id: string, viewerId: string | undefined): Promise<Giveaway> {
  const row = await findGiveaway(db, id);
  if (!row) throw notFound('Giveaway not found');
  return view(db, row, viewerId);
}

export async function currentGiveaway(db: Db, stream: StreamRecord, viewerId: string | undefined) {
  const row = await currentGiveawayOf(db, stream.id);
  return row ? view(db, row, viewerId) : null;
}

/** Tells the room the giveaway's state (the public view: no order id, nobody's entry). */
async function announce(deps: GiveawaysDeps, id: string): Promise<Giveaway | undefined> {
  const row = await findGiveaway(deps.db, id);
  if (!row) return undefined;
  const giveaway = await view(deps.db, row, undefined);
  await deps.hub.publish(row.room_name, { type: 'giveaway', giveaway });
  return giveaway;
}

/** The room hears the entry count at most once a second per giveaway (from this instance). */
const ENTRY_ANNOUNCE_MS = 1000;
const pendingAnnouncements = new Map<string, NodeJS.Timeout>();

function announceEntriesSoon(deps: GiveawaysDeps, id: string): void {
  if (pendingAnnouncements.has(id)) return;
  const timer = setTimeout(() => {
    pendingAnnouncements.delete(id);
    announce(deps, id).catch((error) => deps.log.warn({ err: error }, 'announcing giveaway entries failed'));
  }, ENTRY_ANNOUNCE_MS);
  timer.unref();
  pendingAnnouncements.set(id, timer);
}

/**
 * Starts a giveaway of one unit of a lineup product while the stream is live: the unit is counted
 * out of what checkout and auctions may take (under the product's row lock), the seed's hash is
 * fixed now and published with the giveaway.
 */
export async function startGiveaway(
  deps: GiveawaysDeps,
  stream: StreamRecord,
  input: StartGiveawayBody,
): Promise<Giveaway> {
  const body = startGiveawayBodySchema.parse(input);
  const seed = randomBytes(32).toString('hex');
  const seedHash = await seedHashOf(seed);
  let id: string;
  try {
    id = await deps.db.transaction(async (tx) => {
      if (!stream.is_active || stream.ended_at) throw conflict('CONFLICT', GIVEAWAY_MESSAGES.notLive);
      const product = await lockProductForSale(tx, body.productId);
      if (!product || product.seller_id !== stream.owner_id) throw notFound('Product not found');
      if (!(await isInLineup(tx, stream.id, body.productId)))
        throw conflict('CONFLICT', GIVEAWAY_MESSAGES.notInLineup);
      if (await hasRunningGiveaway(tx, stream.id)) throw conflict('CONFLICT', GIVEAWAY_MESSAGES.running);
      if ((await freeUnitsOf(tx, body.productId, product.stock)) <= 0)
        throw conflict('CONFLICT', GIVEAWAY_MESSAGES.noUnit);
      return insertGiveaway(tx, {
        streamId: stream.id,
        sellerId: stream.owner_id,
        productId: body.productId,
        audience: body.audience,
        durationSec: body.durationSec,
        seed,
        seedHash,
      });
    });
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw conflict('CONFLICT', GIVEAWAY_MESSAGES.running);
    throw error;
  }
  const giveaway = await announce(deps, id);
  if (!giveaway) throw notFound('Giveaway not found');
  return giveaway;
}

/** One tap to enter; refused with the reason (the seller, not a follower, not a buyer, again, ended). */
export async function enterGiveaway(deps: GiveawaysDeps, id: string, userId: string): Promise<Giveaway> {
  const row = await findGiveaway(deps.db, id);
  if (!row) throw notFound('Giveaway not found');
  if (row.seller_id === userId) throw new EntryRefused('SELLER');
  if (row.status !== 'running') throw new EntryRefused('ENDED');
  if (row.audience === 'followers' && !(await isFollower(deps.db, userId, row.seller_id)))
    throw new EntryRefused('NOT_FOLLOWER');
  if (row.audience === 'buyers' && !(await boughtFromStream(deps.db, userId, row.stream_id)))
    throw new EntryRefused('NOT_BUYER');
  if (row.p_fulfillment === 'ship' && (await savedAddresses(deps.db, userId)).length === 0)
    throw new EntryRefused('ADDRESS_REQUIRED');
  const outcome = await insertEntry(deps.db, id, userId);
  if (outcome === 'again') throw new EntryRefused('ALREADY_ENTERED');
  if (outcome === 'ended') throw new EntryRefused('ENDED');
  announceEntriesSoon(deps, id);
  return getGiveaway(deps.db, id, userId);
}

export async function cancelGiveaway(deps: GiveawaysDeps, id: string, userId: string): Promise<Giveaway> {
  const row = await findGiveaway(deps.db, id);
  if (!row) throw notFound('Giveaway not found');
  if (row.seller_id !== userId) throw forbidden('Only the seller can cancel this giveaway');
  if (!(await markCancelled(deps.db, id, userId))) throw conflict('CONFLICT', GIVEAWAY_REFUSALS.ENDED);
  await announce(deps, id);
  return getGiveaway(deps.db, id, userId);
}

/**
 * Draws a due giveaway under its row lock (another instance skips it): the winner from the seed and
 * the entrants' handles (`drawIndex`, as anyone can recompute it), their unit taken from stock and
 * their $0 order written with their newest address, all in one transaction. Answers whether it drew.
 */
export async function drawGiveaway(deps: GiveawaysDeps, id: string): Promise<boolean> {
  const drawn = await deps.db.transaction(async (tx) => {
    const giveaway = await lockDueGiveaway(tx, id);
    if (!giveaway) return false;
    const entrants = await entrantsOf(tx, id);
    if (entrants.length === 0) {
      await markDrawn(tx, id, null, null);
      return true;
    }
    const order = drawOrder(entrants.map((e) => e.handle));
    const handle = order[await drawIndex(giveaway.seed, order)];
    const winner = entrants.find((e) => e.handle === handle);
    if (!winner) throw new Error('the drawn handle is not an entrant');
    const sellerId = await takeOneUnit(tx, giveaway.product_id);
    let orderId: string | null = null;
    if (sellerId) {
      const [address] = await savedAddresses(tx, winner.user_id);
      orderId = await insertGiftOrder(tx, {
        buyerId: winner.user_id,
        sellerId,
        productId: giveaway.product_id,
        streamId: giveaway.stream_id,
        shippingAddress: address
          ? {
              name: address.name,
              line1: address.line1,
              line2: address.line2 ?? null,
              city: address.city,
              region: address.region ?? null,
              postalCode: address.postalCode,
              country: address.country,
            }
          : null,
      });
      await orderPlaced(tx, deps.placing, orderId);
    } else {
      deps.log.warn({ giveawayId: id }, 'a giveaway was drawn with no unit left in stock; no order written');
    }
    await markDrawn(tx, id, { id: winner.user_id, handle: winner.handle }, orderId);
    return true;
  });
  if (drawn) {
    const giveaway = await announce(deps, id);
    // The prize left stock: every room showing the product hears its new stock.
    if (giveaway?.winner) await announceStock(deps.db, deps.hub, giveaway.product.id);
  }
  return drawn;
}

/** Draws every due giveaway this instance gets to first. */
export async function drawDue(deps: GiveawaysDeps): Promise<void> {
  for (const id of await dueGiveawayIds(deps.db)) await drawGiveaway(deps, id);
}
