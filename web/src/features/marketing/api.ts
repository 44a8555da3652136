import type {
  BetaSignupBody,
  DiscOrderBody,
  DiscPreorderBody,
  NewsletterPreorder,
  NewsletterPreorderBody,
} from '@streamshop/contract/disc.ts';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/api/client.ts';

export function useBetaSignupMutation() {
  return useMutation({
    mutationFn: (body: BetaSignupBody) => apiPost<{ ok: true }>('/api/beta-signup', body),
  });
}

export function useNewsletterPreorderMutation() {
  return useMutation({
    mutationFn: (body: NewsletterPreorderBody) => apiPost<NewsletterPreorder>('/api/pre-order', body),
  });
}

export function useDiscOrderMutation() {
  return useMutation({
    mutationFn: (body: DiscOrderBody) => apiPost<{ id: string }>('/api/stream-disc-orders', body),
  });
}

/** POST /api/stream-disc/pre-order: the $1 reservation; the answer says where to pay it. */
export function useDiscReservationMutation() {
  return useMutation({
    mutationFn: (body: DiscPreorderBody) =>
      apiPost<{ checkoutUrl: string }>('/api/stream-disc/pre-order', body),
  });
}
