import { CloseCode } from '@streamshop/contract/live.ts';
import {
  NOTIFICATIONS_PAGE_LIMIT,
  type NotificationList,
  type NotificationNudge,
} from '@streamshop/contract/notifications.ts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { authUserQueryKey } from './api/auth.ts';
import { apiGet, apiPost } from './api/client.ts';
import { RealtimeSocket } from './realtime.ts';

/**
 * The bell (issue 29): the unread count, live over /ws/notifications, and the notifications
 * themselves. The nav bar's bell and the /notifications page share one cache: reading one in
 * either place marks it read in both, and a new one refreshes whichever list is loaded.
 */

export const NOTIFICATIONS_URL = '/api/notifications';
export const NOTIFICATIONS_SOCKET_PATH = '/ws/notifications';
/** How many the bell's panel lists; the page has them all. */
export const BELL_LIMIT = 8;

const unreadQueryKey = [NOTIFICATIONS_URL, 'unread'] as const;
const latestQueryKey = [NOTIFICATIONS_URL, 'latest'] as const;
const pagesQueryKey = [NOTIFICATIONS_URL, 'pages'] as const;

/** A list answer carries the count too: the bell agrees with the list even without its socket. */
async function fetchNotifications(client: QueryClient, before: string | null): Promise<NotificationList> {
  const url = before ? `${NOTIFICATIONS_URL}?before=${encodeURIComponent(before)}` : NOTIFICATIONS_URL;
  const list = await apiGet<NotificationList>(url);
  client.setQueryData(unreadQueryKey, list.unread);
  return list;
}

/** The newest page: what the bell's panel shows. */
export const latestNotificationsQueryOptions = queryOptions({
  queryKey: latestQueryKey,
  queryFn: ({ client }) => fetchNotifications(client, null),
});

/** Every notification, newest first, a page of NOTIFICATIONS_PAGE_LIMIT at a time ("Load more"). */
export const notificationPagesQueryOptions = infiniteQueryOptions({
  queryKey: pagesQueryKey,
  queryFn: ({ client, pageParam }) => fetchNotifications(client, pageParam),
  initialPageParam: null as string | null,
  // A full page may have more behind it; a short one is the last.
  getNextPageParam: (last) =>
    last.notifications.length >= NOTIFICATIONS_PAGE_LIMIT ? (last.notifications.at(-1)?.id ?? null) : null,
});

/** What the nav bar's bell says: "Notifications", or "Notifications, 3 unread". */
export function bellLabel(unread: number | undefined): string {
  return unread ? `Notifications, ${unread} unread` : 'Notifications';
}

/** The number on the bell: none at 0 (or before the count is known), "99+" past 99. */
export function unreadBadge(unread: number | undefined): string | null {
  if (!unread || unread < 1) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** A frame of /ws/notifications, or null for anything else (no zod: this runs on every page). */
export function parseNudge(raw: string): NotificationNudge | null {
  const value: unknown = JSON.parse(raw);
  if (!value || typeof value !== 'object') return null;
  const { type, unread } = value as Record<string, unknown>;
  if (type !== 'notifications' || typeof unread !== 'number' || !Number.isInteger(unread) || unread < 0) {
    return null;
  }
  return { type, unread };
}

/**
 * A count from the server. When it differs from the one we had, something happened (a new
 * notification, a read in another tab): the loaded lists are fetched again.
 */
export function applyNudge(queryClient: QueryClient, nudge: NotificationNudge): void {
  const before = queryClient.getQueryData<number>(unreadQueryKey);
  queryClient.setQueryData(unreadQueryKey, nudge.unread);
  if (before === nudge.unread) return;
  void queryClient.invalidateQueries({
    predicate: ({ queryKey }) => queryKey[0] === NOTIFICATIONS_URL && queryKey[1] !== 'unread',
  });
}

/** The unread count the server last told us (undefined until the socket has said it). */
export function useUnreadCount(): number | undefined {
  return useQuery({
    queryKey: unreadQueryKey,
    // Written by the socket, the lists and the read answers; never fetched on its own.
    queryFn: async () => (await apiGet<NotificationList>(NOTIFICATIONS_URL)).unread,
    enabled: false,
  }).data;
}

/**
 * Keeps the unread count live while someone is signed in: one socket, reconnecting with backoff.
 * Closed 4001 (the session ended elsewhere): the app asks who is signed in again.
 */
export function useNotificationSocket(userId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId || typeof WebSocket === 'undefined') return;
    const socket = new RealtimeSocket<NotificationNudge>({
      path: NOTIFICATIONS_SOCKET_PATH,
      parse: parseNudge,
      onMessage: (nudge) => applyNudge(queryClient, nudge),
      onStatus: (status, code) => {
        if (status === 'closed' && code === CloseCode.signedOut) {
          void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
        }
      },
    });
    socket.connect();
    return () => socket.close();
  }, [queryClient, userId]);
}

interface Snapshot {
  unread: number | undefined;
  latest: NotificationList | undefined;
  pages: InfiniteData<NotificationList, string | null> | undefined;
}

/** Marks the given notifications (all when `ids` is undefined) read in every cached list. */
function markReadInCache(queryClient: QueryClient, ids: string[] | undefined): Snapshot {
  const snapshot: Snapshot = {
    unread: queryClient.getQueryData<number>(unreadQueryKey),
    latest: queryClient.getQueryData(latestNotificationsQueryOptions.queryKey),
    pages: queryClient.getQueryData(notificationPagesQueryOptions.queryKey),
  };
  const wanted = ids ? new Set(ids) : undefined;
  const newlyRead = new Set<string>();
  const readList = (list: NotificationList): NotificationList => ({
    ...list,
    notifications: list.notifications.map((notification) => {
      if (notification.read || (wanted && !wanted.has(notification.id))) return notification;
      newlyRead.add(notification.id);
      return { ...notification, read: true };
    }),
  });
  if (snapshot.latest) queryClient.setQueryData(latestQueryKey, readList(snapshot.latest));
  if (snapshot.pages) {
    queryClient.setQueryData(pagesQueryKey, { ...snapshot.pages, pages: snapshot.pages.pages.map(readList) });
  }
  if (snapshot.unread !== undefined) {
    queryClient.setQueryData(unreadQueryKey, wanted ? Math.max(0, snapshot.unread - newlyRead.size) : 0);
  }
  return snapshot;
}

/**
 * POST /api/notifications/read: the given ones, or every one (`undefined`). Shown read at once;
 * the answer's count replaces the guess, and a refusal puts everything back.
 */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | undefined) =>
      apiPost<{ unread: number }>(`${NOTIFICATIONS_URL}/read`, ids ? { ids } : {}),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: [NOTIFICATIONS_URL] });
      return markReadInCache(queryClient, ids);
    },
    onSuccess: ({ unread }) => queryClient.setQueryData(unreadQueryKey, unread),
    onError: (_error, _ids, snapshot) => {
      if (!snapshot) return;
      queryClient.setQueryData(unreadQueryKey, snapshot.unread);
      queryClient.setQueryData(latestQueryKey, snapshot.latest);
      queryClient.setQueryData(pagesQueryKey, snapshot.pages);
    },
  });
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday"; past a week the date ("Mar 5"). */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const ago = -seconds;
  if (ago < 60) return 'just now';
  if (ago < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (ago < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (ago < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return new Date(then).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}
