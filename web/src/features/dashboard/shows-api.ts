import type { Stream } from '@streamshop/contract/catalog.ts';
import type { CreateShowBody, Show, ShowList, UpdateShowBody } from '@streamshop/contract/shows.ts';
import { SHOWS_PAGE_LIMIT } from '@streamshop/contract/shows.ts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiRequest } from '../../lib/api/client.ts';

/** The seller's shows on the dashboard (issue 29): every status, latest first. */
const MY_SHOWS_URL = `/api/shows?scope=mine&limit=${SHOWS_PAGE_LIMIT}`;

/**
 * A show moves on by itself (missed 30 minutes after its time, ended with its room), so unlike
 * most of the dashboard the list goes stale: opening the tab later reads it again.
 */
export const myShowsQueryOptions = queryOptions({
  queryKey: [MY_SHOWS_URL],
  queryFn: () => apiGet<ShowList>(MY_SHOWS_URL),
  staleTime: 30_000,
});

/** A show changed: every list or page of shows (the keys are their URLs), and the streams. */
function invalidateShowViews(queryClient: QueryClient, streams = false): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({
      predicate: ({ queryKey }) => typeof queryKey[0] === 'string' && queryKey[0].startsWith('/api/shows'),
    }),
    queryClient.invalidateQueries({ queryKey: ['/api/following'] }),
    streams ? queryClient.invalidateQueries({ queryKey: ['/api/streams/mine'] }) : undefined,
  ]);
}

/** POST /api/shows (id null) or PATCH /api/shows/:id. */
export function useSaveShowMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: CreateShowBody | UpdateShowBody }) =>
      id
        ? apiRequest<Show>('PATCH', `/api/shows/${encodeURIComponent(id)}`, body)
        : apiPost<Show>('/api/shows', body),
    onSuccess: () => invalidateShowViews(queryClient),
  });
}

export function useDeleteShowMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<void>(`/api/shows/${encodeURIComponent(id)}`),
    onSuccess: () => invalidateShowViews(queryClient),
  });
}

/** POST /api/shows/:id/live: the show's room (made once); the seller then starts it there. */
export function useGoLiveFromShowMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiPost<{ roomName: string; stream: Stream }>(`/api/shows/${encodeURIComponent(id)}/live`),
    onSuccess: () => invalidateShowViews(queryClient, true),
  });
}
