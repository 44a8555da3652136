import type { Product } from '@streamshop/contract/catalog.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import type { CheckoutAnswer, CheckoutSession } from '@streamshop/contract/payments.ts';
import type { AddressesResponse, ShippingAddress } from '@streamshop/contract/shipping.ts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiGet, apiPost } from './client.ts';

/** GET /api/products/:id (spec section 7: only when signed in, not retried). */
export const checkoutProductQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['/api/products', productId],
    queryFn: () => apiGet<Product>(`/api/products/${encodeURIComponent(productId)}`),
  });

/**
 * POST /api/checkout/:id asked on opening checkout only when no unit is left (so it holds
 * nothing): the order of a buyer who paid for it moments ago, or 409. Never stale, never
 * retried, dropped from the cache as soon as the page unmounts (gcTime 0). Pay opens the session
 * itself (lib/checkout-session.ts).
 */
export const checkoutSessionQueryOptions = (
  productId: string,
  shippingAddress: ShippingAddress | null = null,
) =>
  queryOptions({
    queryKey: ['checkout', productId, shippingAddress],
    queryFn: () =>
      apiPost<CheckoutAnswer>(
        `/api/checkout/${encodeURIComponent(productId)}`,
        shippingAddress ? { shippingAddress } : undefined,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

/** The session to pay, when checkout answered one. */
export const sessionOf = (answer: CheckoutAnswer | undefined): CheckoutSession | undefined =>
  answer && !('order' in answer) ? answer : undefined;

/** The order, when checkout answered one: the buyer paid for this moments ago and none is left. */
export const placedOrderOf = (answer: CheckoutAnswer | undefined): OrderDetail | undefined =>
  answer && 'order' in answer ? answer.order : undefined;

/** GET /api/addresses: where the buyer shipped before, the most recently used first. */
export const savedAddressesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/addresses'],
    queryFn: () => apiGet<AddressesResponse>('/api/addresses'),
    staleTime: 0,
  });

/** After a purchase: the buyer's orders and stats, and every view that shows the product's stock. */
export function invalidateAfterPurchase(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    ['/api/orders', '/api/analytics', '/api/explore', '/api/storefront', '/api/addresses'].map((url) =>
      queryClient.invalidateQueries({ queryKey: [url] }),
    ),
  );
}
