import type { SavedAddress } from '@streamshop/contract/shipping.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { AddressesSection } from './addresses-section.tsx';

configure({ asyncUtilTimeout: 4000 });

const home: SavedAddress = {
  id: '0a1b2c3d-0000-4000-8000-00000000000a',
  name: 'Ada Buyer',
  line1: '1 Record Lane',
  line2: null,
  city: 'Bristol',
  region: null,
  postalCode: 'BS1 4DJ',
  country: 'GB',
  lastUsedAt: '2026-11-20T10:00:00.000Z',
};
const work: SavedAddress = {
  ...home,
  id: '0a1b2c3d-0000-4000-8000-00000000000b',
  name: 'Ada at Work',
  line1: '42 Studio Yard',
  city: 'Leeds',
  postalCode: 'LS1 1AA',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The section against a server that keeps `saved` and forgets what DELETE names. */
function renderSection(saved: SavedAddress[], deleteStatus = 204) {
  const calls: string[] = [];
  let kept = [...saved];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push(key);
      if (key === 'GET /api/addresses?all=true') return json({ addresses: kept });
      const removed = kept.find((a) => key === `DELETE /api/addresses/${a.id}`);
      if (removed && deleteStatus === 204) {
        kept = kept.filter((a) => a !== removed);
        return new Response(null, { status: 204 });
      }
      return json({ message: 'Address not found', code: 'NOT_FOUND' }, 404);
    }),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <QueryClientProvider client={queryClient}>
      <AddressesSection />
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AddressesSection', () => {
  it('lists every saved address, and removes one only after the buyer confirms', async () => {
    const calls = renderSection([work, home]);
    const rows = await screen.findAllByTestId('address-row');
    expect(rows.map((row) => within(row).getByTestId('address-name').textContent)).toEqual([
      'Ada at Work',
      'Ada Buyer',
    ]);
    expect(within(rows[0] as HTMLElement).getByTestId('address-lines').textContent).toBe(
      '42 Studio Yard, Leeds, LS1 1AA, GB',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ada at Work, 42 Studio Yard' }));
    const dialog = await screen.findByTestId('address-remove-dialog');
    expect(dialog.textContent).toContain('Ada at Work, 42 Studio Yard, Leeds, LS1 1AA, GB.');
    // Keep it: nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByTestId('address-remove-dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ada at Work, 42 Studio Yard' }));
    fireEvent.click(await screen.findByTestId('address-remove-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('address-row')).toHaveLength(1));
    expect(calls).toContain(`DELETE /api/addresses/${work.id}`);
    expect(screen.getByTestId('address-name').textContent).toBe('Ada Buyer');
  });

  it('says so when there is none, and once the last is removed', async () => {
    renderSection([home]);
    fireEvent.click(await screen.findByTestId('address-remove'));
    fireEvent.click(await screen.findByTestId('address-remove-confirm'));
    expect((await screen.findByTestId('addresses-empty')).textContent).toBe(
      'No saved addresses. The address you ship an order to is kept here for your next checkout.',
    );
  });

  it('keeps the address and the dialog when the server refuses', async () => {
    const calls = renderSection([home], 404);
    fireEvent.click(await screen.findByTestId('address-remove'));
    fireEvent.click(await screen.findByTestId('address-remove-confirm'));
    await waitFor(() => expect(calls).toContain(`DELETE /api/addresses/${home.id}`));
    expect(screen.getByTestId('address-remove-dialog')).toBeTruthy();
    expect(screen.getAllByTestId('address-row')).toHaveLength(1);
  });
});
