import type { PlaceBidBody } from '@streamshop/contract/auctions.ts';
import { useCallback, useState } from 'react';
import { type BidRefusal, bidRefusal, placeBid } from './auction-api.ts';
import { newClientBidId } from './auction-bid-form.ts';
import type { RoomAuction } from './use-room-auction.ts';

/** One tap: the auction, the body and its clientBidId (kept for a retry of that tap). */
export interface PendingBid {
  auctionId: string;
  body: PlaceBidBody;
}

/**
 * Placing bids: a one-tap bid or a maximum, each tap with a new clientBidId. A taken bid's answer
 * (the auction) is applied at once; 409 OUTBID marks the viewer outbid; 402 keeps the tap for
 * the first-bid sheet, which retries it with the same clientBidId once a card (and address) is saved.
 */
export function usePlaceBid(room: Pick<RoomAuction, 'applyView' | 'markOutbid' | 'dismissOutbid'>) {
  const { applyView, markOutbid, dismissOutbid } = room;
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<BidRefusal | null>(null);
  /** A tap refused with 402: retried once the sheet has saved what was missing. */
  const [needsSetup, setNeedsSetup] = useState<PendingBid | null>(null);
  /** The last tap that failed for a reason a retry may fix (a lost answer, too fast). */
  const [retryable, setRetryable] = useState<PendingBid | null>(null);

  const send = useCallback(
    async (bid: PendingBid): Promise<boolean> => {
      setPending(true);
      setRefusal(null);
      setRetryable(null);
      try {
        applyView(await placeBid(bid.auctionId, bid.body));
        dismissOutbid();
        return true;
      } catch (error) {
        const refused = bidRefusal(error);
        if (refused.kind === 'payment_method_required') setNeedsSetup(bid);
        else {
          if (refused.kind === 'outbid') markOutbid();
          if (refused.kind === 'other' || refused.kind === 'rate_limited') setRetryable(bid);
          setRefusal(refused);
        }
        return false;
      } finally {
        setPending(false);
      }
    },
    [applyView, markOutbid, dismissOutbid],
  );

  return {
    pending,
    refusal,
    needsSetup,
    canRetry: retryable !== null,
    /** One tap at the next bid. */
    bidNow: (auctionId: string, amountCents: number) =>
      send({ auctionId, body: { amountCents, clientBidId: newClientBidId() } }),
    /** A maximum the server bids up to for the viewer. */
    bidMax: (auctionId: string, maxBidCents: number) =>
      send({ auctionId, body: { maxBidCents, clientBidId: newClientBidId() } }),
    /** The failed tap again, with its clientBidId (one bid however often it is sent). */
    retry: () => (retryable ? send(retryable) : Promise.resolve(false)),
    /** The sheet saved a card (and address): the 402'd tap again, same clientBidId. */
    retryAfterSetup: () => {
      const bid = needsSetup;
      setNeedsSetup(null);
      return bid ? send(bid) : Promise.resolve(false);
    },
    closeSetup: () => setNeedsSetup(null),
    clearRefusal: () => setRefusal(null),
  };
}
