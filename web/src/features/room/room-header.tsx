import { Clock, Eye } from 'lucide-react';
import { FollowButton } from '../../components/follow-button.tsx';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCountdown } from '../../lib/countdown.ts';

/** The room's mm:ss time left, a timer named "Time left mm:ss" (the header's, or over the phone room's video). */
export function RoomCountdown({
  secondsLeft,
  className,
  iconClassName,
}: {
  secondsLeft: number;
  className: string;
  iconClassName: string;
}) {
  return (
    <span
      className={cn('inline-flex items-center rounded-md font-mono tabular-nums', className)}
      role="timer"
      aria-label={`Time left ${formatCountdown(secondsLeft)}`}
      data-testid="countdown"
    >
      <Clock className={iconClassName} aria-hidden="true" />
      {formatCountdown(secondsLeft)}
    </span>
  );
}

/** Title, host, LIVE badge, viewer count and the mm:ss countdown above the stage. */
export function RoomHeader({
  title,
  hostHandle,
  live,
  viewerCount,
  secondsLeft,
}: {
  title: string;
  hostHandle: string;
  live: boolean;
  /** Viewers in the room now; null hides the count (the stream has ended). */
  viewerCount: number | null;
  /** Time left while live, or the plan's full length before the start; null once ended. */
  secondsLeft: number | null;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <div className="flex items-start gap-3">
          {/* The whole title, over as many lines as it needs: a phone must not cut it off. */}
          <h1
            className="min-w-0 break-words font-bold text-2xl tracking-tight sm:text-3xl"
            data-testid="room-title"
          >
            {title}
          </h1>
          {live ? (
            <Badge
              variant="live"
              className={`mt-1.5 shrink-0 gap-1.5 uppercase ${LIVE_BADGE_CLASS}`}
              data-testid="live-badge"
            >
              <span className="size-1.5 animate-pulse rounded-full bg-white" aria-hidden="true" />
              Live
            </Badge>
          ) : null}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-2">
          <p className="text-muted-foreground text-sm">Hosted by @{hostHandle}</p>
          <FollowButton handle={hostHandle} />
        </div>
      </div>
      <div className="flex items-center gap-2 text-sm">
        {viewerCount !== null ? (
          <span
            className="inline-flex items-center gap-1.5 rounded-md border border-border bg-card px-3 py-1.5 tabular-nums"
            data-testid="viewer-count"
          >
            <Eye className="size-4 text-primary" aria-hidden="true" />
            <span>{viewerCount}</span>
            <span className="text-muted-foreground">{viewerCount === 1 ? 'viewer' : 'viewers'}</span>
          </span>
        ) : null}
        {secondsLeft !== null ? (
          <RoomCountdown
            secondsLeft={secondsLeft}
            className="gap-1.5 border border-border bg-card px-3 py-1.5"
            iconClassName="size-4 text-primary"
          />
        ) : null}
      </div>
    </div>
  );
}
