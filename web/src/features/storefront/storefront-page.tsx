import type { StorefrontResponse, StorefrontStream, Stream } from '@streamshop/contract/catalog.ts';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Eye, Package, PlayCircle, ShoppingBag, Store, UserX, Video } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { FollowButton } from '../../components/follow-button.tsx';
import {
  LIVE_BADGE_CLASS,
  PRODUCT_GRID_CLASS,
  ProductCard,
  ProductGridSkeleton,
} from '../../components/product-card.tsx';
import { StreamPicture } from '../../components/stream-picture.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { UpcomingShows } from '../../components/upcoming-shows.tsx';
import { storefrontQueryOptions } from '../../lib/api/storefront.ts';
import { usePageTitle } from '../../lib/page-title.ts';

const PAGE_CLASS = 'mx-auto w-full max-w-7xl px-4 py-8 sm:px-6';

function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Opens the recording in a new window that cannot reach back into this one. */
/** Opens a recording in a new window: its room, which plays the replay (HLS or an older file). */
export function watchRecording(roomName: string): void {
  window.open(`/room/${encodeURIComponent(roomName)}`, '_blank', 'noopener,noreferrer');
}

function Avatar({ handle, imageUrl }: { handle: string; imageUrl: string | null | undefined }) {
  return (
    <div className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-full border-2 border-primary/60 bg-muted font-bold text-3xl uppercase">
      {imageUrl ? (
        <img src={imageUrl} alt={`@${handle}`} width={96} height={96} className="size-full object-cover" />
      ) : (
        <span aria-hidden="true">{handle.slice(0, 1)}</span>
      )}
    </div>
  );
}

function Stat({ value, label }: { value: number | undefined; label: string }) {
  return (
    <div>
      {value === undefined ? (
        <Skeleton className="h-6 w-10" />
      ) : (
        <p className="font-bold text-xl tabular-nums">{value.toLocaleString('en-US')}</p>
      )}
      <p className="text-muted-foreground text-sm">{label}</p>
    </div>
  );
}

/** While the seller is live: a banner into their room. */
function LiveNowBanner({ stream }: { stream: Stream }) {
  return (
    <Link
      to={`/room/${encodeURIComponent(stream.roomName)}`}
      className="group mb-8 flex items-center gap-3 rounded-xl border border-live/50 bg-live/10 p-3 transition-colors hover:bg-live/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-4"
      data-testid="storefront-live"
    >
      <Badge variant="live" className={`shrink-0 ${LIVE_BADGE_CLASS}`} aria-hidden="true">
        LIVE
      </Badge>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold">Live now</span>
        <span className="block truncate text-muted-foreground text-sm" data-testid="storefront-live-title">
          {stream.title}
        </span>
      </span>
      <span className="inline-flex shrink-0 items-center gap-1 font-medium text-sm group-hover:underline">
        Join the room
        <ArrowRight className="size-4" aria-hidden="true" />
      </span>
    </Link>
  );
}

function StorefrontHeader({ handle, data }: { handle: string; data: StorefrontResponse | undefined }) {
  return (
    <header className="mb-8 flex flex-col gap-6 sm:flex-row sm:items-center">
      {data ? (
        <Avatar handle={data.user.handle} imageUrl={data.user.profileImageUrl} />
      ) : (
        <Skeleton className="size-24 rounded-full" />
      )}
      <div className="flex flex-col gap-3">
        <div>
          <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">@{data?.user.handle ?? handle}</h1>
          {data?.user.businessName ? (
            <p className="mt-1 text-lg text-muted-foreground" data-testid="storefront-business">
              {data.user.businessName}
            </p>
          ) : null}
        </div>
        {data ? <FollowButton handle={data.user.handle} /> : null}
        <div className="flex gap-8" data-testid="storefront-stats">
          <Stat value={data?.stats.productCount} label="Products" />
          <Stat value={data?.stats.vodCount} label="VODs" />
          <Stat value={data?.stats.totalViews} label="Total Views" />
        </div>
      </div>
    </header>
  );
}

