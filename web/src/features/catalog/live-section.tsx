import type { Stream } from '@streamshop/contract/catalog.ts';
import { useQuery } from '@tanstack/react-query';
import { Eye, Radio, Timer } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { StreamPicture } from '../../components/stream-picture.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { liveStreamsQueryOptions } from '../../lib/api/catalog.ts';

/**
 * Seconds left in a live stream: its duration minus the time since it was created (or its end
 * time when the server gives one). Null when the stream has no duration or creation time.
 */
export function secondsLeft(stream: Pick<Stream, 'durationSec' | 'createdAt' | 'endsAt'>, now: number) {
  const ends = stream.endsAt
    ? Date.parse(stream.endsAt)
    : stream.durationSec && stream.createdAt
      ? Date.parse(stream.createdAt) + stream.durationSec * 1000
      : Number.NaN;
  if (!Number.isFinite(ends)) return null;
  return Math.max(0, Math.floor((ends - now) / 1000));
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function LiveStreamCard({ stream, now }: { stream: Stream; now: number }) {
  const left = secondsLeft(stream, now);
  return (
    <Link
      to={`/room/${encodeURIComponent(stream.roomName)}`}
      className="group block rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="live-card"
    >
      <Card className="overflow-hidden transition-colors group-hover:border-primary/60">
        <div className="relative flex aspect-video items-center justify-center bg-gradient-to-br from-fuchsia-950 via-zinc-900 to-violet-950">
          <StreamPicture
            thumbnailUrl={stream.thumbnailUrl}
            fallback={<Radio className="size-10 text-red-400" aria-hidden="true" />}
          />
          <Badge variant="live" className={`absolute top-2 left-2 ${LIVE_BADGE_CLASS}`}>
            LIVE
          </Badge>
          <span className="absolute top-2 right-2 inline-flex items-center gap-1 rounded-md bg-black/70 px-2 py-0.5 text-xs">
            <Eye className="size-3" aria-hidden="true" />
            {stream.viewCount.toLocaleString('en-US')}
            <span className="sr-only"> viewers</span>
          </span>
          {left !== null ? (
            <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded-md bg-black/70 px-2 py-0.5 text-xs tabular-nums">
              <Timer className="size-3" aria-hidden="true" />
              {left}s left
            </span>
          ) : null}
        </div>
        <div className="p-3">
          <h3 className="line-clamp-1 font-semibold">{stream.title}</h3>
          <p className="text-muted-foreground text-xs">@{stream.owner.handle}</p>
        </div>
      </Card>
    </Link>
  );
}

const LIVE_GRID_CLASS = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** 'Live Now' with a count, the live stream cards, 3 skeletons while loading, or 'No Live Streams'. */
export function LiveSection() {
  const { data: streams, isPending, isError } = useQuery(liveStreamsQueryOptions);
  const live = streams?.filter((stream) => stream.isActive) ?? [];
  const now = useNow(live.length > 0);

  return (
    <section aria-labelledby="live-now-heading" className="mb-10" data-testid="live-section">
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
        <div className={LIVE_GRID_CLASS} role="status" aria-label="Loading live streams">
          {[0, 1, 2].map((i) => (
            <Card key={i} className="overflow-hidden">
              <Skeleton className="aspect-video rounded-none" />
              <div className="grid gap-2 p-3">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-1/3" />
              </div>
            </Card>
          ))}
        </div>
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
