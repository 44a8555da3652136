import type { Show } from '@streamshop/contract/shows.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { Link } from 'react-router';
import { upcomingShowsQueryOptions } from '../lib/api/shows.ts';
import { cn } from '../lib/cn.ts';
import { formatShowTime, formatStartsIn } from '../lib/show-time.ts';
import { useNow } from '../lib/use-now.ts';
import { ShowCover } from './show-cover.tsx';
import { Card } from './ui/card.tsx';

/** How often the cards' "in 2 h" moves on. */
const TICK_MS = 60_000;

/** One upcoming show: its cover with how soon, title, seller and start in the viewer's zone. */
function UpcomingShowCard({ show, now, showSeller }: { show: Show; now: number; showSeller: boolean }) {
  return (
    <Link
      to={`/shows/${encodeURIComponent(show.id)}`}
      className="group block h-full rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="upcoming-show-card"
    >
      <Card className="flex h-full flex-row overflow-hidden transition-colors group-hover:border-primary/60 sm:flex-col">
        <div className="relative w-32 shrink-0 sm:w-full">
          {/* On a phone the picture fills the row's height beside the text; a 16:9 box above it wider. */}
          <ShowCover
            coverUrl={show.coverUrl}
            className="aspect-auto h-full min-h-20 sm:aspect-video sm:h-auto"
          />
          <span
            className="absolute top-2 left-2 rounded-md bg-black/75 px-2 py-0.5 font-semibold text-white text-xs"
            data-testid="upcoming-show-starts-in"
          >
            {formatStartsIn(show.startsAt, now)}
          </span>
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1 p-3">
          <h3 className="line-clamp-2 font-semibold leading-snug">{show.title}</h3>
          {showSeller ? (
            <p className="truncate text-muted-foreground text-xs">@{show.seller.handle}</p>
          ) : null}
          <p className="mt-auto flex items-center gap-1.5 pt-1 text-muted-foreground text-xs">
            <CalendarClock className="size-3.5 shrink-0" aria-hidden="true" />
            <time dateTime={show.startsAt}>{formatShowTime(show.startsAt, show.timeZone).viewer}</time>
          </p>
        </div>
      </Card>
    </Link>
  );
}

/**
 * "Upcoming shows" (issue 29): the scheduled shows soonest first, of everyone or of one seller
 * (`seller`, a handle), each a card to its page. Nothing at all while loading, on an error or
 * when none is scheduled. `tick: false` where the page runs no timer of its own (the landing page).
 */
export function UpcomingShows({
  seller,
  limit = 4,
  tick = true,
  className,
}: {
  seller?: string;
  limit?: number;
  tick?: boolean;
  className?: string;
}) {
  const { data: shows } = useQuery(upcomingShowsQueryOptions({ seller, limit }));
  const now = useNow(tick && !!shows && shows.length > 0, TICK_MS);
  if (!shows || shows.length === 0) return null;
  return (
    <section
      aria-labelledby="upcoming-shows-heading"
      className={cn('mb-10', className)}
      data-testid="upcoming-shows"
    >
      <h2 id="upcoming-shows-heading" className="mb-4 flex items-center gap-2 font-bold text-xl">
        <CalendarClock className="size-5 text-primary" aria-hidden="true" />
        Upcoming shows
      </h2>
      <ul
        className={cn(
          'grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4',
          limit <= 3 ? 'lg:grid-cols-3' : 'lg:grid-cols-4',
        )}
      >
        {shows.map((show) => (
          <li key={show.id}>
            <UpcomingShowCard show={show} now={now} showSeller={!seller} />
          </li>
        ))}
      </ul>
    </section>
  );
}