function VodCard({ stream }: { stream: StorefrontStream }) {
  const featured = stream.featuredProducts ?? 0;
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="vod-card">
      <div className="relative flex aspect-video items-center justify-center bg-gradient-to-br from-violet-950 via-zinc-900 to-fuchsia-950">
        <StreamPicture
          thumbnailUrl={stream.thumbnailUrl}
          fallback={<Video className="size-10 text-violet-300" aria-hidden="true" />}
        />
        <Badge className="absolute top-2 left-2 bg-violet-800 text-white">VOD</Badge>
        <span className="absolute top-2 right-2 inline-flex items-center gap-1 rounded-md bg-black/70 px-2 py-0.5 text-xs">
          <Eye className="size-3" aria-hidden="true" />
          {stream.viewCount.toLocaleString('en-US')}
          <span className="sr-only"> views</span>
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="line-clamp-2 font-semibold">{stream.title}</h3>
        <p className="text-muted-foreground text-sm">{formatDate(stream.createdAt)}</p>
        {featured > 0 ? (
          <p className="flex items-center gap-1.5 text-primary text-sm" data-testid="vod-featured-products">
            <ShoppingBag className="size-3.5" aria-hidden="true" />
            Features {featured} {featured === 1 ? 'product' : 'products'}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => watchRecording(stream.roomName)}
            data-testid="watch-recording"
          >
            <PlayCircle aria-hidden="true" />
            Watch Recording<span className="sr-only">: {stream.title}</span>
          </Button>
          {featured > 0 ? (
            // The replay in its room: chapters on the timeline and Buy Now.
            <Link
              to={`/room/${stream.roomName}`}
              className={buttonClasses({ size: 'sm', variant: 'secondary' })}
              data-testid="shop-replay"
            >
              <ShoppingBag aria-hidden="true" />
              Shop the replay<span className="sr-only">: {stream.title}</span>
            </Link>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

/** /s/:handle: a seller's public storefront with their products and stream recordings. */
export function StorefrontPage() {
  const { handle = '' } = useParams();
  usePageTitle(handle ? `@${handle}` : 'Storefront');
  const storefront = useQuery({ ...storefrontQueryOptions(handle), enabled: !!handle });

  if (!handle) {
    return (
      <div className={PAGE_CLASS}>
        <EmptyState icon={Store} title="Invalid storefront URL" headingLevel={2} />
      </div>
    );
  }

  if (storefront.isError) {
    return (
      <div className={PAGE_CLASS}>
        <Card
          className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-14 text-center"
          data-testid="storefront-not-found"
        >
          <UserX className="size-12 text-muted-foreground" aria-hidden="true" />
          <h1 className="font-bold text-2xl">Storefront Not Found</h1>
          <p className="text-muted-foreground">The user @{handle} does not exist or has no storefront.</p>
          <Link to="/explore" className={buttonClasses({ variant: 'outline', className: 'mt-3' })}>
            Browse the Marketplace
          </Link>
        </Card>
      </div>
    );
  }

  const data = storefront.data;
  const vods = data?.streams.filter((stream) => stream.vodUrl) ?? [];
  const productCount = data?.products.length;

  return (
    <div className={PAGE_CLASS}>
      <StorefrontHeader handle={handle} data={data} />
      {data?.liveStream ? <LiveNowBanner stream={data.liveStream} /> : null}
      {data ? <UpcomingShows seller={data.user.handle} limit={8} /> : null}
      <Tabs defaultValue="products">
        <TabsList aria-label="Storefront sections">
          <TabsTrigger value="products" data-testid="tab-products">
            Products ({productCount ?? '…'})
          </TabsTrigger>
          <TabsTrigger value="vods" data-testid="tab-vods">
            VODs ({data ? vods.length : '…'})
          </TabsTrigger>
        </TabsList>
        <TabsContent value="products" className="mt-6">
          {!data ? (
            <ProductGridSkeleton />
          ) : data.products.length === 0 ? (
            <EmptyState
              icon={Package}
              title="No Products Yet"
              description={`@${data.user.handle} has not listed any products.`}
              testId="storefront-products-empty"
            />
          ) : (
            <div className={PRODUCT_GRID_CLASS} data-testid="storefront-products">
              {data.products.map((product) => (
                <ProductCard key={product.id} product={product} showSeller={false} />
              ))}
            </div>
          )}
        </TabsContent>
        <TabsContent value="vods" className="mt-6">
          {!data ? (
            <ProductGridSkeleton />
          ) : vods.length === 0 ? (
            <EmptyState
              icon={Video}
              title="No VODs Available"
              description="Recordings of past live streams will appear here."
              testId="storefront-vods-empty"
            />
          ) : (
            <div className={PRODUCT_GRID_CLASS} data-testid="storefront-vods">
              {vods.map((stream) => (
                <VodCard key={stream.id} stream={stream} />
              ))}
            </div>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
