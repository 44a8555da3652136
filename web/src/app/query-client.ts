import { QueryCache, QueryClient } from '@tanstack/react-query';
import { apiGet, handleUnauthorizedError, queryKeyUrl } from '../lib/api/client.ts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** The query handles a 401 itself (the auth check), so no 'Unauthorized' toast. */
      handlesUnauthorized?: boolean;
    };
  }
}

/**
 * The spec's cache policy: data never goes stale, no refetch on window focus, no polling
 * unless a query asks for it, and neither queries nor mutations are retried.
 */
export function createQueryClient(options: { onUnauthorized: () => void }): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.handlesUnauthorized) return;
        handleUnauthorizedError(error, options.onUnauthorized);
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: ({ queryKey }) => apiGet(queryKeyUrl(queryKey)),
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
