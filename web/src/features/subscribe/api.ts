import type { PaymentSession, Subscription } from '@streamshop/contract/payments.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { apiGet, apiPost } from '../../lib/api/client.ts';

export const SUBSCRIPTION_URL = '/api/subscription';

/** GET /api/subscription: the caller's Pro subscription, or null. */
export const subscriptionQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_URL],
  queryFn: () => apiGet<{ subscription: Subscription | null }>(SUBSCRIPTION_URL),
});

/**
 * POST /api/create-subscription, once per visit (free users only): never stale, never retried,
 * dropped when the page unmounts so the next visit asks again.
 */
export const subscriptionSessionQueryOptions = queryOptions({
  queryKey: ['create-subscription'],
  queryFn: () => apiPost<PaymentSession>('/api/create-subscription'),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: 0,
  retry: false,
});

/** POST /api/subscription/cancel: Pro stays until the end of the paid period. */
export function useCancelSubscriptionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ subscription: Subscription | null }>(`${SUBSCRIPTION_URL}/cancel`),
    onSuccess: (answer) => queryClient.setQueryData(subscriptionQueryOptions.queryKey, answer),
  });
}

/** POST /api/subscription/refund: the money-back guarantee; the account is free at once. */
export function useRefundSubscriptionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ subscription: Subscription | null }>(`${SUBSCRIPTION_URL}/refund`),
    onSuccess: (answer) => {
      queryClient.setQueryData(subscriptionQueryOptions.queryKey, answer);
      void queryClient.refetchQueries({ queryKey: authUserQueryKey });
    },
  });
}
