import type { RoomProduct, RoomShop } from '@streamshop/contract/shop.ts';
import { describe, expect, it } from 'vitest';
import { parseServerMessage } from './chat-state.ts';
import {
  initialKnownShop,
  type KnownShop,
  parseShopEvent,
  pinnedProducts,
  shopLineup,
  shopReducer,
} from './shop-state.ts';

const product = (id: string, stock = 5): RoomProduct => ({
  id,
  title: `Product ${id}`,
  imageUrl: null,
  priceCents: 5000,
  stock,
  condition: 'new',
  fulfillment: 'ship',
  shippingCents: 0,
});

const shopAt = (serverNow: string, overrides: Partial<RoomShop> = {}): RoomShop => ({
  lineup: [product('a'), product('b')],
  pinned: ['a'],
  offer: null,
  sellerOnboarded: false,
  serverNow,
  ...overrides,
});

const offerOn = (productId: string, remaining: number) => ({
  id: 'offer-1',
  productId,
  priceCents: 3000,
  quantity: 5,
  remaining,
  startsAt: '2025-01-01T00:00:00.000Z',
  endsAt: '2025-01-01T00:01:00.000Z',
});

const known = (shop: RoomShop | null, stockVersions: Record<string, number> = {}): KnownShop => ({
  shop,
  stockVersions,
});

describe('shopReducer', () => {
  it('takes the first shop it is given', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z');
    expect(shopReducer(initialKnownShop, { type: 'shop_loaded', shop }).shop).toBe(shop);
  });

  it('replaces the shop with a newer one from the socket', () => {
    const first = shopAt('2025-01-01T00:00:00.000Z');
    const next = shopAt('2025-01-01T00:00:05.000Z', { pinned: ['a', 'b'] });
    expect(shopReducer(known(first), { type: 'shop', shop: next }).shop).toBe(next);
  });

  it('keeps a newer shop when a slow GET answers with an older one', () => {
    const newer = shopAt('2025-01-01T00:00:05.000Z', { pinned: [] });
    const older = shopAt('2025-01-01T00:00:01.000Z');
    expect(shopReducer(known(newer), { type: 'shop_loaded', shop: older }).shop).toBe(newer);
  });

  it('patches the sold product’s stock and leaves the others', () => {
    const state = shopReducer(known(shopAt('2025-01-01T00:00:00.000Z')), {
      type: 'stock',
      productId: 'a',
      stock: 4,
      version: 1,
    });
    expect(state.shop?.lineup.map((p) => [p.id, p.stock])).toEqual([
      ['a', 4],
      ['b', 5],
    ]);
  });

  it('ignores a sale older than one already applied to the product', () => {
    let state = known(shopAt('2025-01-01T00:00:00.000Z'));
    state = shopReducer(state, { type: 'stock', productId: 'a', stock: 2, version: 20 });
    state = shopReducer(state, { type: 'stock', productId: 'a', stock: 3, version: 10 });
    expect(state.shop?.lineup[0]?.stock).toBe(2);
    // Another product's order is its own.
    state = shopReducer(state, { type: 'stock', productId: 'b', stock: 4, version: 5 });
    expect(state.shop?.lineup[1]?.stock).toBe(4);
  });

  it('updates what is left of the offer on the sold product', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z', { offer: offerOn('a', 5) });
    const state = shopReducer(known(shop), {
      type: 'stock',
      productId: 'a',
      stock: 4,
      version: 1,
      offerRemaining: 2,
    });
    expect(state.shop?.offer?.remaining).toBe(2);
  });

  it('leaves the offer alone when another product sold', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z', { offer: offerOn('a', 5) });
    const state = shopReducer(known(shop), {
      type: 'stock',
      productId: 'b',
      stock: 4,
      version: 1,
      offerRemaining: 1,
    });
    expect(state.shop?.offer?.remaining).toBe(5);
  });

  it('has no shop to patch before it is known', () => {
    expect(
      shopReducer(initialKnownShop, { type: 'stock', productId: 'a', stock: 1, version: 1 }).shop,
    ).toBeNull();
  });
});

describe('parseShopEvent', () => {
  it('reads a valid shop event', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z');
    expect(parseShopEvent({ type: 'shop', shop })).toEqual({ type: 'shop', shop });
  });

  it('drops a shop event whose shop is malformed', () => {
    expect(parseShopEvent({ type: 'shop', shop: { lineup: 'nope' } })).toBeNull();
  });

  it('reads a stock event with and without the offer’s units', () => {
    expect(parseShopEvent({ type: 'stock', productId: 'a', stock: 3, version: 7 })).toEqual({
      type: 'stock',
      productId: 'a',
      stock: 3,
      version: 7,
    });
    expect(
      parseShopEvent({ type: 'stock', productId: 'a', stock: 3, version: 7, offerRemaining: 1 }),
    ).toEqual({
      type: 'stock',
      productId: 'a',
      stock: 3,
      version: 7,
      offerRemaining: 1,
    });
  });

  it('drops a stock event without a number of units or a version', () => {
    expect(parseShopEvent({ type: 'stock', productId: 'a', stock: '3', version: 1 })).toBeNull();
    expect(parseShopEvent({ type: 'stock', productId: 'a', stock: 3 })).toBeNull();
  });
});

describe('pinnedProducts', () => {
  it('lists the pinned products in pin order', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z', { pinned: ['b', 'a', 'gone'] });
    expect(pinnedProducts(shop).map((p) => p.id)).toEqual(['b', 'a']);
  });
});

describe('shopLineup', () => {
  it('lists every lineup product, the pinned ones first in pin order, then the rest in lineup order', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z', {
      lineup: [product('a'), product('b'), product('c'), product('d')],
      pinned: ['c', 'a', 'gone'],
    });
    expect(shopLineup(shop).map((p) => p.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('is empty until the shop has loaded', () => {
    expect(shopLineup(null)).toEqual([]);
  });
});

describe('room socket frames', () => {
  it('passes shop and stock frames through to the shop', () => {
    const shop = shopAt('2025-01-01T00:00:00.000Z');
    expect(parseServerMessage(JSON.stringify({ type: 'shop', shop }))).toEqual({ type: 'shop', shop });
    expect(
      parseServerMessage(JSON.stringify({ type: 'stock', productId: 'a', stock: 0, version: 3 })),
    ).toEqual({
      type: 'stock',
      productId: 'a',
      stock: 0,
      version: 3,
    });
  });

  it('keeps the purchase kind of a chat line, live and in the history', () => {
    const line = {
      type: 'chat_message',
      id: 9,
      username: '',
      message: '@ana just bought Lamp',
      timestamp: '2025-01-01T00:00:00.000Z',
      kind: 'purchase',
    };
    expect(parseServerMessage(JSON.stringify(line))).toMatchObject({ kind: 'purchase' });
    const history = parseServerMessage(JSON.stringify({ type: 'chat_history', messages: [line] }));
    expect(history).toMatchObject({ messages: [{ kind: 'purchase' }] });
  });
});
