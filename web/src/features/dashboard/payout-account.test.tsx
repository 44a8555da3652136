import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { PayoutAccountCard, PayoutsNeededNotice } from './payout-account.tsx';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ONBOARDING_URL = 'https://connect.stripe.com/setup/e/acct_1/abc';

function renderWith(routes: Record<string, () => Response>, ui: React.ReactElement) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answer = routes[`${init?.method ?? 'GET'} ${url}`];
    return answer ? answer() : json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('payout account', () => {
  it('sends a seller who has not started to Stripe with a fresh onboarding link', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = renderWith(
      {
        'GET /api/payouts/account': () => json({ status: 'not_started', readySince: null }),
        'POST /api/payouts/onboarding': () => json({ url: ONBOARDING_URL }),
      },
      <PayoutAccountCard />,
    );
    expect(await screen.findByText('Set up payouts to start selling')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set up payouts' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/payouts/onboarding')).toHaveLength(1);
  });

  it('says the link expired when Stripe sends the seller back to refresh, and offers to continue', async () => {
    renderWith(
      { 'GET /api/payouts/account': () => json({ status: 'pending', readySince: null }) },
      <PayoutAccountCard returnedFrom="refresh" />,
    );
    expect(await screen.findByText('Finish setting up payouts')).toBeTruthy();
    expect(screen.getByText(/Your setup link expired\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue setup' })).toBeTruthy();
  });

  it("shows Stripe's failure and stays on the page when the link cannot be made", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderWith(
      {
        'GET /api/payouts/account': () => json({ status: 'pending', readySince: null }),
        'POST /api/payouts/onboarding': () =>
          json(
            { code: 'SERVICE_UNAVAILABLE', message: 'The payment provider could not be reached: down' },
            502,
          ),
      },
      <PayoutAccountCard />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Continue setup' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The payment provider could not be reached',
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('says payouts are set up once ready, and the local provider pays out daily', async () => {
    renderWith(
      {
        'GET /api/payouts/account': () => json({ status: 'ready', readySince: '2026-11-20T10:00:00.000Z' }),
      },
      <PayoutAccountCard />,
    );
    const ready = (await screen.findByTestId('payout-account')).textContent;
    expect(ready).toMatch(/Payouts are set up/);
    // Stripe's payouts are mirrored in the ledger (the Connect webhook's payout.paid).
    expect(ready).toMatch(/each payout shows here under Paid out/);
    cleanup();
    renderWith(
      { 'GET /api/payouts/account': () => json({ status: 'not_required', readySince: null }) },
      <PayoutAccountCard />,
    );
    expect((await screen.findByTestId('payout-account')).textContent).toMatch(/paid out once a day/);
  });

  it('warns above the products only while buyers cannot pay', async () => {
    const open = vi.fn();
    renderWith(
      { 'GET /api/payouts/account': () => json({ status: 'pending', readySince: null }) },
      <PayoutsNeededNotice onOpenEarnings={open} />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Set up payouts' }));
    expect(open).toHaveBeenCalled();
    cleanup();
    renderWith(
      { 'GET /api/payouts/account': () => json({ status: 'not_required', readySince: null }) },
      <PayoutsNeededNotice onOpenEarnings={open} />,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('payouts-needed')).toBeNull();
  });
});
