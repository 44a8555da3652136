import type { Notification } from '@streamshop/contract/notifications.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { BellOff, Check, CheckCheck, Loader2, RotateCw, Settings, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { NotificationRow } from '../../components/notification-row.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import {
  notificationPagesQueryOptions,
  useMarkNotificationsRead,
  useUnreadCount,
} from '../../lib/notifications.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useNow } from '../../lib/use-now.ts';

/** /notifications: every notification, newest first, with "Load more", and reading them. */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const pages = useInfiniteQuery(notificationPagesQueryOptions);
  const markRead = useMarkNotificationsRead();
  const unread = useUnreadCount();
  const now = useNow(true, 30_000);
  const notifications = pages.data?.pages.flatMap((page) => page.notifications) ?? [];

  const read = (ids: string[] | undefined) =>
    markRead.mutate(ids, {
      onError: (error) => errorToast('Could not mark as read', errorMessage(error, 'Please try again.')),
    });
  const open = (notification: Notification) => {
    if (!notification.read) read([notification.id]);
  };

  let body: React.ReactNode;
  if (pages.isPending) {
    body = (
      <div className="grid gap-2" role="status" aria-label="Loading notifications">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  } else if (!pages.data) {
    body = (
      <Card className="flex flex-col items-start gap-3 p-6" data-testid="notifications-error">
        <p role="alert" className="flex items-center gap-2 text-red-300 text-sm">
          <TriangleAlert className="size-4" aria-hidden="true" />
          {errorMessage(pages.error, 'Your notifications could not be loaded.')}
        </p>
        <Button variant="outline" onClick={() => void pages.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </Card>
    );
  } else if (notifications.length === 0) {
    body = (
      <EmptyState
        icon={BellOff}
        title="No notifications yet"
        description="Follow sellers or ask for a show's reminder: you hear here when they go live."
        headingLevel={2}
        testId="notifications-empty"
      >
        <Link to="/explore" className={buttonClasses({ variant: 'outline', className: 'mt-3' })}>
          Explore sellers
        </Link>
      </EmptyState>
    );
  } else {
    body = (
      <Card className="overflow-hidden p-0">
        <ul
          className="divide-y divide-border"
          aria-label="Your notifications"
          data-testid="notifications-list"
        >
          {notifications.map((notification) => (
            <li key={notification.id}>
              <NotificationRow
                notification={notification}
                now={now}
                onOpen={open}
                action={
                  notification.read ? null : (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="mt-1.5 mr-2 size-9"
                      onClick={() => read([notification.id])}
                      aria-label={`Mark read: ${notification.text}`}
                      title="Mark read"
                      data-testid="notification-mark-read"
                    >
                      <Check aria-hidden="true" />
                    </Button>
                  )
                }
              />
            </li>
          ))}
        </ul>
      </Card>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <header className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Notifications</h1>
          <p className="mt-1 text-muted-foreground text-sm" data-testid="notifications-unread">
            {unread ? `${unread} unread` : 'All caught up'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={!unread || markRead.isPending}
            onClick={() => read(undefined)}
            data-testid="notifications-mark-all"
          >
            <CheckCheck aria-hidden="true" />
            Mark all read
          </Button>
          <Link
            to="/settings#notifications"
            className={buttonClasses({ variant: 'ghost', size: 'sm' })}
            data-testid="notifications-settings"
          >
            <Settings aria-hidden="true" />
            Notification settings
          </Link>
        </div>
      </header>
      {body}
      {pages.isFetchNextPageError ? (
        <p role="alert" className="mt-4 text-center text-red-300 text-sm">
          {errorMessage(pages.error, 'More notifications could not be loaded. Please try again.')}
        </p>
      ) : null}
      {pages.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="outline"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
            data-testid="notifications-more"
          >
            {pages.isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
