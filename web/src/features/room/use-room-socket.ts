import type { ClientMessage, ServerMessage } from '@streamshop/contract/live.ts';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { type ConnectionStatus, RealtimeSocket } from '../../lib/realtime.ts';
import { isAuctionEvent } from './auction-state.ts';
import { initialRoomState, parseServerMessage, roomReducer } from './chat-state.ts';
import { isGiveawayEvent } from './giveaway-state.ts';
import { isShopEvent } from './shop-state.ts';
import { useRoomAuction } from './use-room-auction.ts';
import { GIVEAWAY_POLL_MS, useRoomGiveaway } from './use-room-giveaway.ts';
import { useRoomShop } from './use-room-shop.ts';

/** How long a server error (rate limit, muted...) stays under the chat input. */
const ERROR_VISIBLE_MS = 5000;

/**
 * The room's chat and status connection (/ws?room={name}): messages, viewer count, stream
 * start/end, the room's shop (pins, offers, stock), its auction (`viewerHandle` tells whose lead
 * it is) and its giveaway (the seller's `isHost` count is read more often). Opens only when
 * `enabled` (the room exists) and closes on unmount.
 */
export function useRoomSocket(
  roomName: string,
  enabled: boolean,
  viewerHandle: string | null = null,
  isHost = false,
) {
  const [state, dispatch] = useReducer(roomReducer, initialRoomState);
  const [status, setStatus] = useState<ConnectionStatus>('closed');
  const socketRef = useRef<RealtimeSocket<ServerMessage, ClientMessage> | null>(null);
  const { shop, apply: applyShopEvent, loadFailed: shopLoadFailed } = useRoomShop(roomName, enabled, status);
  const auction = useRoomAuction(roomName, enabled, status, viewerHandle);
  const { apply: applyAuctionEvent } = auction;
  const giveaway = useRoomGiveaway(
    roomName,
    enabled,
    status,
    viewerHandle,
    isHost ? GIVEAWAY_POLL_MS.seller : GIVEAWAY_POLL_MS.viewer,
  );
  const { apply: applyGiveawayEvent } = giveaway;

  useEffect(() => {
    if (!enabled) return;
    const socket = new RealtimeSocket({
      path: `/ws?room=${encodeURIComponent(roomName)}`,
      parse: parseServerMessage,
      onMessage: (message) => {
        if (isShopEvent(message)) applyShopEvent(message);
        else if (isAuctionEvent(message)) applyAuctionEvent(message);
        else if (isGiveawayEvent(message)) applyGiveawayEvent(message);
        else dispatch(message);
      },
      onStatus: (next) => setStatus(next),
    });
    socketRef.current = socket;
    socket.connect();
    return () => {
      socket.close();
      if (socketRef.current === socket) socketRef.current = null;
    };
  }, [roomName, enabled, applyShopEvent, applyAuctionEvent, applyGiveawayEvent]);

  useEffect(() => {
    if (!state.error) return;
    const timer = setTimeout(() => dispatch({ type: 'clear_error' }), ERROR_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [state.error]);

  const send = useCallback((message: ClientMessage): boolean => {
    const sent = socketRef.current?.send(message) ?? false;
    if (sent) dispatch({ type: 'clear_error' });
    return sent;
  }, []);

  return { state, status, send, shop, shopLoadFailed, auction, giveaway };
}
