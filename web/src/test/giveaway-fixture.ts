import { drawIndex, drawOrder, type Giveaway, seedHashOf } from '@streamshop/contract/giveaways.ts';

/** A seed as the server makes them: 32 bytes as hex. */
export const TEST_SEED = '7f'.repeat(32);

/**
 * A giveaway view for the room's unit tests: running, for everyone, 60 s left at `serverNow`, no
 * entries. `seedHash` is TEST_SEED's (set by `drawnGiveaway`; any hex while it runs).
 */
export function testGiveaway(overrides: Partial<Giveaway> = {}): Giveaway {
  const serverNow = overrides.serverNow ?? new Date().toISOString();
  return {
    id: 'b0000000-0000-4000-8000-000000000001',
    roomName: 'crate-digging',
    product: {
      id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
      title: 'Blue Note LP',
      imageUrl: null,
      priceCents: 2500,
      stock: 3,
      condition: 'used',
      fulfillment: 'ship',
      shippingCents: 450,
    },
    audience: 'everyone',
    status: 'running',
    startedAt: serverNow,
    endsAt: new Date(Date.parse(serverNow) + 60_000).toISOString(),
    serverNow,
    seedHash: 'ab'.repeat(32),
    seed: null,
    entryCount: 0,
    entrants: null,
    winner: null,
    orderId: null,
    entered: false,
    ...overrides,
  };
}

/** The same giveaway drawn from `entrants` with TEST_SEED, as the server draws it (the public view). */
export async function drawnGiveaway(giveaway: Giveaway, entrants: string[]): Promise<Giveaway> {
  const order = drawOrder(entrants);
  const winner = order.length > 0 ? order[await drawIndex(TEST_SEED, order)] : undefined;
  return {
    ...giveaway,
    status: 'drawn',
    seed: TEST_SEED,
    seedHash: await seedHashOf(TEST_SEED),
    entryCount: entrants.length,
    entrants: order,
    winner: winner ? { handle: winner } : null,
    serverNow: new Date(Date.parse(giveaway.serverNow) + 60_000).toISOString(),
  };
}
