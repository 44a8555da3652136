import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { dismissErrorToasts } from '../components/ui/use-toast.ts';
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
 * Every mutation is something the user asked for (a form sent, a button pressed); when one
 * succeeds, the red toasts of earlier failed tries and form checks are closed, so that
 * 'Sign Up Failed' does not stay over the dashboard. This runs before the caller's own
 * onSuccess, so a success toast it raises stays.
 *
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
    mutationCache: new MutationCache({ onSuccess: () => dismissErrorToasts() }),
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
