import type {
  Auction,
  PlaceBidBody,
  StartAuctionBody,
  StreamAuctions,
} from '@streamshop/contract/auctions.ts';
import { streamApiPath } from '@streamshop/contract/room-urls.ts';
import type { ShippingAddress } from '@streamshop/contract/shipping.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiPost, parseApiError } from '../../lib/api/client.ts';

export const currentAuctionQueryKey = (roomName: string) =>
  ['/api/streams', roomName, 'auctions', 'current'] as const;

/** GET /api/streams/:name/auctions/current, with the moment it was asked (an older answer than an event is dropped). */
export const currentAuctionQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: currentAuctionQueryKey(roomName),
    queryFn: async () => {
      const sentAt = Date.now();
      const answer = await apiGet<{ auction: Auction | null }>(`${streamApiPath(roomName)}/auctions/current`);
      return { auction: answer.auction, sentAt, receivedAt: Date.now() };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /api/streams/:name/auctions (the seller). */
export const startAuction = (roomName: string, body: StartAuctionBody) =>
  apiPost<Auction>(`${streamApiPath(roomName)}/auctions`, body);

const auctionPath = (auctionId: string, action: string) =>
  `/api/auctions/${encodeURIComponent(auctionId)}/${action}`;

/** POST /api/auctions/:id/bids: 201 the auction (the bidder leads), else an error to read with bidRefusal. */
export const placeBid = (auctionId: string, body: PlaceBidBody) =>
  apiPost<Auction>(auctionPath(auctionId, 'bids'), body);

/** POST /api/auctions/:id/cancel (the seller, before any bid). */
export const cancelAuction = (auctionId: string) => apiPost<Auction>(auctionPath(auctionId, 'cancel'));

/** POST /api/auctions/:id/pay: the winner pays with the card they saved after a decline. */
export const payAuction = (auctionId: string) => apiPost<Auction>(auctionPath(auctionId, 'pay'));

/** POST /api/addresses: saves a shipping address (it becomes the default an auction win ships to). */
export const saveAddress = (address: ShippingAddress) => apiPost<unknown>('/api/addresses', address);

/** What a refused bid means for the bidder. */
export type BidRefusal =
  | { kind: 'outbid' | 'too_low' | 'ended'; message: string; minNextBidCents: number | null }
  | { kind: 'payment_method_required'; message: string }
  | { kind: 'rate_limited'; message: string }
  | { kind: 'other'; message: string };

const CODES = { OUTBID: 'outbid', TOO_LOW: 'too_low', AUCTION_ENDED: 'ended' } as const;

/** Reads a failed bid (409 OUTBID/TOO_LOW/AUCTION_ENDED, 402, 429, ...) into words to show. */
export function bidRefusal(error: unknown): BidRefusal {
  const { status, body } = parseApiError(error);
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : null;
  const code = typeof body?.code === 'string' ? body.code : '';
  if (status === 409 && code in CODES) {
    const min = (body as { minNextBidCents?: unknown }).minNextBidCents;
    return {
      kind: CODES[code as keyof typeof CODES],
      message: message ?? 'Your bid was not taken.',
      minNextBidCents: typeof min === 'number' ? min : null,
    };
  }
  if (status === 402) {
    return { kind: 'payment_method_required', message: message ?? 'Add a card before you bid.' };
  }
  if (status === 429) {
    return { kind: 'rate_limited', message: 'You are bidding too fast. Wait a moment and try again.' };
  }
  return { kind: 'other', message: message ?? 'Your bid could not be placed. Try again.' };
}

/** GET /api/streams/:name/auctions: every auction of the stream (the replay's auction chapters). */
export const streamAuctionsQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: ['/api/streams', roomName, 'auctions'] as const,
    queryFn: () => apiGet<StreamAuctions>(`${streamApiPath(roomName)}/auctions`),
  });

/** POST /api/auction-blocks: the seller blocks an account from bidding in their auctions. */
export const blockBidder = (handle: string) => apiPost<unknown>('/api/auction-blocks', { handle });

/** POST /api/auctions/:id/runner-up: after a declined winner's time to pay, the next bidder wins at their bid. */
export const offerToRunnerUp = (auctionId: string) => apiPost<Auction>(auctionPath(auctionId, 'runner-up'));
