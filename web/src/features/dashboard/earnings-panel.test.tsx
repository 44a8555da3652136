import type { LedgerEntry, LedgerPage } from '@streamshop/contract/orders.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { EarningsPanel } from './earnings-panel.tsx';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const entry = (id: string, kind: LedgerEntry['kind'], amountCents: number, productTitle: string | null) => ({
  id,
  kind,
  amountCents,
  orderId: null,
  productTitle,
  buyerHandle: null,
  availableAt: '2026-11-01T10:00:00.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
});

/** Two pages: a sale and its fee, then an older payout behind the cursor. */
const PAGES: Record<string, LedgerPage> = {
  '/api/payouts/ledger': {
    entries: [
      entry('e1', 'sale', 2000, 'Blue Note first pressing'),
      entry('e2', 'fee', -200, 'Blue Note first pressing'),
    ],
    nextCursor: 'page-2',
  },
  '/api/payouts/ledger?cursor=page-2': {
    entries: [entry('e3', 'payout', -5000, null)],
    nextCursor: null,
  },
};

function renderPanel() {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/payouts/balance')
      return json({
        grossCents: 2000,
        feeCents: 200,
        netCents: 1800,
        pendingCents: 0,
        availableCents: 1800,
        paidOutCents: 5000,
      });
    if (url === '/api/payouts/account') return json({ status: 'not_required', readySince: null });
    const page = PAGES[url];
    return page ? json(page) : json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <QueryClientProvider client={queryClient}>
      <EarningsPanel />
    </QueryClientProvider>,
  );
  return fetchMock;
}

const rows = () =>
  within(screen.getByTestId('earnings-ledger'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('earnings ledger', () => {
  it('shows the first page, and the next one under it on Load more, until there is no more', async () => {
    const fetchMock = renderPanel();
    await screen.findByTestId('earnings-ledger');
    expect(rows()).toEqual([expect.stringContaining('Sale'), expect.stringContaining('Platform fee')]);

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    // Net shows sales and fees only; Paid out shows the payout the second page brought.
    fireEvent.click(await screen.findByRole('button', { name: 'Paid out' }));
    expect(await screen.findByText('Payout')).toBeTruthy();
    expect(rows()).toEqual([expect.stringContaining('-$50.00')]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/payouts/ledger?cursor=page-2');
  });

  it('filters what is loaded, and says older entries may match', async () => {
    renderPanel();
    await screen.findByTestId('earnings-ledger');
    fireEvent.click(screen.getByRole('button', { name: 'Paid out' }));
    expect(await screen.findByText(/None among the entries loaded so far/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Payout')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Net' }));
    expect(rows()).toEqual([expect.stringContaining('Sale'), expect.stringContaining('Platform fee')]);
  });
});
