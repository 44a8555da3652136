import type { User } from '@streamshop/contract/auth.ts';
import { useQuery } from '@tanstack/react-query';
import { authUserQueryOptions } from '../api/auth.ts';

export interface AuthState {
  user: User | null;
  /** True only while the first auth check is in flight. */
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Set when the auth check failed for a reason other than 401. */
  error: Error | null;
}

export function useAuth(): AuthState {
  const query = useQuery(authUserQueryOptions);
  const user = query.data ?? null;
  return {
    user,
    isLoading: query.isPending,
    isAuthenticated: user !== null,
    error: query.error,
  };
}
