import type { Product } from '@streamshop/contract/catalog.ts';
import type { PaymentSession } from '@streamshop/contract/payments.ts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiGet, apiPost } from './client.ts';

/** GET /api/products/:id (spec section 7: only when signed in, not retried). */
export const checkoutProductQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['/api/products', productId],
    queryFn: () => apiGet<Product>(`/api/products/${encodeURIComponent(productId)}`),
  });

/**
 * POST /api/checkout/:id, once per visit: never stale, never retried, and dropped from the cache
 * as soon as the page unmounts (gcTime 0), so the next visit opens a fresh session.
 */
export const checkoutSessionQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['checkout', productId],
    queryFn: () => apiPost<PaymentSession>(`/api/checkout/${encodeURIComponent(productId)}`),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

/** After a purchase: the buyer's orders and stats, and every view that shows the product's stock. */
export function invalidateAfterPurchase(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    ['/api/orders', '/api/analytics', '/api/explore', '/api/storefront'].map((url) =>
      queryClient.invalidateQueries({ queryKey: [url] }),
    ),
  );
}
