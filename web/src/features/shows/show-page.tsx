import type { Show } from '@streamshop/contract/shows.ts';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, ArrowLeft, CalendarClock, RotateCw } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ShowCover } from '../../components/show-cover.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { parseApiError } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { formatShowTime } from '../../lib/show-time.ts';
import { showQueryOptions } from './api.ts';
import { ReminderControl, SellerControls, StatusAction } from './show-actions.tsx';
import { useShowHead } from './show-head.ts';
import { CalendarLinks, Lineup, ShowCountdown, StatusBadge } from './show-parts.tsx';

const PAGE_CLASS = 'mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-10';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The site's 'Page Not Found' look, for a show that does not exist. */
function ShowNotFound() {
  return (
    <section
      className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-20 text-center"
      data-testid="show-not-found"
    >
      <p className="font-bold text-6xl text-primary">404</p>
      <h1 className="font-bold text-3xl tracking-tight">Show Not Found</h1>
      <p className="text-muted-foreground">This show does not exist or was cancelled by its seller.</p>
      <Button asChild>
        <Link to="/explore">Browse the Marketplace</Link>
      </Button>
    </section>
  );
}

function ShowSkeleton() {
  return (
    <div className={PAGE_CLASS} role="status" aria-label="Loading show" data-testid="show-loading">
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <Skeleton className="aspect-video w-full rounded-xl" />
        <div className="flex flex-col gap-4">
          <Skeleton className="h-5 w-24" />
          <Skeleton className="h-9 w-3/4" />
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-11 w-44" />
        </div>
      </div>
    </div>
  );
}

/** When it starts, in the viewer's zone and (when it reads differently) the seller's. */
function StartTime({ show }: { show: Show }) {
  const time = formatShowTime(show.startsAt, show.timeZone);
  return (
    <p className="flex items-start gap-2 text-sm" data-testid="show-time">
      <CalendarClock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <time dateTime={show.startsAt}>
        <span className="font-medium">{time.viewer}</span> your time
        {time.seller ? (
          <span className="text-muted-foreground">
            {' '}
            ({time.seller} in {time.sellerZone})
          </span>
        ) : null}
      </time>
    </p>
  );
}

function ShowView({ show }: { show: Show }) {
  const { user } = useAuth();
  const own = user?.handle === show.seller.handle;
  const scheduled = show.status === 'scheduled';
  return (
    <div className={PAGE_CLASS} data-testid="show-page">
      <Link
        to="/explore"
        className="mb-6 inline-flex items-center gap-1.5 text-muted-foreground text-sm hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Marketplace
      </Link>
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr] lg:grid-rows-[auto_1fr] lg:gap-x-10 lg:gap-y-6">
        <ShowCover
          coverUrl={show.coverUrl}
          alt={`Cover of ${show.title}`}
          priority
          className="rounded-xl border border-border lg:col-start-1 lg:row-start-1"
        />
        <div className="flex min-w-0 flex-col gap-5 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="flex flex-col gap-3">
            <div>
              <StatusBadge status={show.status} />
            </div>
            <h1
              className="break-words font-bold text-3xl tracking-tight sm:text-4xl"
              data-testid="show-title"
            >
              {show.title}
            </h1>
            <p className="text-muted-foreground text-sm" data-testid="show-seller">
              Hosted by{' '}
              <Link
                to={`/s/${encodeURIComponent(show.seller.handle)}`}
                className="font-medium text-foreground underline-offset-2 hover:underline"
              >
                {show.seller.name} (@{show.seller.handle})
              </Link>
            </p>
            <StartTime show={show} />
          </div>
          {scheduled ? <ShowCountdown startsAt={show.startsAt} /> : null}
          <StatusAction show={show} own={own} />
          {own ? <SellerControls show={show} /> : null}
          <ReminderControl show={show} signedIn={user !== null} own={own} />
          {scheduled ? <CalendarLinks show={show} /> : null}
        </div>
        <section
          aria-labelledby="show-about-heading"
          className="flex min-w-0 flex-col gap-2 lg:col-start-1 lg:row-start-2"
        >
          <h2 id="show-about-heading" className="font-bold text-xl">
            About this show
          </h2>
          <Description show={show} />
        </section>
      </div>
      <div className="mt-10">
        <Lineup products={show.products} status={show.status} />
      </div>
    </div>
  );
}

function Description({ show }: { show: Show }) {
  return show.description ? (
    <p className="whitespace-pre-line break-words text-muted-foreground" data-testid="show-description">
      {show.description}
    </p>
  ) : (
    <p className="text-muted-foreground text-sm" data-testid="show-description">
      The seller has not described this show.
    </p>
  );
}

/** /shows/:id: a scheduled show for anyone, with its countdown, lineup, reminder and calendar links. */
export function ShowPage() {
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const query = useQuery({ ...showQueryOptions(id), enabled: valid });
  const status = query.isError ? parseApiError(query.error).status : null;
  const notFound = !valid || status === 404 || status === 400;
  usePageTitle(notFound ? 'Show Not Found' : query.data?.title);
  useShowHead(query.data, notFound);

  if (notFound) return <ShowNotFound />;
  if (query.isError && !query.data) {
    return (
      <div className={PAGE_CLASS}>
        <Card
          className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-14 text-center"
          data-testid="show-error"
        >
          <AlertCircle className="size-12 text-muted-foreground" aria-hidden="true" />
          <h1 className="font-bold text-2xl">Could Not Load This Show</h1>
          <p className="text-muted-foreground">Something went wrong on our side. Please try again.</p>
          <Button variant="outline" className="mt-3" onClick={() => void query.refetch()}>
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
        </Card>
      </div>
    );
  }
  if (!query.data) return <ShowSkeleton />;
  return <ShowView show={query.data} />;
}
