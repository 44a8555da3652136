import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { LIVE_GRID_CLASS, LiveCardsSkeleton, LiveStreamCard } from '../../../components/live-stream-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { liveStreamsQueryOptions } from '../../../lib/api/catalog.ts';
import { useNow } from '../../../lib/use-now.ts';

/** The landing page shows this many live rooms; the rest are a link away. */
const SHOWN = 3;

/**
 * The landing page's way into the shop: the rooms live now (the marketplace's live cards), or a
 * line saying nothing is, and 'Shop now' to the marketplace.
 */
export function LiveNow() {
  // Read when the page opens (and on focus), not polled: the landing page runs no timer of its own
  // (timers.test.tsx, reduced-motion.test.tsx); the marketplace keeps its list fresh.
  const { data: streams, isPending } = useQuery({ ...liveStreamsQueryOptions, refetchInterval: false });
  const live = streams?.filter((stream) => stream.isActive) ?? [];
  const now = useNow(live.length > 0);

  return (
    <section
      id="live-now"
      aria-labelledby="live-now-heading"
      className="mx-auto w-full max-w-6xl scroll-mt-20 px-4 pt-14 sm:px-6"
      data-testid="landing-live"
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="font-semibold text-primary text-sm uppercase tracking-widest">Shop live</p>
          <h2
            id="live-now-heading"
            className="mt-2 flex items-center gap-3 font-bold text-3xl tracking-tight"
          >
            <span className="relative flex size-3" aria-hidden="true">
              <span className="absolute inline-flex size-full rounded-full bg-red-500 opacity-75 motion-safe:animate-ping" />
              <span className="relative inline-flex size-3 rounded-full bg-red-500" />
            </span>
            Live now
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Sellers streaming right now. Watch, chat and buy without leaving the stream.
          </p>
        </div>
        <Button asChild size="lg" variant="outline">
          <Link to="/explore" data-testid="landing-explore">
            Explore the marketplace
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
      <div className="mt-6">
        {isPending ? (
          <LiveCardsSkeleton />
        ) : live.length > 0 ? (
          <>
            <div className={LIVE_GRID_CLASS}>
              {live.slice(0, SHOWN).map((stream) => (
                <LiveStreamCard key={stream.id} stream={stream} now={now} />
              ))}
            </div>
            {live.length > SHOWN ? (
              <Link
                to="/explore#live"
                className="mt-4 inline-flex items-center gap-1 rounded-sm text-purple-300 text-sm underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid="landing-live-all"
              >
                See all {live.length} live rooms
                <ArrowRight className="size-3.5" aria-hidden="true" />
              </Link>
            ) : null}
          </>
        ) : (
          <p
            className="rounded-xl border border-border border-dashed px-4 py-5 text-muted-foreground text-sm"
            data-testid="landing-live-none"
          >
            Nobody is live right now. The marketplace is open: browse what sellers have listed.
          </p>
        )}
      </div>
    </section>
  );
}
