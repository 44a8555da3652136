import type { ProductPage as ProductPageData } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, ArrowLeft, ImageOff, PackageX, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { ShippingNote } from '../../components/shipping-note.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { parseApiError } from '../../lib/api/client.ts';
import { productPageQueryOptions } from './api.ts';
import { BuyBox } from './buy-box.tsx';
import { FulfillmentPanel, SellerPanel, ShowsSection } from './product-details.tsx';
import { useProductHead } from './product-head.ts';

const PAGE_CLASS = 'mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-10';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const backLink = (
  <Link
    to="/explore"
    className="mb-6 inline-flex items-center gap-1.5 text-muted-foreground text-sm hover:text-foreground"
  >
    <ArrowLeft className="size-4" aria-hidden="true" />
    Marketplace
  </Link>
);

function StateCard({
  icon: Icon,
  title,
  children,
  testId,
}: {
  icon: typeof PackageX;
  title: string;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <div className={PAGE_CLASS}>
      <Card
        className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-14 text-center"
        data-testid={testId}
      >
        <Icon className="size-12 text-muted-foreground" aria-hidden="true" />
        <h1 className="font-bold text-2xl">{title}</h1>
        {children}
      </Card>
    </div>
  );
}

function ProductSkeleton() {
  return (
    <div className={PAGE_CLASS} role="status" aria-label="Loading product" data-testid="product-loading">
      <div className="grid gap-8 lg:grid-cols-2">
        <Skeleton className="aspect-square w-full rounded-xl" />
        <div className="flex flex-col gap-4">
          <Skeleton className="h-5 w-24" />
          <Skeleton className="h-9 w-3/4" />
          <Skeleton className="h-8 w-28" />
          <Skeleton className="h-11 w-56" />
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      </div>
    </div>
  );
}

function ProductPicture({ product }: { product: ProductPageData['product'] }) {
  return (
    <div className="aspect-square overflow-hidden rounded-xl border border-border bg-muted">
      {product.imageUrl ? (
        <img
          src={product.imageUrl}
          alt={product.title}
          width={600}
          height={600}
          fetchPriority="high"
          className="size-full object-cover"
          data-testid="product-image"
        />
      ) : (
        <div className="flex size-full flex-col items-center justify-center gap-2 text-muted-foreground">
          <ImageOff className="size-10" aria-hidden="true" />
          No Image
        </div>
      )}
    </div>
  );
}

function ProductView({ page }: { page: ProductPageData }) {
  const { product } = page;
  return (
    <div className={PAGE_CLASS} data-testid="product-page">
      {backLink}
      <div className="grid gap-8 lg:grid-cols-2 lg:gap-12">
        <ProductPicture product={product} />
        <div className="flex min-w-0 flex-col gap-5">
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap gap-1.5">
              <Badge variant="secondary" data-testid="product-condition">
                {product.condition.toUpperCase()}
              </Badge>
              {product.isLiveLinked ? (
                <Badge variant="live" className={LIVE_BADGE_CLASS}>
                  LIVE
                </Badge>
              ) : null}
            </div>
            <h1
              className="break-words font-bold text-3xl tracking-tight sm:text-4xl"
              data-testid="product-title"
            >
              {product.title}
            </h1>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <p className="font-bold text-3xl" data-testid="product-price">
                {formatCents(product.priceCents)}
              </p>
              <ShippingNote product={product} testId="product-shipping" className="text-sm" />
            </div>
            <p
              className={
                product.stock > 0
                  ? 'font-medium text-emerald-400 text-sm'
                  : 'font-medium text-red-400 text-sm'
              }
              data-testid="product-stock"
            >
              {product.stock > 0 ? `${product.stock.toLocaleString('en-US')} left` : 'Sold out'}
            </p>
          </div>
          <BuyBox product={product} />
          <FulfillmentPanel product={product} />
          <SellerPanel seller={page.seller} />
        </div>
      </div>
      <div className="mt-10 grid gap-10 lg:grid-cols-2 lg:gap-12">
        <section aria-labelledby="product-description-heading" className="flex flex-col gap-3">
          <h2 id="product-description-heading" className="font-bold text-xl">
            About this item
          </h2>
          {product.description ? (
            <p
              className="whitespace-pre-line break-words text-muted-foreground"
              data-testid="product-description"
            >
              {product.description}
            </p>
          ) : (
            <p className="text-muted-foreground text-sm" data-testid="product-description">
              The seller has not described this item.
            </p>
          )}
        </section>
        <ShowsSection shows={page.shows} />
      </div>
    </div>
  );
}

/** /products/:id: a product for anyone, signed in or not, with Buy Now and the shows it is in. */
export function ProductPage() {
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const query = useQuery({ ...productPageQueryOptions(id), enabled: valid });
  const notFound = !valid || (query.isError && parseApiError(query.error).status === 404);
  useProductHead(query.data, notFound);

  if (notFound) {
    return (
      <StateCard icon={PackageX} title="Product Not Found" testId="product-not-found">
        <p className="text-muted-foreground">This product does not exist or is no longer for sale.</p>
        <Link to="/explore" className={buttonClasses({ variant: 'outline', className: 'mt-3' })}>
          Back to Marketplace
        </Link>
      </StateCard>
    );
  }
  if (query.isError) {
    return (
      <StateCard icon={AlertCircle} title="Could Not Load This Product" testId="product-error">
        <p className="text-muted-foreground">Something went wrong on our side. Please try again.</p>
        <Button variant="outline" className="mt-3" onClick={() => void query.refetch()}>
          <RotateCw aria-hidden="true" />
          Try Again
        </Button>
      </StateCard>
    );
  }
  if (!query.data) return <ProductSkeleton />;
  return <ProductView page={query.data} />;
}
