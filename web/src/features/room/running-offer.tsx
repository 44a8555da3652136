import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomShop } from '@streamshop/contract/shop.ts';
import { BadgePercent, Square } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { formatCountdown } from '../../lib/countdown.ts';
import { offerSecondsLeft, runningOffer } from './offer-clock.ts';

/** The offer running now, with its countdown and, for the seller, End offer. */
export function RunningOffer({
  shop,
  serverNowMs,
  onEnd,
  ending,
}: {
  shop: RoomShop;
  serverNowMs: number;
  /** Null for a moderator: offers are the seller's to start and end. */
  onEnd: (() => void) | null;
  ending: boolean;
}) {
  const offer = runningOffer(shop, serverNowMs);
  if (!offer) return null;
  const product = shop.lineup.find((item) => item.id === offer.productId);
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-lg border border-primary/40 bg-primary/10 p-3"
      data-testid="lineup-offer"
    >
      <BadgePercent className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-semibold">
          Offer: {formatCents(offer.priceCents)}
          {product ? (
            <>
              {' '}
              on <span className="font-normal">{product.title}</span>
            </>
          ) : null}
        </p>
        <p className="text-muted-foreground text-xs">
          <span data-testid="lineup-offer-remaining">
            {offer.remaining} of {offer.quantity} left
          </span>{' '}
          · ends in{' '}
          <span className="tabular-nums" data-testid="lineup-offer-countdown">
            {formatCountdown(offerSecondsLeft(offer, serverNowMs))}
          </span>
        </p>
      </div>
      {onEnd ? (
        <Button variant="outline" size="sm" onClick={onEnd} disabled={ending} data-testid="offer-end">
          <Square aria-hidden="true" />
          End offer
        </Button>
      ) : null}
    </div>
  );
}
