import type { Notification } from '@streamshop/contract/notifications.ts';
import { useQuery } from '@tanstack/react-query';
import { Bell, CheckCheck, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { NotificationRow } from '../components/notification-row.tsx';
import { Button, buttonClasses } from '../components/ui/button.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { errorMessage } from '../lib/api/client.ts';
import { errorToast } from '../lib/error-toast.ts';
import {
  BELL_LIMIT,
  bellLabel,
  latestNotificationsQueryOptions,
  unreadBadge,
  useMarkNotificationsRead,
  useNotificationSocket,
  useUnreadCount,
} from '../lib/notifications.ts';
import { useNow } from '../lib/use-now.ts';

function BellPanelList({ onOpen }: { onOpen: (notification: Notification) => void }) {
  const latest = useQuery(latestNotificationsQueryOptions);
  const now = useNow(true, 30_000);
  if (latest.isPending) {
    return (
      <div className="grid gap-2 p-3" role="status" aria-label="Loading notifications">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  }
  if (latest.isError) {
    return (
      <p role="alert" className="flex items-start gap-2 p-4 text-red-300 text-sm" data-testid="bell-error">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {errorMessage(latest.error, 'Your notifications could not be loaded.')}
      </p>
    );
  }
  const notifications = latest.data.notifications.slice(0, BELL_LIMIT);
  if (notifications.length === 0) {
    return (
      <p className="px-4 py-8 text-center text-muted-foreground text-sm" data-testid="bell-empty">
        No notifications yet. Follow sellers to hear when they go live.
      </p>
    );
  }
  return (
    <ul className="max-h-[60vh] divide-y divide-border overflow-y-auto" aria-label="Latest notifications">
      {notifications.map((notification) => (
        <li key={notification.id}>
          <NotificationRow notification={notification} now={now} onOpen={onOpen} compact />
        </li>
      ))}
    </ul>
  );
}

/**
 * The nav bar's bell for a signed-in user: the unread count, live, and a panel with the latest
 * notifications. A disclosure, not a modal: Escape or a click outside closes it.
 */
export function NotificationBell({ userId }: { userId: string }) {
  useNotificationSocket(userId);
  const unread = useUnreadCount();
  const markRead = useMarkNotificationsRead();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const headingId = useId();
  const badge = unreadBadge(unread);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const read = (ids: string[] | undefined) =>
    markRead.mutate(ids, {
      onError: (error) => errorToast('Could not mark as read', errorMessage(error, 'Please try again.')),
    });

  const openNotification = (notification: Notification) => {
    setOpen(false);
    if (!notification.read) read([notification.id]);
  };

  return (
    <div ref={rootRef} className="relative" data-testid="bell">
      <Button
        ref={buttonRef}
        variant="ghost"
        size="icon"
        className="relative"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        data-testid="bell-button"
      >
        <Bell className="size-5" aria-hidden="true" />
        {badge ? (
          <span
            className="absolute top-0.5 right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-live px-1 font-semibold text-[10px] text-white leading-none tabular-nums"
            aria-hidden="true"
            data-testid="bell-badge"
          >
            {badge}
          </span>
        ) : null}
      </Button>
      {open ? (
        <section
          id={panelId}
          aria-labelledby={headingId}
          className="fixed inset-x-2 top-16 z-50 overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-2xl shadow-black/60 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
          data-testid="bell-panel"
        >
          <header className="flex items-center justify-between gap-2 border-border border-b px-4 py-2.5">
            <h2 id={headingId} className="font-semibold text-sm">
              Notifications
            </h2>
            <Button
              variant="ghost"
              size="sm"
              className="h-8 px-2"
              disabled={!unread || markRead.isPending}
              onClick={() => read(undefined)}
              data-testid="bell-mark-all"
            >
              <CheckCheck aria-hidden="true" />
              Mark all read
            </Button>
          </header>
          <BellPanelList onOpen={openNotification} />
          <footer className="border-border border-t p-2">
            <Link
              to="/notifications"
              onClick={() => setOpen(false)}
              className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'w-full' })}
              data-testid="bell-see-all"
            >
              See all
            </Link>
          </footer>
        </section>
      ) : null}
    </div>
  );
}
