import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { EmptyState } from '../../components/empty-state.tsx';
import { LIVE_GRID_CLASS, LiveCardsSkeleton, LiveStreamCard } from '../../components/live-stream-card.tsx';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { liveStreamsQueryOptions } from '../../lib/api/catalog.ts';
import { useNow } from '../../lib/use-now.ts';

/** 'Live Now' with a count, the live stream cards, 3 skeletons while loading, or 'No Live Streams'. */
export function LiveSection() {
  const { data: streams, isPending, isError } = useQuery(liveStreamsQueryOptions);
  const live = streams?.filter((stream) => stream.isActive) ?? [];
  const now = useNow(live.length > 0);

  return (
    <section
      id="live"
      aria-labelledby="live-now-heading"
      className="mb-10 scroll-mt-20"
      data-testid="live-section"
    >
      <div className="mb-4 flex items-center gap-3">
        <h2 id="live-now-heading" className="flex items-center gap-2 font-bold text-xl">
          <span className="relative flex size-2.5" aria-hidden="true">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-500 opacity-75" />
            <span className="relative inline-flex size-2.5 rounded-full bg-red-500" />
          </span>
          Live Now
        </h2>
        {live.length > 0 ? (
          <Badge variant="live" className={LIVE_BADGE_CLASS} data-testid="live-count">
            {live.length} {live.length === 1 ? 'stream' : 'streams'}
          </Badge>
        ) : null}
      </div>
      {isPending ? (
        <LiveCardsSkeleton />
      ) : live.length > 0 ? (
        <div className={LIVE_GRID_CLASS}>
          {live.map((stream) => (
            <LiveStreamCard key={stream.id} stream={stream} now={now} />
          ))}
        </div>
      ) : (
        <EmptyState
          icon={Radio}
          title="No Live Streams"
          description={
            isError
              ? 'Live streams could not be loaded right now.'
              : 'Check back later for live shopping experiences!'
          }
          testId="live-empty"
          className="py-6"
        />
      )}
    </section>
  );
}
