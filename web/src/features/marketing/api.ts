import type {
  BetaSignupBody,
  DiscOrderBody,
  NewsletterPreorder,
  NewsletterPreorderBody,
} from '@streamshop/contract/disc.ts';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/api.ts';

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
