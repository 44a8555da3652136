import type { ExploreResponse, FacetsResponse, Stream } from '@streamshop/contract/catalog.ts';
import { LIVE_LIST_REFRESH_MS } from '@streamshop/contract/constants.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiGet } from './client.ts';

// Only types come from the contract's catalog module: its zod schemas stay out of this bundle.

const withQuery = (path: string, params: URLSearchParams) => {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

export const FACETS_URL = '/api/facets';
export const EXPLORE_URL = '/api/explore';
export const LIVE_STREAMS_URL = '/api/streams/live';

/** GET /api/facets with the current search and filters (empty params: the whole catalogue). */
export const facetsQueryOptions = (params: URLSearchParams) =>
  queryOptions({
    queryKey: [FACETS_URL, params.toString()],
    queryFn: () => apiGet<FacetsResponse>(withQuery(FACETS_URL, params)),
    placeholderData: keepPreviousData,
  });

/** GET /api/explore; the previous page stays on screen (dimmed) while the next one loads. */
export const exploreQueryOptions = (params: URLSearchParams) =>
  queryOptions({
    queryKey: [EXPLORE_URL, params.toString()],
    queryFn: () => apiGet<ExploreResponse>(withQuery(EXPLORE_URL, params)),
    placeholderData: keepPreviousData,
  });

/** GET /api/streams/live, refreshed every 30 s. */
export const liveStreamsQueryOptions = queryOptions({
  queryKey: [LIVE_STREAMS_URL],
  queryFn: () => apiGet<Stream[]>(LIVE_STREAMS_URL),
  refetchInterval: LIVE_LIST_REFRESH_MS,
});
