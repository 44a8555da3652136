import { useMutation } from '@tanstack/react-query';
import { Square } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { blockBidder, cancelAuction, offerToRunnerUp } from './auction-api.ts';
import {
  AuctionAnnouncer,
  AuctionHeading,
  AuctionPrice,
  auctionOutcome,
  BidHistory,
} from './auction-parts.tsx';
import { type RoomAuction, useAuctionSecondsLeft } from './use-room-auction.ts';

/**
 * The room's auction in the lineup panel, for the seller and their moderators: the price, the
 * leader, the clock and the bids; the seller may cancel it while nobody has bid.
 */
const formatTime = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })
    : 'a few minutes from the close';

export function SellerAuctionCard({ room, canCancel }: { room: RoomAuction; canCancel: boolean }) {
  const auction = room.auction;
  const secondsLeft = useAuctionSecondsLeft(room);
  const [blocking, setBlocking] = useState<string | null>(null);
  const runnerUp = useMutation({
    mutationFn: offerToRunnerUp,
    onSuccess: room.applyView,
    onError: (error) => errorToast('Error', errorMessage(error, 'The auction could not go to the runner-up')),
  });
  const block = useMutation({
    mutationFn: blockBidder,
    onSuccess: (_answer, handle) => {
      setBlocking(null);
      toast({ title: 'Bidder blocked', description: `@${handle} can no longer bid in your auctions.` });
    },
    onError: (error) => errorToast('Error', errorMessage(error, 'The bidder could not be blocked')),
  });
  const cancel = useMutation({
    mutationFn: cancelAuction,
    onSuccess: room.applyView,
    onError: (error) => errorToast('Error', errorMessage(error, 'The auction could not be cancelled')),
  });
  if (!auction) return null;
  const running = auction.status === 'running';
  return (
    <div
      className="grid gap-3 rounded-lg border border-primary/40 bg-primary/10 p-3"
      data-testid="seller-auction"
      data-status={auction.status}
    >
      <AuctionHeading auction={auction} secondsLeft={secondsLeft} />
      <AuctionPrice auction={auction} me={null} />
      {running ? null : (
        <p className="font-semibold" data-testid="seller-auction-outcome">
          {auctionOutcome(auction)}
          {auction.result?.payment === 'declined' ? ' · the card was declined' : ''}
        </p>
      )}
      {auction.result?.payment === 'declined' && canCancel ? (
        <div className="grid gap-1 text-sm">
          <p className="text-muted-foreground">
            The winner can pay with another card until {formatTime(auction.result.payBy)}. After that, offer
            it to the next highest bidder at their bid, or put it up again.
          </p>
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={() => runnerUp.mutate(auction.id)}
            disabled={runnerUp.isPending}
            data-testid="auction-runner-up"
          >
            Offer to the runner-up
          </Button>
        </div>
      ) : null}
      {/* Blocking is the seller's (the server answers 403 to anyone else, moderators too). */}
      <BidHistory auction={auction} onBlock={canCancel ? setBlocking : undefined} />
      <ConfirmDialog
        open={blocking !== null}
        onOpenChange={(open) => {
          if (!open) setBlocking(null);
        }}
        title={`Block @${blocking ?? ''}?`}
        description="They will not be able to bid in any of your auctions. Their bids so far stand."
        cancelLabel="Keep"
        confirmLabel="Block"
        pending={block.isPending}
        onConfirm={() => {
          if (blocking) block.mutate(blocking);
        }}
        testId="auction-block-dialog"
        confirmTestId="auction-block-confirm"
      />
      {running && canCancel && auction.bidCount === 0 ? (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => cancel.mutate(auction.id)}
          disabled={cancel.isPending}
          data-testid="auction-cancel"
        >
          <Square aria-hidden="true" />
          Cancel auction
        </Button>
      ) : null}
      <AuctionAnnouncer auction={auction} secondsLeft={secondsLeft} />
    </div>
  );
}
