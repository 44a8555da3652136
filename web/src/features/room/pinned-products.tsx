import { formatCents } from '@streamshop/contract/money.ts';
import type { LiveOffer, RoomProduct } from '@streamshop/contract/shop.ts';
import { Pin, ShoppingBag, Timer } from 'lucide-react';
import { useState } from 'react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { ShippingNote } from '../../components/shipping-note.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { useSellerTakesOrders } from '../../lib/api/payments.ts';
import { cn } from '../../lib/cn.ts';
import { formatCountdown } from '../../lib/countdown.ts';
import { NOT_TAKING_ORDERS } from '../../lib/not-taking-orders.ts';
import { offerSecondsLeft, priceNow, runningOffer } from './offer-clock.ts';
import { type CheckoutRequest, checkoutRequest, RoomCheckoutSheet } from './room-checkout-sheet.tsx';
import { pinnedProducts, type ShopState } from './shop-state.ts';
import { useServerNow } from './use-room-shop.ts';

/** '3 left' or 'Sold Out', from the stock the room last heard of. */
export function StockNote({ stock, testId = 'pinned-product-stock' }: { stock: number; testId?: string }) {
  return stock > 0 ? (
    <span className="text-muted-foreground text-xs" data-testid={testId}>
      {stock.toLocaleString('en-US')} left
    </span>
  ) : (
    <Badge variant="destructive" data-testid={testId}>
      Sold Out
    </Badge>
  );
}

/**
 * A product of the room with its price now (the offer's while one runs on it), shipping, stock and
 * Buy Now: pinned over the video ('pinned-product') or in the show's shop ('shop-product').
 */
export function RoomProductCard({
  product,
  offer,
  serverNowMs,
  canBuy,
  takesOrders,
  onBuy,
  testId = 'pinned-product',
  pinnedBadge = false,
  className = 'bg-card/90 shadow-lg shadow-black/40 backdrop-blur',
}: {
  product: RoomProduct;
  offer: LiveOffer | null;
  serverNowMs: number;
  canBuy: boolean;
  /** False while the seller has not finished payout onboarding (see useSellerTakesOrders). */
  takesOrders: boolean;
  onBuy: () => void;
  /** The card's test id; its parts' ids start with it ('…-title', '…-price', '…-stock'). */
  testId?: 'pinned-product' | 'shop-product';
  /** Say that the seller has it pinned (in the shop's list, where not every product is). */
  pinnedBadge?: boolean;
  className?: string;
}) {
  const price = priceNow(product, offer);
  return (
    <Card className={cn('flex items-center gap-2.5 p-2', className)} data-testid={testId}>
      <ProductThumb product={product} size="sm" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        {/* Over the video one line; in the shop's list the whole title (up to two lines). */}
        <p
          className={cn(
            'font-semibold text-sm',
            testId === 'shop-product' ? 'line-clamp-2 break-words' : 'truncate',
          )}
          title={product.title}
          data-testid={`${testId}-title`}
        >
          {product.title}
        </p>
        <p className="flex flex-wrap items-baseline gap-x-1.5 text-sm">
          <span
            className={price.offer ? 'font-bold text-primary' : 'font-bold'}
            data-testid={`${testId}-price`}
          >
            {formatCents(price.priceCents)}
          </span>
          {price.regularCents !== null ? (
            <s className="text-muted-foreground text-xs" data-testid={`${testId}-regular-price`}>
              <span className="sr-only">Regular price </span>
              {formatCents(price.regularCents)}
            </s>
          ) : null}
          <ShippingNote product={product} testId={`${testId}-shipping`} />
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
          {price.offer ? (
            <>
              <Badge className="gap-1 px-1.5 py-0 tabular-nums" data-testid="offer-countdown">
                <Timer className="size-3" aria-hidden="true" />
                <span className="sr-only">Offer ends in </span>
                {formatCountdown(offerSecondsLeft(price.offer, serverNowMs))}
              </Badge>
              <span className="text-muted-foreground" data-testid="offer-remaining">
                {price.offer.remaining} at this price
              </span>
            </>
          ) : null}
          <StockNote stock={product.stock} testId={`${testId}-stock`} />
          {pinnedBadge ? (
            <Badge variant="secondary" className="gap-1 px-1.5 py-0" data-testid={`${testId}-pinned`}>
              <Pin className="size-3" aria-hidden="true" />
              Pinned
            </Badge>
          ) : null}
        </p>
      </div>
      {canBuy && !takesOrders ? (
        <p className="text-muted-foreground text-xs" data-testid="not-taking-orders">
          {NOT_TAKING_ORDERS}
        </p>
      ) : canBuy ? (
        <Button size="sm" onClick={onBuy} disabled={product.stock <= 0} data-testid="buy-now">
          <ShoppingBag aria-hidden="true" />
          Buy Now<span className="sr-only">: {product.title}</span>
        </Button>
      ) : null}
    </Card>
  );
}

/**
 * The products the seller has pinned, each with Buy Now in a sheet, so buying never leaves the
 * stream. Placed by the caller (over the video's corner, or under it).
 */
export function PinnedProducts({
  roomName,
  shop,
  canBuy,
  className,
}: {
  roomName: string;
  shop: ShopState;
  /** False for the seller (who cannot buy their own product). */
  canBuy: boolean;
  className?: string;
}) {
  const [request, setRequest] = useState<CheckoutRequest | null>(null);
  const serverNowMs = useServerNow(shop, Boolean(shop?.offer));
  const pinned = pinnedProducts(shop);
  const offer = runningOffer(shop, serverNowMs);
  const takesOrders = useSellerTakesOrders(shop?.sellerOnboarded);
  if (pinned.length === 0) return null;

  return (
    <section aria-label="Shop this stream" className={className} data-testid="pinned-products">
      <ul className="grid grid-cols-1 gap-2">
        {pinned.map((product) => (
          <li key={product.id}>
            <RoomProductCard
              product={product}
              offer={offer}
              serverNowMs={serverNowMs}
              canBuy={canBuy}
              takesOrders={takesOrders}
              onBuy={() =>
                setRequest(
                  checkoutRequest(product, offer?.productId === product.id ? offer.priceCents : undefined),
                )
              }
            />
          </li>
        ))}
      </ul>
      <RoomCheckoutSheet roomName={roomName} request={request} onClose={() => setRequest(null)} />
    </section>
  );
}
