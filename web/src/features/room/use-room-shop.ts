import { useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import type { ConnectionStatus } from '../../lib/realtime.ts';
import { useNow } from '../../lib/use-now.ts';
import { roomShopQueryOptions } from './api.ts';
import { serverClockOffsetMs } from './offer-clock.ts';
import { initialKnownShop, type ShopState, shopReducer } from './shop-state.ts';

/**
 * The room's shop: GET /shop once, then the socket's `shop` and `stock` events on top (`apply`).
 * After a reconnect the shop is fetched again, since events sent meanwhile were missed.
 */
export function useRoomShop(roomName: string, enabled: boolean, status: ConnectionStatus) {
  const [{ shop }, dispatch] = useReducer(shopReducer, initialKnownShop);
  const query = useQuery({ ...roomShopQueryOptions(roomName), enabled });
  const { data, refetch } = query;

  useEffect(() => {
    if (data) dispatch({ type: 'shop_loaded', shop: data });
  }, [data]);

  const wasOpen = useRef(false);
  useEffect(() => {
    if (status !== 'open') return;
    if (wasOpen.current) void refetch();
    wasOpen.current = true;
  }, [status, refetch]);

  return {
    shop,
    apply: dispatch,
    loadFailed: query.isError && !shop,
  };
}

/**
 * The server's time now, ticking each second while `active`: this browser's clock corrected by
 * the offset measured when the shop's `serverNow` arrived.
 */
export function useServerNow(shop: ShopState, active: boolean): number {
  const serverNow = shop?.serverNow;
  const [offsetMs, setOffsetMs] = useState(0);
  useEffect(() => {
    if (serverNow) setOffsetMs(serverClockOffsetMs(serverNow, Date.now()));
  }, [serverNow]);
  return useNow(active) + offsetMs;
}
