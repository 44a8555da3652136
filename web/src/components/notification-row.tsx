import type { Notification } from '@streamshop/contract/notifications.ts';
import { safeReturnPath } from '@streamshop/contract/return-path.ts';
import { CalendarClock, Radio } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';
import { relativeTime } from '../lib/notifications.ts';

/**
 * One notification (the bell's panel, the /notifications page): what happened, when, and a dot
 * while unread. It leads to its link; `onOpen` marks it read on the way.
 */
export function NotificationRow({
  notification,
  now,
  onOpen,
  action,
  compact = false,
}: {
  notification: Notification;
  now: number;
  onOpen: (notification: Notification) => void;
  /** A control beside the link (the page's "Mark read"). */
  action?: ReactNode;
  compact?: boolean;
}) {
  const Icon = notification.kind === 'live' ? Radio : CalendarClock;
  // Only a path on this site is followed (the server makes them so; this is the belt).
  const to = safeReturnPath(notification.link) ?? '/notifications';
  const when = new Date(notification.createdAt);
  return (
    <div
      className={cn('flex items-start gap-2', !notification.read && 'bg-primary/5')}
      data-testid="notification"
      data-read={notification.read}
    >
      <Link
        to={to}
        onClick={() => onOpen(notification)}
        className={cn(
          'flex min-w-0 flex-1 items-start gap-3 rounded-md text-left transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
          compact ? 'px-3 py-2.5' : 'px-4 py-3',
        )}
      >
        <Icon
          className={cn(
            'mt-0.5 size-4 shrink-0',
            notification.kind === 'live' ? 'text-live' : 'text-primary',
          )}
          aria-hidden="true"
        />
        <span className="min-w-0 flex-1">
          <span
            className={cn(
              'block break-words text-sm',
              notification.read ? 'text-muted-foreground' : 'font-medium text-foreground',
            )}
          >
            {notification.read ? null : <span className="sr-only">Unread: </span>}
            {notification.text}
          </span>
          <time
            dateTime={notification.createdAt}
            title={Number.isNaN(when.getTime()) ? undefined : when.toLocaleString('en-US')}
            className="mt-0.5 block text-muted-foreground text-xs"
          >
            {relativeTime(notification.createdAt, now)}
          </time>
        </span>
        {notification.read ? null : (
          <span
            className="mt-1.5 size-2 shrink-0 rounded-full bg-primary"
            aria-hidden="true"
            data-testid="unread-dot"
          />
        )}
      </Link>
      {action}
    </div>
  );
}
