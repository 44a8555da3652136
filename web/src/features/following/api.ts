import type { Following } from '@streamshop/contract/follows.ts';
import type { NotificationKind } from '@streamshop/contract/notifications.ts';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api/client.ts';
import { FOLLOWING_URL } from '../../lib/api/follows.ts';

/** GET /api/following, fetched again on every visit: rooms go live and shows pass meanwhile. */
export const followingQueryOptions = queryOptions({
  queryKey: [FOLLOWING_URL] as const,
  queryFn: () => apiGet<Following>(FOLLOWING_URL),
  staleTime: 0,
});

/** POST /api/notifications/unsubscribe?token=: no session, no body; the token says who and what. */
export function useUnsubscribeMutation() {
  return useMutation({
    mutationFn: (token: string) =>
      apiPost<{ kind: NotificationKind; email: false }>(
        `/api/notifications/unsubscribe?${new URLSearchParams({ token })}`,
      ),
  });
}
