import type { ServerMessage } from '@streamshop/contract/live.ts';
import { type RoomShop, roomShopSchema, type ShopEvent } from '@streamshop/contract/shop.ts';

/** The room's shop as the viewer knows it: null until GET /shop or a `shop` event has arrived. */
export type ShopState = RoomShop | null;

/** The shop and, per product, the `version` of the last sale applied to it. */
export interface KnownShop {
  shop: ShopState;
  stockVersions: Record<string, number>;
}

export const initialKnownShop: KnownShop = { shop: null, stockVersions: {} };

/** Socket events, plus the answer of GET /shop or of a change the seller made here. */
export type ShopAction = ShopEvent | { type: 'shop_loaded'; shop: RoomShop };

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/**
 * A whole shop replaces the known one unless it was computed earlier on the server (a slow GET
 * answering after a newer event). A sale patches the product's stock and the offer's units left,
 * unless a later sale of the product was applied already (events can cross instances out of order).
 */
export function shopReducer(state: KnownShop, action: ShopAction): KnownShop {
  switch (action.type) {
    case 'shop':
    case 'shop_loaded':
      if (state.shop && time(action.shop.serverNow) < time(state.shop.serverNow)) return state;
      return { ...state, shop: action.shop };
    case 'stock': {
      const { productId, stock, version, offerRemaining } = action;
      const applied = state.stockVersions[productId];
      if (applied !== undefined && version <= applied) return state;
      const stockVersions = { ...state.stockVersions, [productId]: version };
      const { shop } = state;
      if (!shop) return { shop, stockVersions };
      const offer =
        shop.offer && shop.offer.productId === productId && offerRemaining !== undefined
          ? { ...shop.offer, remaining: offerRemaining }
          : shop.offer;
      return {
        shop: {
          ...shop,
          lineup: shop.lineup.map((product) => (product.id === productId ? { ...product, stock } : product)),
          offer,
        },
        stockVersions,
      };
    }
    default:
      return state;
  }
}

export function isShopEvent(message: ServerMessage): message is ShopEvent {
  return message.type === 'shop' || message.type === 'stock';
}

/** Reads the `shop` and `stock` frames of /ws?room=…; a malformed one is null. */
export function parseShopEvent(data: Record<string, unknown>): ShopEvent | null {
  if (data.type === 'shop') {
    const parsed = roomShopSchema.safeParse(data.shop);
    return parsed.success ? { type: 'shop', shop: parsed.data } : null;
  }
  if (data.type === 'stock') {
    const { productId, stock, version } = data;
    if (typeof productId !== 'string' || typeof stock !== 'number' || typeof version !== 'number')
      return null;
    return {
      type: 'stock',
      productId,
      stock,
      version,
      ...(typeof data.offerRemaining === 'number' ? { offerRemaining: data.offerRemaining } : {}),
    };
  }
  return null;
}

/** The pinned products in pin order (an id whose product left the lineup is skipped). */
export function pinnedProducts(shop: ShopState): RoomShop['lineup'] {
  if (!shop) return [];
  return shop.pinned.flatMap((id) => shop.lineup.filter((product) => product.id === id));
}

/** The whole lineup for the show's shop: the pinned products first (in pin order), then the rest in lineup order. */
export function shopLineup(shop: ShopState): RoomShop['lineup'] {
  if (!shop) return [];
  const pinned = pinnedProducts(shop);
  return [...pinned, ...shop.lineup.filter((product) => !shop.pinned.includes(product.id))];
}
