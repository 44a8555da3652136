import type {
  CardSetup,
  PaymentMethod,
  PaymentMethodsResponse,
} from '@streamshop/contract/payment-methods.ts';
import type { LocalCard, LocalPaymentResult } from '@streamshop/contract/payments.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, apiRequest } from './client.ts';

/** Saved cards (/api/payment-methods): settings lists them, the live room's bid sheet adds one. */

const PAYMENT_METHODS_URL = '/api/payment-methods';

/** The account's saved cards, the default (newest) first, and where an auction win ships. */
export const paymentMethodsQueryOptions = queryOptions({
  queryKey: [PAYMENT_METHODS_URL] as const,
  queryFn: () => apiGet<PaymentMethodsResponse>(PAYMENT_METHODS_URL),
});

/** POST /api/payment-methods/setup: a setup for the card form to confirm. */
export function useOpenCardSetupMutation() {
  return useMutation({ mutationFn: () => apiPost<CardSetup>(`${PAYMENT_METHODS_URL}/setup`) });
}

/** POST /api/payment-methods: saves the card a confirmed setup saved; every list is fetched again. */
export function useSaveCardMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (setupRef: string) =>
      (await apiPost<{ paymentMethod: PaymentMethod }>(PAYMENT_METHODS_URL, { setupRef })).paymentMethod,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PAYMENT_METHODS_URL] }),
  });
}

/** DELETE /api/payment-methods/:id: removes a saved card (detached at the provider too). */
export function useRemoveCardMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>('DELETE', `${PAYMENT_METHODS_URL}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PAYMENT_METHODS_URL] }),
  });
}

/** POST /api/payments/local/setups/confirm: the local provider saves the card (no charge). */
export function useConfirmLocalSetupMutation() {
  return useMutation({
    mutationFn: (body: { clientSecret: string; card: LocalCard }) =>
      apiPost<LocalPaymentResult>('/api/payments/local/setups/confirm', body),
  });
}
