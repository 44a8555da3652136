import type {
  AccountOverview,
  AccountSession,
  ChangeEmailBody,
  ChangePasswordBody,
  DeleteAccountBody,
  ProfileBody,
} from '@streamshop/contract/account.ts';
import type { User } from '@streamshop/contract/auth.ts';
import type { AddressesResponse } from '@streamshop/contract/shipping.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authUserQueryKey, replaceSession } from '../../lib/api/auth.ts';
import { apiGet, apiPost, apiRequest } from '../../lib/api/client.ts';

/** The settings page's calls: /api/account/*, and the saved addresses (/api/addresses). */

export const ACCOUNT_URL = '/api/account';
export const ACCOUNT_EXPORT_URL = '/api/account/export';
const SESSIONS_URL = '/api/account/sessions';
const ADDRESSES_URL = '/api/addresses';

export const accountOverviewQueryOptions = queryOptions({
  queryKey: [ACCOUNT_URL] as const,
  queryFn: () => apiGet<AccountOverview>(ACCOUNT_URL),
});

export const accountSessionsQueryOptions = queryOptions({
  queryKey: [SESSIONS_URL] as const,
  queryFn: async () => (await apiGet<{ sessions: AccountSession[] }>(SESSIONS_URL)).sessions,
});

/** Every address the account keeps (checkout offers only the newest few), the most recently used first. */
export const savedAddressesQueryOptions = queryOptions({
  queryKey: [ADDRESSES_URL, 'all'] as const,
  queryFn: async () => (await apiGet<AddressesResponse>(`${ADDRESSES_URL}?all=true`)).addresses,
});

/** Forgets a saved address; every list of them (here and at checkout) is fetched again. */
export function useRemoveAddressMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `${ADDRESSES_URL}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADDRESSES_URL] }),
  });
}

export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => apiRequest<User>('PATCH', '/api/account/profile', body),
    onSuccess: (user) => queryClient.setQueryData(authUserQueryKey, user),
  });
}

export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiPost<{ otherSessionsEnded: number }>('/api/account/password', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSessionsQueryOptions.queryKey }),
  });
}

export function useChangeEmailMutation() {
  return useMutation({
    mutationFn: (body: ChangeEmailBody) =>
      apiPost<{ message: string; email: string }>('/api/account/email', body),
  });
}

export function useConfirmEmailMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiPost<{ email: string }>('/api/account/email/confirm', { token }),
    // A signed-in owner sees the new address at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authUserQueryKey }),
  });
}

export function useSignOutOthersMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ ended: number }>('/api/account/sessions/sign-out-others'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSessionsQueryOptions.queryKey }),
  });
}

export function useEndSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ ended: number }>('DELETE', `${SESSIONS_URL}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSessionsQueryOptions.queryKey }),
  });
}

export function useDeleteAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => apiPost<{ ok: true }>('/api/account/delete', body),
    onSuccess: () => replaceSession(queryClient, null),
  });
}
