import type { Auction, AuctionEvent } from '@streamshop/contract/auctions.ts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { secondsUntil } from '../../lib/countdown.ts';
import type { ConnectionStatus } from '../../lib/realtime.ts';
import { useNow } from '../../lib/use-now.ts';
import { currentAuctionQueryOptions } from './auction-api.ts';
import { type AuctionState, auctionAction, auctionReducer, initialAuctionState } from './auction-state.ts';

/** How often the auction's clock is redrawn: often enough that the last seconds never lag by one. */
const AUCTION_TICK_MS = 250;

export interface RoomAuction extends AuctionState {
  /** The viewer's handle (null signed out): whose lead and win the card shows. */
  me: string | null;
  /** Applies a room event (socket). */
  apply: (event: AuctionEvent) => void;
  /** Applies a whole view (a bid's or a start's answer). */
  applyView: (auction: Auction) => void;
  /** The viewer's bid was overtaken (409 OUTBID). */
  markOutbid: () => void;
  dismissOutbid: () => void;
}

/**
 * The room's auction: GET current on joining and again after each reconnect (events sent meanwhile
 * were missed), then the socket's auction events on top, newest version kept (auction-state.ts).
 */
export function useRoomAuction(
  roomName: string,
  enabled: boolean,
  status: ConnectionStatus,
  me: string | null,
): RoomAuction {
  const [state, dispatch] = useReducer(auctionReducer, initialAuctionState);
  const meRef = useRef(me);
  meRef.current = me;
  const { data, refetch } = useQuery({ ...currentAuctionQueryOptions(roomName), enabled });

  useEffect(() => {
    if (!data) return;
    if (data.auction) {
      dispatch({ type: 'view', auction: data.auction, receivedAt: data.receivedAt, me: meRef.current });
    } else dispatch({ type: 'none', sentAt: data.sentAt });
  }, [data]);

  const wasOpen = useRef(false);
  useEffect(() => {
    if (status !== 'open') return;
    if (wasOpen.current) void refetch();
    wasOpen.current = true;
  }, [status, refetch]);

  const apply = useCallback(
    (event: AuctionEvent) => dispatch(auctionAction(event, Date.now(), meRef.current)),
    [],
  );
  const applyView = useCallback(
    (auction: Auction) => dispatch({ type: 'view', auction, receivedAt: Date.now(), me: meRef.current }),
    [],
  );
  const markOutbid = useCallback(() => dispatch({ type: 'outbid' }), []);
  const dismissOutbid = useCallback(() => dispatch({ type: 'dismiss_outbid' }), []);

  return useMemo(
    () => ({ ...state, me, apply, applyView, markOutbid, dismissOutbid }),
    [state, me, apply, applyView, markOutbid, dismissOutbid],
  );
}

/**
 * Whole seconds left of the running auction by the server's clock (this browser's clock corrected
 * by the offset measured when the view arrived), ticking while it runs; 0 once it is not running.
 */
export function useAuctionSecondsLeft(state: Pick<AuctionState, 'auction' | 'offsetMs'>): number {
  const running = state.auction?.status === 'running';
  const now = useNow(running, AUCTION_TICK_MS);
  if (!running || !state.auction) return 0;
  return secondsUntil(state.auction.endsAt, now + state.offsetMs) ?? 0;
}
