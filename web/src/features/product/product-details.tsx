import type { Product, ProductPage, ProductShow } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { LucideIcon } from 'lucide-react';
import { Download, MapPin, PlayCircle, Radio, Store, Truck, Video } from 'lucide-react';
import { Link } from 'react-router';
import { FollowButton } from '../../components/follow-button.tsx';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { StreamPicture } from '../../components/stream-picture.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../lib/format-date.ts';

/** How the product reaches the buyer and what that costs, in words. */
export function fulfillmentTerms(product: Pick<Product, 'fulfillment' | 'shippingCents'>): {
  icon: LucideIcon;
  title: string;
  detail: string;
} {
  switch (product.fulfillment) {
    case 'ship':
      return {
        icon: Truck,
        title:
          product.shippingCents > 0 ? `Shipping: ${formatCents(product.shippingCents)}` : 'Free shipping',
        detail:
          product.shippingCents > 0
            ? 'Shipped to your address, a flat price added at checkout.'
            : 'Shipped to your address at no extra cost.',
      };
    case 'digital':
      return { icon: Download, title: 'Digital', detail: 'Nothing ships: no shipping to pay.' };
    case 'pickup':
      return {
        icon: MapPin,
        title: 'Local pickup',
        detail: 'Picked up from the seller: no shipping to pay.',
      };
  }
}

export function FulfillmentPanel({ product }: { product: Product }) {
  const terms = fulfillmentTerms(product);
  const Icon = terms.icon;
  return (
    <div
      className="flex items-start gap-3 rounded-lg border border-border p-4"
      data-testid="product-fulfillment"
    >
      <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
      <div>
        <p className="font-medium">{terms.title}</p>
        <p className="text-muted-foreground text-sm">{terms.detail}</p>
      </div>
    </div>
  );
}

/** The seller: picture, name, Follow, their storefront, and their room while they are live. */
export function SellerPanel({ seller }: { seller: ProductPage['seller'] }) {
  const storefront = `/s/${encodeURIComponent(seller.handle)}`;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border p-4" data-testid="product-seller">
      <div className="flex items-center gap-3">
        <div className="flex size-12 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted font-bold text-lg uppercase">
          {seller.avatarUrl ? (
            <img src={seller.avatarUrl} alt="" width={48} height={48} className="size-full object-cover" />
          ) : (
            <span aria-hidden="true">{seller.handle.slice(0, 1)}</span>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-muted-foreground text-xs">Sold by</p>
          <Link
            to={storefront}
            className="block truncate font-semibold underline-offset-2 hover:underline"
            data-testid="seller-link"
          >
            @{seller.handle}
          </Link>
          {seller.businessName ? (
            <p className="truncate text-muted-foreground text-sm">{seller.businessName}</p>
          ) : null}
        </div>
        {seller.liveRoomName ? (
          <Link
            to={`/room/${encodeURIComponent(seller.liveRoomName)}`}
            className="shrink-0 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="seller-live"
          >
            <Badge variant="live" className={`${LIVE_BADGE_CLASS} gap-1.5 px-3 py-1`}>
              <Radio className="size-3.5" aria-hidden="true" />
              LIVE<span className="sr-only"> now: watch @{seller.handle}’s room</span>
            </Badge>
          </Link>
        ) : (
          <Link
            to={storefront}
            className={buttonClasses({ variant: 'outline', size: 'sm', className: 'shrink-0' })}
          >
            <Store aria-hidden="true" />
            Storefront
          </Link>
        )}
      </div>
      <FollowButton handle={seller.handle} />
    </div>
  );
}

function ShowCard({ show }: { show: ProductShow }) {
  return (
    <Card className="flex overflow-hidden" data-testid="product-show">
      <div className="relative flex w-32 shrink-0 items-center justify-center bg-gradient-to-br from-violet-950 via-zinc-900 to-fuchsia-950 sm:w-40">
        <StreamPicture
          thumbnailUrl={show.thumbnailUrl}
          fallback={<Video className="size-8 text-violet-300" aria-hidden="true" />}
        />
        {show.live ? (
          <Badge variant="live" className={`absolute top-2 left-2 ${LIVE_BADGE_CLASS}`}>
            LIVE
          </Badge>
        ) : (
          <Badge className="absolute top-2 left-2 bg-violet-800 text-white">Replay</Badge>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1 p-3">
        <h3 className="line-clamp-2 font-semibold leading-snug">{show.title}</h3>
        <p className="text-muted-foreground text-xs">
          {show.live ? 'Live now' : show.startedAt ? `Streamed ${formatDate(show.startedAt)}` : 'Replay'}
        </p>
        <Link
          to={`/room/${encodeURIComponent(show.roomName)}`}
          className={buttonClasses({
            size: 'sm',
            variant: show.live ? 'default' : 'secondary',
            className: 'mt-auto self-start',
          })}
          data-testid={show.live ? 'show-watch-live' : 'show-watch-replay'}
        >
          <PlayCircle aria-hidden="true" />
          {show.live ? 'Watch live' : 'Watch replay'}
          <span className="sr-only">: {show.title}</span>
        </Link>
      </div>
    </Card>
  );
}

/** The shows the product is in: live ones first, then replays; a line when there is none. */
export function ShowsSection({ shows }: { shows: ProductShow[] }) {
  return (
    <section aria-labelledby="product-shows-heading" className="flex flex-col gap-3">
      <h2 id="product-shows-heading" className="font-bold text-xl">
        In these shows
      </h2>
      {shows.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="product-shows-empty">
          Not in a live show or replay yet.
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 lg:grid-cols-1" data-testid="product-shows">
          {shows.map((show) => (
            <li key={show.roomName}>
              <ShowCard show={show} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
