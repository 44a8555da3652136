import { useMutation } from '@tanstack/react-query';
import { Square } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { cancelAuction } from './auction-api.ts';
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
export function SellerAuctionCard({ room, canCancel }: { room: RoomAuction; canCancel: boolean }) {
  const auction = room.auction;
  const secondsLeft = useAuctionSecondsLeft(room);
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
      <BidHistory auction={auction} />
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
