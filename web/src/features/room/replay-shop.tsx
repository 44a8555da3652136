import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import { ShoppingBag } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { ShippingNote } from '../../components/shipping-note.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { replayChaptersQueryOptions } from './api.ts';
import { formatOffset } from './chat-replay.ts';
import { StockNote } from './pinned-products.tsx';
import { chaptersAt, isChapterAt, markerPercent, type ReplayChapter } from './replay-chapters.ts';
import { type CheckoutRequest, checkoutRequest, RoomCheckoutSheet } from './room-checkout-sheet.tsx';

/** The replay's position and length, following the video element. */
function usePlayback(video: HTMLVideoElement) {
  const [seconds, setSeconds] = useState(video.currentTime);
  const [duration, setDuration] = useState(video.duration);
  useEffect(() => {
    const update = () => {
      setSeconds(video.currentTime);
      setDuration(video.duration);
    };
    const events = ['timeupdate', 'seeked', 'loadedmetadata', 'durationchange'] as const;
    for (const name of events) video.addEventListener(name, update);
    update();
    return () => {
      for (const name of events) video.removeEventListener(name, update);
    };
  }, [video]);
  return { seconds, duration };
}

/**
 * Under the replay: the products pinned during the stream as chapters (markers on a timeline
 * and a list; a click seeks there), and the product pinned at the current moment with Buy Now
 * at its price today (offers do not replay).
 */
export function ReplayShop({
  roomName,
  video,
  canBuy,
}: {
  roomName: string;
  video: HTMLVideoElement;
  /** False for the seller (who cannot buy their own product). */
  canBuy: boolean;
}) {
  const chapters = useQuery(replayChaptersQueryOptions(roomName));
  const { seconds, duration } = usePlayback(video);
  const [request, setRequest] = useState<CheckoutRequest | null>(null);
  const list = chapters.data?.chapters ?? [];
  if (list.length === 0) return null;

  const seek = (chapter: ReplayChapter) => {
    video.currentTime = chapter.startSec;
  };
  const current = chaptersAt(list, seconds);

  return (
    <Card className="grid grid-cols-1 gap-4 p-4" data-testid="replay-shop">
      <h2 className="flex items-center gap-2 font-semibold">
        <ShoppingBag className="size-4 text-primary" aria-hidden="true" />
        Shop the replay
        <span className="font-normal text-muted-foreground text-sm">
          ({list.length} {list.length === 1 ? 'chapter' : 'chapters'})
        </span>
      </h2>

      {markerPercent(0, duration) !== null ? (
        <div className="relative h-3 rounded-full bg-muted" data-testid="replay-timeline">
          <div
            className="absolute inset-y-0 left-0 rounded-full bg-primary/30"
            style={{ width: `${markerPercent(seconds, duration) ?? 0}%` }}
          />
          {list.map((chapter) => (
            <button
              key={`${chapter.product.id}-${chapter.startSec}`}
              type="button"
              className="absolute top-1/2 size-3.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-background bg-primary hover:scale-125 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              style={{ left: `${markerPercent(chapter.startSec, duration) ?? 0}%` }}
              onClick={() => seek(chapter)}
              aria-label={`Jump to ${chapter.product.title} at ${formatOffset(chapter.startSec)}`}
              data-testid="replay-chapter-marker"
            />
          ))}
        </div>
      ) : null}

      <div data-testid="replay-now-showing">
        <p className="mb-2 font-medium text-muted-foreground text-xs uppercase tracking-wide">
          Pinned at this moment
        </p>
        {current.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            Nothing was pinned at this point of the stream. Jump to a chapter below.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {current.map(({ product }) => (
              <li
                key={product.id}
                className="flex gap-3 rounded-lg border border-primary/40 p-3"
                data-testid="replay-product"
              >
                <ProductThumb product={product} />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p
                    className="line-clamp-2 font-semibold text-sm leading-snug"
                    data-testid="replay-product-title"
                  >
                    {product.title}
                  </p>
                  <p className="flex flex-wrap items-baseline gap-x-1.5">
                    <span className="font-bold" data-testid="replay-product-price">
                      {formatCents(product.priceCents)}
                    </span>
                    <ShippingNote product={product} testId="replay-product-shipping" />
                  </p>
                  <div className="mt-auto flex items-center justify-between gap-2">
                    <StockNote stock={product.stock} />
                    {canBuy ? (
                      <Button
                        size="sm"
                        onClick={() => setRequest(checkoutRequest(product))}
                        disabled={product.stock <= 0}
                        data-testid="replay-buy-now"
                      >
                        <ShoppingBag aria-hidden="true" />
                        Buy Now<span className="sr-only">: {product.title}</span>
                      </Button>
                    ) : null}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>

      <ol className="grid grid-cols-1 gap-1" aria-label="Product chapters" data-testid="replay-chapters">
        {list.map((chapter) => {
          const active = isChapterAt(chapter, seconds);
          return (
            <li key={`${chapter.product.id}-${chapter.startSec}`}>
              <button
                type="button"
                className={cn(
                  'flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active && 'bg-primary/10',
                )}
                onClick={() => seek(chapter)}
                aria-current={active ? 'true' : undefined}
                data-testid="replay-chapter"
              >
                <span
                  className="w-12 shrink-0 text-muted-foreground text-xs tabular-nums"
                  data-testid="replay-chapter-time"
                >
                  {formatOffset(chapter.startSec)}
                </span>
                <span className="min-w-0 flex-1 truncate">{chapter.product.title}</span>
                <span className="shrink-0 text-muted-foreground text-xs">
                  {formatCents(chapter.product.priceCents)}
                </span>
                <ShippingNote
                  product={chapter.product}
                  testId="replay-chapter-shipping"
                  className="hidden shrink-0 sm:inline"
                />
              </button>
            </li>
          );
        })}
      </ol>
      <RoomCheckoutSheet roomName={roomName} request={request} fromReplay onClose={() => setRequest(null)} />
    </Card>
  );
}
