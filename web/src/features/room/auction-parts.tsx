import { AUCTION_MESSAGES, type Auction } from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Gavel, Timer, Zap } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCountdown } from '../../lib/countdown.ts';
import { AUCTION_URGENT_SECONDS } from './auction-state.ts';

/** "Sold to @handle for $X", "No bids" or "Auction cancelled": how an auction that is over ended. */
export function auctionOutcome(auction: Auction): string {
  if (auction.status === 'cancelled') return 'Auction cancelled';
  if (auction.result)
    return AUCTION_MESSAGES.soldTo(auction.result.winner.handle, formatCents(auction.result.priceCents));
  return 'No bids';
}

/** The auction's title line: "Live auction", the sudden-death badge and the clock (mm:ss, urgent under 10 s). */
export function AuctionHeading({ auction, secondsLeft }: { auction: Auction; secondsLeft: number }) {
  const running = auction.status === 'running';
  const urgent = running && secondsLeft <= AUCTION_URGENT_SECONDS;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="flex items-center gap-2 font-semibold">
        <Gavel className="size-4 text-primary" aria-hidden="true" />
        Live auction
      </h2>
      {auction.suddenDeath ? (
        <Badge variant="destructive" className="gap-1" data-testid="auction-sudden-death">
          <Zap className="size-3" aria-hidden="true" />
          Sudden death
        </Badge>
      ) : null}
      {running && secondsLeft > 0 ? (
        <p
          className={cn(
            'ml-auto flex items-center gap-1 rounded-md px-2 py-0.5 font-semibold text-sm tabular-nums',
            urgent ? 'bg-destructive text-destructive-foreground' : 'bg-muted text-foreground',
          )}
          data-testid="auction-time-left"
          data-urgent={urgent}
        >
          <Timer className="size-4" aria-hidden="true" />
          <span className="sr-only">Time left </span>
          {formatCountdown(secondsLeft)}
        </p>
      ) : (
        <Badge variant="secondary" className="ml-auto" data-testid="auction-closed">
          {running ? 'Closing…' : 'Ended'}
        </Badge>
      )}
    </div>
  );
}

/** The product, the price ("Current bid" or "Starting bid") and the leader, "(you)" when it is the viewer. */
export function AuctionPrice({ auction, me }: { auction: Auction; me: string | null }) {
  const leaderIsMe = me !== null && auction.leader?.handle === me;
  const hasBids = auction.currentBidCents !== null;
  const over = auction.status !== 'running';
  return (
    <div className="flex gap-3">
      <ProductThumb product={auction.product} size="md" />
      <div className="grid min-w-0 flex-1 content-start gap-0.5">
        <p className="truncate font-medium text-sm" data-testid="auction-product-title">
          {auction.product.title}
        </p>
        <p className="text-muted-foreground text-xs">
          {hasBids ? (over ? 'Winning bid' : 'Current bid') : 'Starting bid'}
        </p>
        <p className="font-bold text-2xl tabular-nums leading-tight" data-testid="auction-price">
          {formatCents(auction.currentBidCents ?? auction.startingBidCents)}
        </p>
        {auction.leader ? (
          <p className="text-sm" data-testid="auction-leader">
            <span className="text-muted-foreground">{over ? 'Won by ' : 'Leading: '}</span>
            <span className="font-medium">@{auction.leader.handle}</span>
            {leaderIsMe ? (
              <Badge className="ml-2" data-testid="auction-leader-you">
                @you
              </Badge>
            ) : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The latest bids, newest first; the seller gets a Block button beside each bidder (`onBlock`). */
export function BidHistory({
  auction,
  limit = 4,
  onBlock,
}: {
  auction: Auction;
  limit?: number;
  onBlock?: (handle: string) => void;
}) {
  if (auction.bids.length === 0) return null;
  return (
    <div className="grid gap-1">
      <h3 className="font-medium text-muted-foreground text-xs">Latest bids ({auction.bidCount})</h3>
      <ol className="grid gap-0.5 text-sm" data-testid="auction-bids">
        {auction.bids.slice(0, limit).map((bid) => (
          <li key={`${bid.at}-${bid.handle}-${bid.amountCents}`} className="flex justify-between gap-2">
            <span className="min-w-0 flex-1 truncate">@{bid.handle}</span>
            <span className="tabular-nums">{formatCents(bid.amountCents)}</span>
            {onBlock ? (
              <button
                type="button"
                className="text-muted-foreground text-xs underline-offset-2 hover:text-foreground hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => onBlock(bid.handle)}
                data-testid="auction-block-bidder"
              >
                Block<span className="sr-only"> @{bid.handle} from your auctions</span>
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** What the polite live region may say for this auction now, each once (by key), the latest last. */
function announcementsOf(auction: Auction, secondsLeft: number): Array<{ key: string; text: string }> {
  const { id } = auction;
  if (auction.status !== 'running') return [{ key: `end-${id}`, text: auctionOutcome(auction) }];
  const said: Array<{ key: string; text: string }> = [];
  if (secondsLeft > 0 && secondsLeft <= AUCTION_URGENT_SECONDS) {
    said.push({ key: `urgent-${id}-${auction.endsAt}`, text: `${AUCTION_URGENT_SECONDS} seconds left` });
  }
  said.push(
    auction.leader && auction.currentBidCents !== null
      ? {
          key: `bid-${id}-${auction.currentBidCents}-${auction.leader.handle}`,
          text: `Current bid ${formatCents(auction.currentBidCents)} by @${auction.leader.handle}`,
        }
      : {
          key: `start-${id}`,
          text: `Auction started: starting bid ${formatCents(auction.startingBidCents)}`,
        },
  );
  return said;
}

/**
 * A polite live region for screen readers: each new price and leader ("Current bid $X by
 * @handle"), once when 10 seconds are left, and the end. The ticking clock itself is not announced.
 */
export function AuctionAnnouncer({ auction, secondsLeft }: { auction: Auction; secondsLeft: number }) {
  const candidates = announcementsOf(auction, secondsLeft);
  const keys = candidates.map((candidate) => candidate.key).join('|');
  const said = useRef<Set<string>>(new Set());
  const [message, setMessage] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `keys` names what `candidates` holds.
  useEffect(() => {
    // Each once: a new bid in the last seconds is still said, the 10-seconds warning once per end time.
    const fresh = candidates.filter((candidate) => !said.current.has(candidate.key));
    for (const candidate of fresh) said.current.add(candidate.key);
    const last = fresh.at(-1);
    if (last) setMessage(last.text);
  }, [keys]);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="auction-announcer">
      {message}
    </p>
  );
}
