import { AUCTION_MESSAGES, type StreamAuction } from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import { Gavel } from 'lucide-react';
import { Card } from '../../components/ui/card.tsx';
import { streamAuctionsQueryOptions } from './auction-api.ts';
import { formatOffset } from './chat-replay.ts';

/** What became of an auction, in words: sold to whom for how much, or not. */
export function chapterOutcome(auction: StreamAuction): string {
  if (auction.status === 'cancelled') return 'Cancelled';
  if (auction.status === 'running') return 'Running';
  if (auction.winner && auction.priceCents !== null) {
    return AUCTION_MESSAGES.soldTo(auction.winner.handle, formatCents(auction.priceCents));
  }
  return 'No bids';
}

const bids = (n: number) => `${n} ${n === 1 ? 'bid' : 'bids'}`;

/**
 * Under a replay: each auction of the show as a chapter (a click jumps to its start in the
 * recording) with its product, starting bid, result and bids.
 */
export function ReplayAuctions({ roomName, video }: { roomName: string; video: HTMLVideoElement }) {
  const answer = useQuery(streamAuctionsQueryOptions(roomName));
  const auctions = answer.data?.auctions ?? [];
  if (auctions.length === 0) return null;
  return (
    <Card className="grid grid-cols-1 gap-3 p-4" data-testid="replay-auctions">
      <h2 className="flex items-center gap-2 font-semibold">
        <Gavel className="size-4 text-primary" aria-hidden="true" />
        Auctions in this show
        <span className="font-normal text-muted-foreground text-sm">({auctions.length})</span>
      </h2>
      <ol className="grid grid-cols-1 gap-1" aria-label="Auction chapters">
        {auctions.map((auction) => (
          <li key={auction.id}>
            <button
              type="button"
              className="flex w-full flex-wrap items-baseline gap-x-3 gap-y-0.5 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => {
                video.currentTime = auction.startSec;
              }}
              aria-label={`Jump to the auction of ${auction.product.title} at ${formatOffset(auction.startSec)}`}
              data-testid="replay-auction"
            >
              <span className="w-12 shrink-0 text-muted-foreground text-xs tabular-nums">
                {formatOffset(auction.startSec)}
              </span>
              <span className="min-w-0 flex-1 truncate font-medium">{auction.product.title}</span>
              <span className="basis-full pl-15 text-muted-foreground text-xs sm:basis-auto sm:pl-0">
                {chapterOutcome(auction)} · started at {formatCents(auction.startingBidCents)} ·{' '}
                {bids(auction.bidCount)}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </Card>
  );
}
