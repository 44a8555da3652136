import type { Show, ShowStatus } from '@streamshop/contract/shows.ts';
import {
  Bell,
  CalendarClock,
  Eye,
  Loader2,
  Package,
  PlayCircle,
  Radio,
  SquarePen,
  Trash2,
} from 'lucide-react';
import { Link } from 'react-router';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatInZone } from './zoned-time.ts';

const STATUS: Record<ShowStatus, { label: string; variant: BadgeVariant; className?: string }> = {
  scheduled: { label: 'Scheduled', variant: 'secondary' },
  live: { label: 'Live', variant: 'live', className: LIVE_BADGE_CLASS },
  ended: { label: 'Ended', variant: 'outline' },
  missed: { label: 'Missed', variant: 'destructive' },
};

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const roomPath = (roomName: string) => `/room/${encodeURIComponent(roomName)}`;

/**
 * A show of the seller's: its cover, status, time in the zone it was scheduled in, lineup and
 * reminders; going live, editing and deleting while it is scheduled, its room once it went live.
 */
export function ShowRow({
  show,
  goingLive,
  onGoLive,
  onEdit,
  onDelete,
}: {
  show: Show;
  /** This show's Go live is on its way (its button spins; every Go live waits). */
  goingLive: boolean | 'other';
  onGoLive: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const status = STATUS[show.status];
  const scheduled = show.status === 'scheduled';
  return (
    <li>
      <Card className="flex flex-wrap items-center gap-x-4 gap-y-3 p-3" data-testid="dashboard-show">
        <div className="flex aspect-video w-24 shrink-0 items-center justify-center overflow-hidden rounded-md bg-muted sm:w-32">
          {show.coverUrl ? (
            <img
              src={show.coverUrl}
              alt=""
              width={128}
              height={72}
              loading="lazy"
              decoding="async"
              className="size-full object-cover"
            />
          ) : (
            <CalendarClock className="size-6 text-muted-foreground" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1 basis-48">
          <div className="flex min-w-0 items-start gap-2">
            <h3 className="line-clamp-2 break-words font-medium" data-testid="dashboard-show-title">
              {show.title}
            </h3>
            <Badge variant={status.variant} className={status.className} data-testid="dashboard-show-status">
              {status.label}
            </Badge>
          </div>
          <p className="mt-1 text-sm" data-testid="dashboard-show-time">
            <time dateTime={show.startsAt}>{formatInZone(show.startsAt, show.timeZone)}</time>
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm">
            <span className="inline-flex items-center gap-1" data-testid="dashboard-show-products">
              <Package className="size-3.5" aria-hidden="true" />
              {count(show.products.length, 'product', 'products')}
            </span>
            <span className="inline-flex items-center gap-1" data-testid="dashboard-show-reminders">
              <Bell className="size-3.5" aria-hidden="true" />
              {count(show.reminders, 'reminder', 'reminders')}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {scheduled ? (
            <Button
              size="sm"
              className="bg-red-600 text-white hover:bg-red-700"
              disabled={goingLive !== false}
              onClick={onGoLive}
              aria-label={`Go live with ${show.title}`}
              data-testid="show-go-live"
            >
              {goingLive === true ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Radio aria-hidden="true" />
              )}
              Go live
            </Button>
          ) : null}
          {show.roomName && (show.status === 'live' || show.status === 'ended') ? (
            <Link
              to={roomPath(show.roomName)}
              className={buttonClasses({ variant: 'outline', size: 'sm' })}
              aria-label={`${show.status === 'live' ? 'Watch' : 'Replay'} ${show.title}`}
              data-testid="show-room-link"
            >
              <PlayCircle aria-hidden="true" />
              {show.status === 'live' ? 'Watch' : 'Replay'}
            </Link>
          ) : null}
          <Link
            to={`/shows/${encodeURIComponent(show.id)}`}
            className={buttonClasses({ variant: 'outline', size: 'sm' })}
            aria-label={`View ${show.title}`}
            data-testid="show-view-link"
          >
            <Eye aria-hidden="true" />
            View
          </Link>
          {scheduled ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Edit ${show.title}`}
              onClick={onEdit}
              data-testid="show-edit"
            >
              <SquarePen aria-hidden="true" />
            </Button>
          ) : null}
          {show.status === 'live' ? null : (
            <Button
              variant="ghost"
              size="icon"
              className="text-red-400 hover:text-red-300"
              aria-label={`Delete ${show.title}`}
              onClick={onDelete}
              data-testid="show-delete"
            >
              <Trash2 aria-hidden="true" />
            </Button>
          )}
        </div>
      </Card>
    </li>
  );
}
