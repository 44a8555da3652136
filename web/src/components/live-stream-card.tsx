import type { Stream } from '@streamshop/contract/catalog.ts';
import { Eye, Radio, Timer } from 'lucide-react';
import { Link } from 'react-router';
import { LIVE_BADGE_CLASS } from './product-card.tsx';
import { StreamPicture } from './stream-picture.tsx';
import { Badge } from './ui/badge.tsx';
import { Card } from './ui/card.tsx';
import { Skeleton } from './ui/skeleton.tsx';

/** The live cards' grid: one column on a phone, up to three on a desktop. */
export const LIVE_GRID_CLASS = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

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

/** A live room's card (marketplace and landing page): picture, LIVE, viewers, time left; opens the room. */
export function LiveStreamCard({ stream, now }: { stream: Stream; now: number }) {
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

/** Three placeholder live cards while the live rooms load. */
export function LiveCardsSkeleton() {
  return (
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
  );
}
