import { type Auction, type AuctionEvent, auctionSchema } from '@streamshop/contract/auctions.ts';
import type { ServerMessage } from '@streamshop/contract/live.ts';
import { serverClockOffsetMs } from './offer-clock.ts';

/** The room's auction as this viewer knows it. */
export interface AuctionState {
  /** The running auction, or the last one (its result); null when the room has none. */
  auction: Auction | null;
  /** How far the server's clock is ahead of this browser's, from the view's `serverNow`. */
  offsetMs: number;
  /** When (this browser's clock) the kept view arrived. */
  receivedAt: number;
  /** The viewer led and another bidder took the lead, or their bid was overtaken (409 OUTBID). */
  outbid: boolean;
}

export const initialAuctionState: AuctionState = { auction: null, offsetMs: 0, receivedAt: 0, outbid: false };

export type AuctionAction =
  /** A whole view: a socket event's, GET current's, or the answer of a bid. `me` is the viewer's handle. */
  | { type: 'view'; auction: Auction; receivedAt: number; me: string | null }
  /** GET current answered that the room has no auction (asked at `sentAt`). */
  | { type: 'none'; sentAt: number }
  | {
      type: 'extended';
      auctionId: string;
      endsAt: string;
      serverNow: string;
      version: number;
      receivedAt: number;
    }
  /** The viewer's bid was taken but another maximum is higher (409 OUTBID). */
  | { type: 'outbid' }
  | { type: 'dismiss_outbid' };

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/** Whether `next` should replace `current`: of one auction the higher version; a new auction if computed later. */
function isNewer(current: Auction | null, next: Auction): boolean {
  if (!current) return true;
  if (current.id === next.id) return next.version > current.version;
  return time(next.serverNow) >= time(current.serverNow);
}

const leads = (auction: Auction | null, me: string | null) =>
  me !== null && auction?.leader?.handle === me && auction.status === 'running';

/**
 * Keeps the newest view of the room's auction: events may cross instances, so of two views of one
 * auction the higher `version` wins. The viewer is outbid when a newer view of the same auction
 * takes the lead away from them.
 */
export function auctionReducer(state: AuctionState, action: AuctionAction): AuctionState {
  switch (action.type) {
    case 'view': {
      const { auction, receivedAt, me } = action;
      if (!isNewer(state.auction, auction)) return state;
      const sameAuction = state.auction?.id === auction.id;
      const lostLead = sameAuction && leads(state.auction, me) && auction.leader?.handle !== me;
      const leadsNow = me !== null && auction.leader?.handle === me;
      const outbid =
        auction.status !== 'running' ? false : leadsNow ? false : lostLead || (sameAuction && state.outbid);
      return {
        auction,
        offsetMs: serverClockOffsetMs(auction.serverNow, receivedAt),
        receivedAt,
        outbid,
      };
    }
    case 'none':
      // A GET sent before the view we keep arrived may be older than it: keep the view.
      if (!state.auction || state.receivedAt > action.sentAt) return state;
      return initialAuctionState;
    case 'extended': {
      const current = state.auction;
      if (!current || current.id !== action.auctionId || action.version <= current.version) return state;
      return {
        ...state,
        auction: { ...current, endsAt: action.endsAt, serverNow: action.serverNow, version: action.version },
        offsetMs: serverClockOffsetMs(action.serverNow, action.receivedAt),
        receivedAt: action.receivedAt,
      };
    }
    case 'outbid':
      return state.auction?.status === 'running' ? { ...state, outbid: true } : state;
    case 'dismiss_outbid':
      return state.outbid ? { ...state, outbid: false } : state;
    default:
      return state;
  }
}

/** The reducer's action for a room event. */
export function auctionAction(event: AuctionEvent, receivedAt: number, me: string | null): AuctionAction {
  if (event.type === 'auction_extended') {
    const { auctionId, endsAt, serverNow, version } = event;
    return { type: 'extended', auctionId, endsAt, serverNow, version, receivedAt };
  }
  return { type: 'view', auction: event.auction, receivedAt, me };
}

export function isAuctionEvent(message: ServerMessage): message is AuctionEvent {
  return message.type.startsWith('auction_');
}

/** Reads the auction frames of /ws?room=…; a malformed one is null. */
export function parseAuctionEvent(data: Record<string, unknown>): AuctionEvent | null {
  const { auctionId, serverNow } = data;
  if (typeof auctionId !== 'string' || typeof serverNow !== 'string') return null;
  if (data.type === 'auction_extended') {
    const { endsAt, version } = data;
    if (typeof endsAt !== 'string' || typeof version !== 'number') return null;
    return { type: 'auction_extended', auctionId, serverNow, endsAt, version };
  }
  const parsed = auctionSchema.safeParse(data.auction);
  if (!parsed.success) return null;
  const auction = parsed.data;
  switch (data.type) {
    case 'auction_started':
      return { type: 'auction_started', auctionId, serverNow, auction };
    case 'auction_bid':
      return {
        type: 'auction_bid',
        auctionId,
        serverNow,
        currentBidCents: auction.currentBidCents ?? auction.startingBidCents,
        leader: auction.leader,
        endsAt: auction.endsAt,
        auction,
      };
    case 'auction_ended':
      return {
        type: 'auction_ended',
        auctionId,
        serverNow,
        winner: auction.result?.winner ?? null,
        priceCents: auction.result?.priceCents ?? null,
        auction,
      };
    default:
      return null;
  }
}

/** The seconds left under which the clock turns urgent (and is announced once). */
export const AUCTION_URGENT_SECONDS = 10;
