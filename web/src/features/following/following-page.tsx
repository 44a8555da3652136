import type { Following } from '@streamshop/contract/follows.ts';
import type { Show } from '@streamshop/contract/shows.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, Compass, RotateCw, TriangleAlert, UserMinus, Users } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { followerCount } from '../../components/follow-button.tsx';
import { LIVE_GRID_CLASS, LiveStreamCard } from '../../components/live-stream-card.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { useFollowMutation } from '../../lib/api/follows.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useNow } from '../../lib/use-now.ts';
import { followingQueryOptions } from './api.ts';

type FollowedSeller = Following['sellers'][number];

/** "Fri, Mar 6, 7:30 PM" in the viewer's own time zone. */
const showTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

function SellerRow({ seller }: { seller: FollowedSeller }) {
  const unfollow = useFollowMutation(seller.handle);
  return (
    <li className="flex items-center gap-3 py-3" data-testid="followed-seller">
      <span
        aria-hidden="true"
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-muted font-bold uppercase"
      >
        {seller.handle.slice(0, 1)}
      </span>
      <div className="min-w-0 flex-1">
        <Link
          to={`/s/${encodeURIComponent(seller.handle)}`}
          className="block truncate font-semibold hover:underline"
        >
          @{seller.handle}
        </Link>
        <p className="truncate text-muted-foreground text-sm">
          {seller.name} · {followerCount(seller.followers)}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={unfollow.isPending}
        onClick={() =>
          unfollow.mutate(false, {
            onSuccess: () => toast({ title: `Unfollowed @${seller.handle}` }),
            onError: (error) => errorToast('Could not unfollow', errorMessage(error, 'Please try again.')),
          })
        }
        aria-label={`Unfollow @${seller.handle}`}
        data-testid="unfollow"
      >
        <UserMinus aria-hidden="true" />
        Unfollow
      </Button>
    </li>
  );
}

function ShowCard({ show }: { show: Show }) {
  return (
    <Link
      to={`/shows/${encodeURIComponent(show.id)}`}
      className="group block rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="following-show"
    >
      <Card className="flex h-full gap-3 overflow-hidden p-3 transition-colors group-hover:border-primary/60">
        <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-md bg-gradient-to-br from-violet-950 via-zinc-900 to-fuchsia-950">
          {show.coverUrl ? (
            <img src={show.coverUrl} alt="" width={64} height={64} className="size-full object-cover" />
          ) : (
            <CalendarClock className="size-6 text-violet-300" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0">
          <h3 className="line-clamp-2 font-semibold leading-snug">{show.title}</h3>
          <p className="text-muted-foreground text-xs">@{show.seller.handle}</p>
          <p className="mt-1 text-primary text-sm">
            <time dateTime={show.startsAt}>{showTime(show.startsAt)}</time>
          </p>
        </div>
      </Card>
    </Link>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid grid-cols-1 gap-4">
      <h2 id={id} className="font-bold text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

function FollowingView({ following }: { following: Following }) {
  const now = useNow(following.live.length > 0);
  if (following.sellers.length === 0) {
    return (
      <EmptyState
        icon={Users}
        title="You're not following anyone yet"
        description="Follow sellers from their storefront or live room to hear when they go live and see their shows here."
        headingLevel={2}
        testId="following-empty"
      >
        <Link to="/explore" className={buttonClasses({ className: 'mt-3' })}>
          <Compass aria-hidden="true" />
          Explore sellers
        </Link>
      </EmptyState>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-10">
      {following.live.length > 0 ? (
        <Section title="Live now" id="following-live-heading">
          <div className={LIVE_GRID_CLASS} data-testid="following-live">
            {following.live.map((stream) => (
              <LiveStreamCard key={stream.id} stream={stream} now={now} />
            ))}
          </div>
        </Section>
      ) : null}
      <Section title="Upcoming shows" id="following-shows-heading">
        {following.upcoming.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="following-shows-empty">
            No shows scheduled by the sellers you follow.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {following.upcoming.map((show) => (
              <li key={show.id}>
                <ShowCard show={show} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={`Sellers you follow (${following.sellers.length})`} id="following-sellers-heading">
        <Card className="px-4">
          <ul className="divide-y divide-border" data-testid="following-sellers">
            {following.sellers.map((seller) => (
              <SellerRow key={seller.handle} seller={seller} />
            ))}
          </ul>
        </Card>
      </Section>
    </div>
  );
}

/** /following: the sellers one follows, their rooms live now and their upcoming shows. */
export function FollowingPage() {
  usePageTitle('Following');
  const following = useQuery(followingQueryOptions);

  let body: React.ReactNode;
  if (following.isPending) {
    body = (
      <div className="grid gap-4" role="status" aria-label="Loading who you follow">
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  } else if (following.isError) {
    body = (
      <Card className="flex flex-col items-start gap-3 p-6" data-testid="following-error">
        <p role="alert" className="flex items-center gap-2 text-red-300 text-sm">
          <TriangleAlert className="size-4" aria-hidden="true" />
          {errorMessage(following.error, 'Who you follow could not be loaded.')}
        </p>
        <Button variant="outline" onClick={() => void following.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </Card>
    );
  } else {
    body = <FollowingView following={following.data} />;
  }

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="mb-6 font-bold text-3xl tracking-tight">Following</h1>
      {body}
    </div>
  );
}
