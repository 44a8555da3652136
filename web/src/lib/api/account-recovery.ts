import type { User } from '@streamshop/contract/auth.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authUserQueryKey, replaceSession } from './auth.ts';
import { apiPost } from './client.ts';

/** The mailed links' endpoints: verify the address, resend its link, ask for and use a reset link. */

export function useVerifyEmailMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiPost<{ email: string }>('/api/auth/verify-email', { token }),
    // A signed-in owner's banner goes away.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authUserQueryKey }),
  });
}

export function useResendVerificationMutation() {
  return useMutation({
    mutationFn: () => apiPost<{ message: string }>('/api/auth/verify-email/resend'),
  });
}

export function useRequestPasswordResetMutation() {
  return useMutation({
    mutationFn: (email: string) =>
      apiPost<{ message: string }>('/api/auth/password-reset/request', { email }),
  });
}

/** Sets the new password; the server ends every session and signs this browser in. */
export function useResetPasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      apiPost<User>('/api/auth/password-reset', body),
    onSuccess: (user) => replaceSession(queryClient, user),
  });
}
