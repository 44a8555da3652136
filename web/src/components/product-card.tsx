import type { Product } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { ImageOff } from 'lucide-react';
import { Link } from 'react-router';
import { useSellerTakesOrders } from '../lib/api/payments.ts';
import { buyNowPath } from '../lib/buy-now-path.ts';
import { NOT_TAKING_ORDERS } from '../lib/not-taking-orders.ts';
import { useAuth } from '../lib/session/use-auth.ts';
import { ShippingNote } from './shipping-note.tsx';
import { Badge } from './ui/badge.tsx';
import { Button, buttonClasses } from './ui/button.tsx';
import { Card } from './ui/card.tsx';
import { Skeleton } from './ui/skeleton.tsx';

/** Rendered size of a card image; the box keeps this ratio so nothing shifts while it loads. */
export const CARD_IMAGE_SIZE = 400;

/** White on this red passes WCAG AA contrast for the small badge text (the theme's live red does not). */
export const LIVE_BADGE_CLASS = 'bg-red-600';

/**
 * A product in the grid: image, badges, title, seller, description, price (and shipping) and Buy
 * Now. The image and the title lead to the product page; Buy Now to the checkout (through sign-in
 * for a visitor who is signed out).
 */
export function ProductCard({ product, showSeller = true }: { product: Product; showSeller?: boolean }) {
  const takesOrders = useSellerTakesOrders(product.seller.onboarded);
  const { user } = useAuth();
  const productPath = `/products/${product.id}`;
  const picture = product.imageUrl ? (
    <img
      src={product.imageUrl}
      alt={product.title}
      width={CARD_IMAGE_SIZE}
      height={CARD_IMAGE_SIZE}
      loading="lazy"
      decoding="async"
      className="size-full object-cover"
    />
  ) : (
    <div className="flex size-full flex-col items-center justify-center gap-2 text-muted-foreground text-sm">
      <ImageOff className="size-8" aria-hidden="true" />
      No Image
    </div>
  );
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="product-card">
      <div className="relative aspect-square bg-muted">
        {/* One stop for keyboards and screen readers: the title's link below says the same. */}
        <Link
          to={productPath}
          tabIndex={-1}
          aria-hidden="true"
          className="block size-full"
          data-testid="product-image-link"
        >
          {picture}
        </Link>
        <div className="absolute top-2 left-2 flex flex-wrap gap-1">
          <Badge variant="secondary" data-testid="product-condition">
            {product.condition.toUpperCase()}
          </Badge>
          {product.isLiveLinked ? (
            <Badge variant="live" className={LIVE_BADGE_CLASS}>
              LIVE
            </Badge>
          ) : null}
          {product.stock === 0 ? (
            <Badge variant="destructive" data-testid="product-sold-out">
              Sold Out
            </Badge>
          ) : !takesOrders ? (
            <Badge variant="secondary" data-testid="product-not-taking-orders">
              {NOT_TAKING_ORDERS}
            </Badge>
          ) : null}
          {product.streamId ? (
            <Badge variant="secondary" className="bg-violet-800">
              VOD
            </Badge>
          ) : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-4">
        <h3 className="line-clamp-2 font-semibold leading-snug" data-testid="product-title">
          <Link to={productPath} className="underline-offset-2 hover:underline">
            {product.title}
          </Link>
        </h3>
        {showSeller ? (
          <p className="text-muted-foreground text-xs">
            Seller{' '}
            <Link
              to={`/s/${encodeURIComponent(product.seller.handle)}`}
              className="font-medium text-foreground underline-offset-2 hover:underline"
            >
              @{product.seller.handle}
            </Link>
          </p>
        ) : null}
        {product.description ? (
          <p className="line-clamp-2 text-muted-foreground text-sm">{product.description}</p>
        ) : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-3">
          <p className="flex min-w-0 flex-col">
            <span className="font-bold text-lg" data-testid="product-price">
              {formatCents(product.priceCents)}
            </span>
            <ShippingNote product={product} testId="product-shipping" />
          </p>
          {product.stock === 0 ? (
            // Nothing left to buy: a disabled button, not a link to a checkout that would refuse.
            <Button size="sm" disabled data-testid="buy-now">
              Buy Now<span className="sr-only">: {product.title} (sold out)</span>
            </Button>
          ) : !takesOrders ? (
            <Button size="sm" disabled data-testid="buy-now" title={NOT_TAKING_ORDERS}>
              Buy Now
              <span className="sr-only">
                : {product.title} ({NOT_TAKING_ORDERS})
              </span>
            </Button>
          ) : (
            <Link
              to={buyNowPath(product.id, user !== null)}
              className={buttonClasses({ size: 'sm' })}
              data-testid="buy-now"
            >
              Buy Now<span className="sr-only">: {product.title}</span>
            </Link>
          )}
        </div>
      </div>
    </Card>
  );
}

export function ProductCardSkeleton() {
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="product-skeleton">
      <Skeleton className="aspect-square rounded-none" />
      <div className="flex flex-col gap-2 p-4">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-4 w-full" />
        <div className="flex items-center justify-between pt-3">
          <Skeleton className="h-6 w-16" />
          <Skeleton className="h-9 w-20" />
        </div>
      </div>
    </Card>
  );
}

export const PRODUCT_GRID_CLASS = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

/** 8 skeleton cards while a product list loads. */
export function ProductGridSkeleton() {
  return (
    <div className={PRODUCT_GRID_CLASS} role="status" aria-label="Loading products">
      {Array.from({ length: 8 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
