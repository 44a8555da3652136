import type { User } from '@streamshop/contract/auth.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { SubscribePage } from './subscribe-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const free = { id: 'u1', handle: 'ana', plan: 'free' } as User;
const pro = { ...free, plan: 'pro' } as User;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderSubscribe(user: User, routes: Record<string, () => Response>) {
  const all: Record<string, () => Response> = {
    'POST /api/create-subscription': () =>
      json({ clientSecret: 'sub_secret', amountCents: 999, reservedUntil: null }),
    'GET /api/payments/config': () => json({ provider: 'local', sellersOnboard: false }),
    ...routes,
  };
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answer = all[`${init?.method ?? 'GET'} ${url}`];
    return answer ? answer() : json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, user);
  const router = createMemoryRouter(
    [
      { path: '/subscribe', Component: SubscribePage },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: ['/subscribe'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const calls = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key);
  return { router, calls, queryClient };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('subscribe page', () => {
  it('sends a pro user to /dashboard with Already Pro, without opening a subscription', async () => {
    const { router, calls } = renderSubscribe(pro, {});
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToasts()[0]).toMatchObject({ title: 'Already Pro' });
    expect(calls('POST /api/create-subscription')).toHaveLength(0);
  });

  it('shows the comparison, price card and FAQs to a free user', async () => {
    renderSubscribe(free, {});
    expect(screen.getByText('Setting up your Pro subscription...')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrade to Pro' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getAllByRole('row')).toHaveLength(7); // header + six features
    expect(screen.getByTestId('pro-price').textContent).toBe('$9.99');
    expect(screen.getByText('Most Popular')).toBeTruthy();
    expect(screen.getByText('30-day money-back guarantee')).toBeTruthy();
    expect(screen.getByTestId('pro-faqs').querySelectorAll('dt')).toHaveLength(4);
  });

  it('toasts Subscription Setup Failed with the server message', async () => {
    renderSubscribe(free, {
      'POST /api/create-subscription': () => json({ message: 'Payment provider unavailable' }, 502),
    });
    await screen.findByTestId('subscribe-error');
    expect(getToasts()[0]).toMatchObject({
      title: 'Subscription Setup Failed',
      description: 'Payment provider unavailable',
      variant: 'destructive',
    });
  });

  it('welcomes the new pro user, refreshes the plan and goes to /dashboard', async () => {
    let plan: User['plan'] = 'free';
    const { router, queryClient } = renderSubscribe(free, {
      'POST /api/payments/local/confirm': () => {
        plan = 'pro';
        return json({ status: 'succeeded' });
      },
      'GET /api/auth/user': () => json({ ...free, plan }),
    });
    fireEvent.change(await screen.findByTestId('card-number'), { target: { value: '4242424242424242' } });
    fireEvent.change(screen.getByTestId('card-expiry'), { target: { value: '1240' } });
    fireEvent.change(screen.getByTestId('card-cvc'), { target: { value: '123' } });
    fireEvent.click(screen.getByTestId('payment-submit'));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Welcome to Pro!' }));
    await waitFor(() => expect(queryClient.getQueryData<User>(authUserQueryKey)?.plan).toBe('pro'));
    // The refreshed plan is not mistaken for a user who was already pro.
    expect(getToasts()[0]).toMatchObject({ title: 'Welcome to Pro!' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToasts()[0]).toMatchObject({ title: 'Welcome to Pro!' });
  });
});
