import {
  type Giveaway,
  type GiveawayAudience,
  type GiveawayEvent,
  giveawaySchema,
} from '@streamshop/contract/giveaways.ts';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import { serverClockOffsetMs } from './offer-clock.ts';

/** The room's giveaway as this viewer knows it. */
export interface GiveawayState {
  /** The running giveaway, or the last one (its result); null when the room has none. */
  giveaway: Giveaway | null;
  /** How far the server's clock is ahead of this browser's, from the kept view's `serverNow`. */
  offsetMs: number;
  /** When (this browser's clock) the kept view arrived. */
  receivedAt: number;
}

export const initialGiveawayState: GiveawayState = { giveaway: null, offsetMs: 0, receivedAt: 0 };

export type GiveawayAction =
  /** A whole view: a socket event's, GET current's or by id, or the answer of a start, entry or cancel. */
  | { type: 'view'; giveaway: Giveaway; receivedAt: number }
  /** GET current answered that the room has none (asked at `sentAt`). */
  | { type: 'none'; sentAt: number }
  /** The server said the viewer had entered already (409 ALREADY_ENTERED). */
  | { type: 'entered'; giveawayId: string };

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

const over = (giveaway: Giveaway) => giveaway.status !== 'running';

/**
 * Whether `next` should replace `current`. Views carry no version: a giveaway that started later
 * is a new one; of one giveaway an end (drawn, cancelled) is never undone by a running view that
 * arrives late, and otherwise the view computed last wins.
 */
function isNewer(current: Giveaway | null, next: Giveaway): boolean {
  if (!current) return true;
  if (current.id !== next.id) return time(next.startedAt) >= time(current.startedAt);
  if (over(current) !== over(next)) return over(next);
  return time(next.serverNow) >= time(current.serverNow);
}

/**
 * One giveaway's views put together: the room's events are the public view (nobody's entry, no
 * order id), so what this viewer's own answers said is kept, and entries only ever add up.
 */
function merged(kept: Giveaway, other: Giveaway): Giveaway {
  return {
    ...kept,
    entered: kept.entered || other.entered,
    orderId: kept.orderId ?? other.orderId,
    entryCount: Math.max(kept.entryCount, other.entryCount),
  };
}

export function giveawayReducer(state: GiveawayState, action: GiveawayAction): GiveawayState {
  switch (action.type) {
    case 'view': {
      const { giveaway, receivedAt } = action;
      const current = state.giveaway;
      const same = current?.id === giveaway.id;
      if (!isNewer(current, giveaway)) {
        return same && current ? { ...state, giveaway: merged(current, giveaway) } : state;
      }
      return {
        giveaway: same && current ? merged(giveaway, current) : giveaway,
        offsetMs: serverClockOffsetMs(giveaway.serverNow, receivedAt),
        receivedAt,
      };
    }
    case 'none':
      // A GET sent before the view we keep arrived may be older than it: keep the view.
      if (!state.giveaway || state.receivedAt > action.sentAt) return state;
      return initialGiveawayState;
    case 'entered': {
      const current = state.giveaway;
      if (!current || current.id !== action.giveawayId || current.entered) return state;
      return { ...state, giveaway: { ...current, entered: true } };
    }
    default:
      return state;
  }
}

export function isGiveawayEvent(message: ServerMessage): message is GiveawayEvent {
  return message.type === 'giveaway';
}

/** Reads a `giveaway` frame of /ws?room=…; a malformed one is null. */
export function parseGiveawayEvent(data: Record<string, unknown>): GiveawayEvent | null {
  const parsed = giveawaySchema.safeParse(data.giveaway);
  return parsed.success ? { type: 'giveaway', giveaway: parsed.data } : null;
}

/** Who may enter, in the dialog's and the card's words. */
export const AUDIENCE_LABELS: Record<GiveawayAudience, string> = {
  everyone: 'Everyone',
  followers: 'Followers only',
  buyers: 'Buyers of this show',
};

/** The card's note under the product: who may enter. */
export function audienceNote(audience: GiveawayAudience, hostHandle: string): string {
  if (audience === 'followers') return hostHandle ? `For followers of @${hostHandle}` : 'For followers only';
  if (audience === 'buyers') return 'For buyers of this show';
  return 'Open to everyone';
}

/** "@handle won <title>", "No entries" or "Giveaway cancelled": how a giveaway that is over ended. */
export function giveawayOutcome(giveaway: Giveaway): string {
  if (giveaway.status === 'cancelled') return 'Giveaway cancelled';
  if (giveaway.winner) return `@${giveaway.winner.handle} won ${giveaway.product.title}`;
  return 'No entries';
}

/** '1 entry', '1,204 entries'. */
export function entryCountText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'entry' : 'entries'}`;
}
