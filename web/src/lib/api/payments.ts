import type {
  LocalCard,
  LocalHostedPayment,
  LocalPaymentResult,
  PaymentConfig,
} from '@streamshop/contract/payments.ts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from './client.ts';

// Only types come from the contract's payments module: its zod schemas stay out of this bundle.

/** GET /api/payments/config: which provider draws the card form. */
export const paymentConfigQueryOptions = queryOptions({
  queryKey: ['/api/payments/config'],
  queryFn: () => apiGet<PaymentConfig>('/api/payments/config'),
});

/**
 * Whether a checkout of this seller's product can open: false only where sellers must finish
 * payout onboarding first (Stripe Connect, `sellersOnboard`) and this one has not (ADR 0016).
 */
export function useSellerTakesOrders(sellerOnboarded: boolean | undefined): boolean {
  const config = useQuery(paymentConfigQueryOptions);
  return !(config.data?.sellersOnboard === true && sellerOnboarded === false);
}

/** POST /api/payments/local/confirm: the local provider charges the card. */
export function useConfirmLocalPaymentMutation() {
  return useMutation({
    mutationFn: (body: { clientSecret: string; card: LocalCard }) =>
      apiPost<LocalPaymentResult>('/api/payments/local/confirm', body),
  });
}

/** POST /api/payments/local/authenticate: the outcome of the simulated 3-D Secure step. */
export function useAuthenticateLocalPaymentMutation() {
  return useMutation({
    mutationFn: (body: { clientSecret: string; approve: boolean }) =>
      apiPost<LocalPaymentResult>('/api/payments/local/authenticate', body),
  });
}

/**
 * GET /api/payments/local/hosted/:id: the local provider's hosted payment (404 for an unknown
 * link). Read once per visit: never stale, never retried.
 */
export const hostedPaymentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/payments/local/hosted', id],
    queryFn: () => apiGet<LocalHostedPayment>(`/api/payments/local/hosted/${encodeURIComponent(id)}`),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
