import type { OrderStatus } from '@streamshop/contract/catalog.ts';
import type {
  Balance,
  LedgerPage,
  OnboardingLink,
  OrderDetail,
  OrderRole,
  OrdersPage,
  PayoutAccount,
  ShipOrderBody,
} from '@streamshop/contract/orders.ts';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from './client.ts';

/** Sales (role seller) and purchases (role buyer) after the payment (ADR 0016). */

export function ordersUrl(role: OrderRole, status: OrderStatus | undefined, cursor?: string | null): string {
  const query = new URLSearchParams({ role });
  if (status) query.set('status', status);
  if (cursor) query.set('cursor', cursor);
  return `/api/orders?${query}`;
}

/** One list, paged by the server's cursor ("Load more"). */
export const ordersQueryOptions = (role: OrderRole, status?: OrderStatus) =>
  infiniteQueryOptions({
    queryKey: ['/api/orders', role, status ?? 'all'],
    queryFn: ({ pageParam }) => apiGet<OrdersPage>(ordersUrl(role, status, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** Every order of the role, page after page (for the CSV export). */
export async function allOrders(role: OrderRole): Promise<OrderDetail[]> {
  const orders: OrderDetail[] = [];
  let cursor: string | null = null;
  do {
    const page: OrdersPage = await apiGet<OrdersPage>(ordersUrl(role, undefined, cursor));
    orders.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor);
  return orders;
}

export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [`/api/orders/${id}`],
    queryFn: () => apiGet<OrderDetail>(`/api/orders/${id}`),
  });

export const balanceQueryOptions = queryOptions({
  queryKey: ['/api/payouts/balance'],
  queryFn: () => apiGet<Balance>('/api/payouts/balance'),
});

/** The seller's ledger, newest first, paged by the server's cursor ("Load more"). */
export const ledgerQueryOptions = infiniteQueryOptions({
  queryKey: ['/api/payouts/ledger'],
  queryFn: ({ pageParam }) =>
    apiGet<LedgerPage>(
      pageParam ? `/api/payouts/ledger?${new URLSearchParams({ cursor: pageParam })}` : '/api/payouts/ledger',
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** Where the seller's money goes: the local ledger, or their Stripe Connect account and its state. */
export const payoutAccountQueryOptions = queryOptions({
  queryKey: ['/api/payouts/account'],
  queryFn: () => apiGet<PayoutAccount>('/api/payouts/account'),
});

/** Opens (or continues) the seller's onboarding on the provider's hosted pages: answers the link. */
export function useStartOnboardingMutation() {
  return useMutation({
    mutationFn: () => apiPost<OnboardingLink>('/api/payouts/onboarding'),
  });
}

export type OrderAction =
  | { kind: 'ship'; id: string; body: ShipOrderBody }
  | { kind: 'deliver' | 'refund' | 'cancel'; id: string };

/** Moves an order; every list, figure and balance that shows it is fetched again. */
export function useOrderActionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: OrderAction) =>
      apiPost<OrderDetail>(
        `/api/orders/${action.id}/${action.kind}`,
        action.kind === 'ship' ? action.body : undefined,
      ),
    onSuccess: () =>
      Promise.all(
        [
          '/api/orders',
          '/api/analytics',
          '/api/payouts/balance',
          '/api/payouts/ledger',
          '/api/products/mine',
        ].map((url) => queryClient.invalidateQueries({ queryKey: [url] })),
      ),
  });
}
