import type { Analytics, Product, ProductBody, Stream } from '@streamshop/contract/catalog.ts';
import type { StreamAnalytics } from '@streamshop/contract/stream-analytics.ts';
import type { MyStreamStats } from '@streamshop/contract/stream-stats.ts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut, throwIfNotOk } from './client.ts';

// The default query function GETs the key joined with '/', so these keys are the URLs.
export const analyticsQueryOptions = queryOptions({
  queryKey: ['/api/analytics'],
  queryFn: () => apiGet<Analytics>('/api/analytics'),
});
export const myProductsQueryOptions = queryOptions({
  queryKey: ['/api/products/mine'],
  queryFn: () => apiGet<Product[]>('/api/products/mine'),
});
export const myStreamsQueryOptions = queryOptions({
  queryKey: ['/api/streams/mine'],
  queryFn: () => apiGet<Stream[]>('/api/streams/mine'),
});
/**
 * The seller's figures per stream (viewers, chat, sales), by stream id. They grow during a stream
 * and after it (replay sales), so unlike the rest they go stale: opening the tab later refetches.
 */
export const myStreamStatsQueryOptions = queryOptions({
  queryKey: ['/api/streams/mine/stats'],
  queryFn: () => apiGet<MyStreamStats>('/api/streams/mine/stats'),
  staleTime: 30_000,
});
/** A Pro seller's analytics of one stream (403 PRO_REQUIRED on free); stale after 30 s like the stats. */
export const streamAnalyticsQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: [`/api/streams/${encodeURIComponent(roomName)}/analytics`],
    queryFn: () => apiGet<StreamAnalytics>(`/api/streams/${encodeURIComponent(roomName)}/analytics`),
    staleTime: 30_000,
  });

/** A product changed: the seller's lists and stats, and every browse view that may show it. */
function invalidateProductViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [
      '/api/products/mine',
      '/api/analytics',
      '/api/explore',
      '/api/facets',
      '/api/storefront',
      '/api/products',
    ].map((url) => queryClient.invalidateQueries({ queryKey: [url] })),
  );
}

export function useSaveProductMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ProductBody }) =>
      id ? apiPut<Product>(`/api/products/${id}`, body) : apiPost<Product>('/api/products', body),
    onSuccess: () => invalidateProductViews(queryClient),
  });
}

export function useDeleteProductMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<void>(`/api/products/${id}`),
    onSuccess: () => invalidateProductViews(queryClient),
  });
}

/** POST /api/uploads/product-image (multipart, field `image`) -> the URL to use as imageUrl. */
export async function uploadProductImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const response = await fetch('/api/uploads/product-image', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    body: form,
  });
  await throwIfNotOk(response);
  const { url } = (await response.json()) as { url: string };
  return url;
}

export function useUploadImageMutation() {
  return useMutation({ mutationFn: uploadProductImage });
}
