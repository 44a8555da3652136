import type { FollowState } from '@streamshop/contract/follows.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from './client.ts';

// Only types come from the contract's follows module: its zod schemas stay out of this bundle.

/** GET /api/following: the followed sellers, their live rooms and upcoming shows. */
export const FOLLOWING_URL = '/api/following';

const followUrl = (handle: string) => `/api/sellers/${encodeURIComponent(handle)}/follow`;

/** GET /api/sellers/:handle/follow: whether the caller follows the seller, and how many do. */
export const followStateQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: ['/api/sellers', handle, 'follow'] as const,
    queryFn: () => apiGet<FollowState>(followUrl(handle)),
  });

/**
 * Follows or unfollows a seller. The button shows the change at once (the count moves by one);
 * the server's answer then replaces the guess (someone else may have followed meanwhile), and a
 * refusal puts back what was there.
 */
export function useFollowMutation(handle: string) {
  const queryClient = useQueryClient();
  const { queryKey } = followStateQueryOptions(handle);
  return useMutation({
    mutationFn: (follow: boolean) => apiRequest<FollowState>(follow ? 'POST' : 'DELETE', followUrl(handle)),
    onMutate: async (follow: boolean) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      if (before && before.following !== follow) {
        queryClient.setQueryData(queryKey, {
          ...before,
          following: follow,
          followers: Math.max(0, before.followers + (follow ? 1 : -1)),
        });
      }
      return { before };
    },
    onSuccess: (state) => queryClient.setQueryData(queryKey, state),
    onError: (_error, _follow, context) => {
      if (context?.before) queryClient.setQueryData(queryKey, context.before);
    },
    // The /following page lists the sellers followed: it is out of date either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [FOLLOWING_URL] }),
  });
}
