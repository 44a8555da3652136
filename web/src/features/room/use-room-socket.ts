import type { ClientMessage, ServerMessage } from '@streamshop/contract/live.ts';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { type ConnectionStatus, RealtimeSocket } from '../../lib/realtime.ts';
import { initialRoomState, parseServerMessage, roomReducer } from './chat-state.ts';
import { isShopEvent } from './shop-state.ts';
import { useRoomShop } from './use-room-shop.ts';

/** How long a server error (rate limit, muted...) stays under the chat input. */
const ERROR_VISIBLE_MS = 5000;

/**
 * The room's chat and status connection (/ws?room={name}): messages, viewer count, stream
 * start/end, and the room's shop (pins, offers, stock). Opens only when `enabled` (the room
 * exists) and closes on unmount.
 */
export function useRoomSocket(roomName: string, enabled: boolean) {
  const [state, dispatch] = useReducer(roomReducer, initialRoomState);
  const [status, setStatus] = useState<ConnectionStatus>('closed');
  const socketRef = useRef<RealtimeSocket<ServerMessage, ClientMessage> | null>(null);
  const { shop, apply: applyShopEvent, loadFailed: shopLoadFailed } = useRoomShop(roomName, enabled, status);

  useEffect(() => {
    if (!enabled) return;
    const socket = new RealtimeSocket({
      path: `/ws?room=${encodeURIComponent(roomName)}`,
      parse: parseServerMessage,
      onMessage: (message) => (isShopEvent(message) ? applyShopEvent(message) : dispatch(message)),
      onStatus: (next) => setStatus(next),
    });
    socketRef.current = socket;
    socket.connect();
    return () => {
      socket.close();
      if (socketRef.current === socket) socketRef.current = null;
    };
  }, [roomName, enabled, applyShopEvent]);

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

  return { state, status, send, shop, shopLoadFailed };
}
