import type { LinkAccountBody, PendingAccountLink } from '@streamshop/contract/account-link.ts';
import type { SigninBody, SignupBody, User } from '@streamshop/contract/auth.ts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { takeEarlyGet } from '../early-requests.ts';
import { AUTH_USER_URL } from './auth-url.ts';
import { apiDelete, apiGet, apiPost } from './client.ts';

export { AUTH_USER_URL };
export const authUserQueryKey = [AUTH_USER_URL] as const;

/**
 * GET /api/auth/user. 401 means signed out (null). Any other failure is kept as the query's
 * error ('Auth check failed: {statusText}') and also counts as signed out.
 */
export async function fetchAuthUser(): Promise<User | null> {
  // The entry script asks for it before the app's code has loaded (boot.ts): taken once.
  const response = await (takeEarlyGet(AUTH_USER_URL) ??
    fetch(AUTH_USER_URL, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    }));
  if (response.status === 401) return null;
  if (!response.ok) throw new Error(`Auth check failed: ${response.statusText}`);
  // Stored as received (spec section 3).
  return (await response.json()) as User;
}

export const authUserQueryOptions = queryOptions({
  queryKey: authUserQueryKey,
  queryFn: fetchAuthUser,
  meta: { handlesUnauthorized: true },
});

/** Sets the signed-in user (or null) and drops every other cached answer of the old session. */
export function replaceSession(queryClient: QueryClient, user: User | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_USER_URL });
  queryClient.setQueryData(authUserQueryKey, user);
}

export function useSignInMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SigninBody) => apiPost<User>('/api/auth/signin', body),
    onSuccess: (user) => replaceSession(queryClient, user),
  });
}

export function useSignUpMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignupBody) => apiPost<User>('/api/auth/signup', body),
    onSuccess: (user) => replaceSession(queryClient, user),
  });
}

export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ ok: true }>('/api/auth/logout'),
    onSuccess: () => replaceSession(queryClient, null),
  });
}

/** The external sign-in waiting to be linked to an existing account (kept by the server in a cookie). */
export const PENDING_LINK_URL = '/api/auth/link';

export const pendingLinkQueryOptions = queryOptions({
  queryKey: [PENDING_LINK_URL] as const,
  queryFn: () => apiGet<PendingAccountLink>(PENDING_LINK_URL),
});

/** Links the pending sign-in with the account's password; the server then signs the user in. */
export function useLinkAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LinkAccountBody) => apiPost<User>(PENDING_LINK_URL, body),
    onSuccess: (user) => replaceSession(queryClient, user),
  });
}

/** Drops the pending link. */
export function useCancelLinkMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiDelete<undefined>(PENDING_LINK_URL),
    onSuccess: () => queryClient.removeQueries({ queryKey: pendingLinkQueryOptions.queryKey }),
  });
}

/** Browser navigations (not fetches): the server answers with redirects. */
export const LOGOUT_NAVIGATION_URL = '/api/logout';
/** `next`: where to land once signed in (the server checks it again, see return-path.ts). */
export const externalSignInUrl = (provider: 'google' | 'replit', next?: string) =>
  next ? `/api/auth/${provider}?${new URLSearchParams({ next })}` : `/api/auth/${provider}`;
