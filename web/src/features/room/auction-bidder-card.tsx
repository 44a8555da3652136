import { AUCTION_MESSAGES } from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Gavel, LogIn, TrendingDown } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { parseMaxBid } from './auction-bid-form.ts';
import { AuctionAnnouncer, AuctionHeading, AuctionPrice, BidHistory } from './auction-parts.tsx';
import { AuctionResult } from './auction-result.tsx';
import { FirstBidSheet } from './first-bid-sheet.tsx';
import { usePlaceBid } from './use-place-bid.ts';
import { type RoomAuction, useAuctionSecondsLeft } from './use-room-auction.ts';

/** How long an auction's result stays up for those who did not win (the server keeps it a minute). */
const RESULT_SHOWN_MS = 60_000;

/** The bid button and the Max bid field of a running auction (signed in). */
function BidControls({ room, secondsLeft }: { room: RoomAuction; secondsLeft: number }) {
  const auction = room.auction;
  const bids = usePlaceBid(room);
  const [maxBid, setMaxBid] = useState('');
  const [maxError, setMaxError] = useState<string | null>(null);
  const ids = { max: useId(), maxHint: useId(), refusal: useId() };
  if (!auction) return null;
  const closed = secondsLeft === 0;
  const next = auction.minNextBidCents;
  const leading = room.me !== null && auction.leader?.handle === room.me;

  const submitMax = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMaxBid(maxBid, next);
    if (!parsed.ok) {
      setMaxError(parsed.error);
      return;
    }
    setMaxError(null);
    if (await bids.bidMax(auction.id, parsed.cents)) setMaxBid('');
  };

  return (
    <div className="grid gap-3">
      {room.outbid ? (
        <div
          className="flex items-start gap-2 rounded-lg border border-destructive bg-destructive/15 p-3 text-sm"
          role="alert"
          data-testid="auction-outbid"
        >
          <TrendingDown className="mt-0.5 size-4 shrink-0 text-red-400" aria-hidden="true" />
          <p>
            <span className="font-semibold">You've been outbid.</span>{' '}
            {bids.refusal?.kind === 'outbid'
              ? AUCTION_MESSAGES.outbid(formatCents(next))
              : `The next bid is ${formatCents(next)}.`}
          </p>
        </div>
      ) : null}
      {leading ? (
        <p className="font-medium text-primary text-sm" data-testid="auction-you-lead">
          You're the highest bidder.
        </p>
      ) : null}
      <Button
        size="lg"
        className="w-full"
        onClick={() => void bids.bidNow(auction.id, next)}
        disabled={bids.pending || closed}
        aria-describedby={bids.refusal && bids.refusal.kind !== 'outbid' ? ids.refusal : undefined}
        data-testid="auction-bid"
      >
        <Gavel aria-hidden="true" />
        Bid {formatCents(next)}
      </Button>
      {/* An overtaken bid is said in the outbid notice above. */}
      {bids.refusal && bids.refusal.kind !== 'outbid' ? (
        <div className="flex flex-wrap items-center gap-2" data-testid="auction-bid-error">
          <p id={ids.refusal} className="text-red-400 text-sm" role="alert">
            {bids.refusal.message}
          </p>
          {bids.canRetry ? (
            <Button size="sm" variant="outline" onClick={() => void bids.retry()} disabled={bids.pending}>
              Try again
            </Button>
          ) : null}
        </div>
      ) : null}
      <form className="grid gap-1.5" onSubmit={(event) => void submitMax(event)} noValidate>
        <Label htmlFor={ids.max}>Max bid ($)</Label>
        <div className="flex gap-2">
          <Input
            id={ids.max}
            inputMode="decimal"
            autoComplete="off"
            placeholder={(next / 100).toFixed(2)}
            value={maxBid}
            onChange={(event) => {
              setMaxBid(event.target.value);
              setMaxError(null);
            }}
            aria-invalid={maxError ? true : undefined}
            aria-describedby={ids.maxHint}
            data-testid="auction-max-bid"
          />
          <Button
            type="submit"
            variant="secondary"
            disabled={bids.pending || closed}
            data-testid="auction-max-bid-submit"
          >
            Set max
          </Button>
        </div>
        {maxError ? (
          <p
            id={ids.maxHint}
            className="text-red-400 text-sm"
            role="alert"
            data-testid="auction-max-bid-error"
          >
            {maxError}
          </p>
        ) : (
          <p id={ids.maxHint} className="text-muted-foreground text-xs">
            We bid for you, one step at a time, up to this amount.
          </p>
        )}
      </form>
      <FirstBidSheet
        product={auction.product}
        open={bids.needsSetup !== null}
        onClose={bids.closeSetup}
        onReady={() => void bids.retryAfterSetup()}
      />
    </div>
  );
}

/**
 * The room's auction for viewers, over the video's edge (under it on a phone): the product, the
 * price and leader, the clock, one-tap and maximum bids, the latest bids, and how it ended.
 */
export function AuctionBidderCard({
  room,
  compact = false,
}: {
  room: RoomAuction;
  /** Over the phone room's video: tighter, two latest bids, so more of the picture stays in sight. */
  compact?: boolean;
}) {
  const location = useLocation();
  const secondsLeft = useAuctionSecondsLeft(room);
  const auction = room.auction;
  const [hiddenId, setHiddenId] = useState<string | null>(null);
  const running = auction?.status === 'running';
  const won = auction?.result != null && room.me !== null && auction.result.winner.handle === room.me;

  // The result stays up a minute for the room; the winner keeps it (their order, or paying again).
  const auctionId = auction?.id;
  useEffect(() => {
    if (!auctionId || running || won) return;
    const timer = setTimeout(() => setHiddenId(auctionId), RESULT_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [auctionId, running, won]);

  if (!auction || auction.id === hiddenId) return null;
  const next = `${location.pathname}${location.search}`;
  return (
    <Card
      className={compact ? 'grid gap-2 bg-card/90 p-3 backdrop-blur' : 'grid gap-3 p-4'}
      role="region"
      aria-label="Live auction"
      data-testid="auction-card"
      data-status={auction.status}
    >
      <AuctionHeading auction={auction} secondsLeft={secondsLeft} />
      {/* Two columns from sm up, so the bid button is in sight under the video on a laptop. */}
      <div className="grid gap-3 sm:grid-cols-2 sm:items-start">
        <div className="grid gap-3">
          <AuctionPrice auction={auction} me={room.me} />
          <BidHistory auction={auction} limit={compact ? 2 : 3} />
        </div>
        <div className="grid gap-3">
          {running && room.me !== null ? <BidControls room={room} secondsLeft={secondsLeft} /> : null}
          {running && room.me === null ? (
            <Link
              to={`/signin?next=${encodeURIComponent(next)}`}
              className={buttonClasses({ size: 'lg', className: 'w-full' })}
              data-testid="auction-sign-in"
            >
              <LogIn aria-hidden="true" />
              Sign in to bid
            </Link>
          ) : null}
          {running ? null : <AuctionResult auction={auction} me={room.me} onView={room.applyView} />}
        </div>
      </div>
      <AuctionAnnouncer auction={auction} secondsLeft={secondsLeft} />
    </Card>
  );
}
