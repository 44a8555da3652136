import type { Auction } from '@streamshop/contract/auctions.ts';
import { useMutation } from '@tanstack/react-query';
import { CircleAlert, PartyPopper } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SaveCardForm } from '../../components/save-card/save-card-form.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { payAuction } from './auction-api.ts';
import { auctionOutcome } from './auction-parts.tsx';

/** The declined winner pays with another card before `payBy`: save it, then POST /pay. */
function PayAgain({ auction, onPaid }: { auction: Auction; onPaid: (auction: Auction) => void }) {
  const [open, setOpen] = useState(false);
  const pay = useMutation({ mutationFn: () => payAuction(auction.id), onSuccess: onPaid });
  const payBy = auction.result?.payBy;
  const until = payBy
    ? new Date(payBy).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
    : null;
  return (
    <div className="grid gap-2 rounded-lg border border-destructive/60 p-3" data-testid="auction-declined">
      <p className="flex items-center gap-2 font-medium text-sm">
        <CircleAlert className="size-4 shrink-0 text-red-400" aria-hidden="true" />
        Your card was declined
      </p>
      <p className="text-muted-foreground text-xs">
        {until ? `Pay with another card by ${until} to keep your win.` : 'Pay with another card.'}
      </p>
      {pay.isError ? (
        <p className="text-red-400 text-sm" role="alert">
          {errorMessage(pay.error, 'The payment did not go through. Try another card.')}
        </p>
      ) : null}
      {open ? (
        <SaveCardForm onSaved={() => pay.mutate()} />
      ) : (
        <Button
          size="sm"
          className="justify-self-start"
          onClick={() => setOpen(true)}
          data-testid="auction-pay-again"
        >
          Pay with another card
        </Button>
      )}
    </div>
  );
}

/**
 * How the auction ended for this viewer: "Sold to @handle for $X" (the exact words everyone
 * sees), "You won!" with the order once paid or another card after a decline, or "No bids".
 */
export function AuctionResult({
  auction,
  me,
  onView,
}: {
  auction: Auction;
  me: string | null;
  onView: (auction: Auction) => void;
}) {
  const result = auction.result;
  const won = result !== null && me !== null && result.winner.handle === me;
  const payOpen = result?.payBy ? Date.parse(result.payBy) > Date.now() : false;
  return (
    <div className="grid gap-2" data-testid="auction-result">
      <p className="font-semibold text-lg" data-testid="auction-outcome">
        {auctionOutcome(auction)}
      </p>
      {won && result ? (
        <div className="grid gap-2">
          <p className="flex items-center gap-2 font-semibold text-primary" data-testid="auction-you-won">
            <PartyPopper className="size-5" aria-hidden="true" />
            You won!
          </p>
          {result.payment === 'pending' ? (
            <p className="text-muted-foreground text-sm">Charging your saved card…</p>
          ) : null}
          {result.payment === 'paid' ? (
            <Link
              to="/dashboard?tab=orders"
              className={buttonClasses({ size: 'sm', variant: 'outline', className: 'justify-self-start' })}
              data-testid="auction-order-link"
            >
              See your order
            </Link>
          ) : null}
          {result.payment === 'declined' && payOpen ? <PayAgain auction={auction} onPaid={onView} /> : null}
          {result.payment === 'declined' && !payOpen ? (
            <p className="text-muted-foreground text-sm">Your card was declined and the time to pay is up.</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
