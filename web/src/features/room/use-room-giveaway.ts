import type { Giveaway, GiveawayEvent } from '@streamshop/contract/giveaways.ts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { secondsUntil } from '../../lib/countdown.ts';
import type { ConnectionStatus } from '../../lib/realtime.ts';
import { useNow } from '../../lib/use-now.ts';
import { currentGiveawayQueryOptions, fetchGiveaway } from './giveaway-api.ts';
import { type GiveawayState, giveawayReducer, initialGiveawayState } from './giveaway-state.ts';

/** How often the clock is redrawn: often enough that the last second never lags by one. */
const GIVEAWAY_TICK_MS = 250;

/**
 * How often a running giveaway is read again. The room hears of a start, a cancel and the draw,
 * not of each entry: the entry count comes from here (the seller's card more often), and so does
 * the draw if its event was missed.
 */
export const GIVEAWAY_POLL_MS = { seller: 3000, viewer: 10_000 } as const;

export interface RoomGiveaway extends GiveawayState {
  /** The viewer's handle (null signed out): who won, whose entry. */
  me: string | null;
  /** Applies a room event (socket). */
  apply: (event: GiveawayEvent) => void;
  /** Applies a whole view (a start's, an entry's or a cancel's answer). */
  applyView: (giveaway: Giveaway) => void;
  /** The server answered that the viewer had entered already. */
  markEntered: (giveawayId: string) => void;
}

/**
 * The room's giveaway: GET current on joining and after each reconnect (events sent meanwhile were
 * missed), the socket's giveaway events on top, and the running one read again every `pollMs`.
 * Once drawn, the winner reads it once more as themself: the room's event has no order id.
 */
export function useRoomGiveaway(
  roomName: string,
  enabled: boolean,
  status: ConnectionStatus,
  me: string | null,
  pollMs: number = GIVEAWAY_POLL_MS.viewer,
): RoomGiveaway {
  const [state, dispatch] = useReducer(giveawayReducer, initialGiveawayState);
  const { data, refetch } = useQuery({ ...currentGiveawayQueryOptions(roomName), enabled });

  useEffect(() => {
    if (!data) return;
    if (data.giveaway) dispatch({ type: 'view', giveaway: data.giveaway, receivedAt: data.receivedAt });
    else dispatch({ type: 'none', sentAt: data.sentAt });
  }, [data]);

  const wasOpen = useRef(false);
  useEffect(() => {
    if (status !== 'open') return;
    if (wasOpen.current) void refetch();
    wasOpen.current = true;
  }, [status, refetch]);

  const giveawayId = state.giveaway?.id;
  const running = state.giveaway?.status === 'running';
  useEffect(() => {
    if (!enabled || !giveawayId || !running) return;
    const timer = setInterval(() => {
      // A hidden tab is not looking at the count; the room's events still bring the draw.
      if (document.visibilityState === 'hidden') return;
      fetchGiveaway(giveawayId).then(
        (giveaway) => dispatch({ type: 'view', giveaway, receivedAt: Date.now() }),
        // A failed read is retried at the next tick.
        () => {},
      );
    }, pollMs);
    return () => clearInterval(timer);
  }, [enabled, giveawayId, running, pollMs]);

  const winner = state.giveaway?.winner?.handle;
  const needsOrder =
    state.giveaway?.status === 'drawn' && me !== null && winner === me && !state.giveaway.orderId;
  useEffect(() => {
    if (!needsOrder || !giveawayId) return;
    fetchGiveaway(giveawayId).then(
      (giveaway) => dispatch({ type: 'view', giveaway, receivedAt: Date.now() }),
      // Without it the card still says "You won!" and links to the orders.
      () => {},
    );
  }, [needsOrder, giveawayId]);

  const apply = useCallback(
    (event: GiveawayEvent) => dispatch({ type: 'view', giveaway: event.giveaway, receivedAt: Date.now() }),
    [],
  );
  const applyView = useCallback(
    (next: Giveaway) => dispatch({ type: 'view', giveaway: next, receivedAt: Date.now() }),
    [],
  );
  const markEntered = useCallback((giveawayId: string) => dispatch({ type: 'entered', giveawayId }), []);

  return useMemo(
    () => ({ ...state, me, apply, applyView, markEntered }),
    [state, me, apply, applyView, markEntered],
  );
}

/**
 * Whole seconds left of the running giveaway by the server's clock (this browser's corrected by
 * the offset measured when the view arrived), ticking while it runs; 0 once it is not running.
 */
export function useGiveawaySecondsLeft(state: Pick<GiveawayState, 'giveaway' | 'offsetMs'>): number {
  const running = state.giveaway?.status === 'running';
  const now = useNow(running, GIVEAWAY_TICK_MS);
  if (!running || !state.giveaway) return 0;
  return secondsUntil(state.giveaway.endsAt, now + state.offsetMs) ?? 0;
}
