import type { PaymentMethod } from '@streamshop/contract/payment-methods.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { CardsSection } from './cards-section.tsx';

configure({ asyncUtilTimeout: 4000 });

const visa: PaymentMethod = {
  id: '0a1b2c3d-0000-4000-8000-0000000000c1',
  brand: 'visa',
  last4: '4242',
  expMonth: 3,
  expYear: 2031,
  isDefault: false,
  createdAt: '2026-11-20T10:00:00.000Z',
};
const mastercard: PaymentMethod = {
  ...visa,
  id: '0a1b2c3d-0000-4000-8000-0000000000c2',
  brand: 'mastercard',
  last4: '4444',
  expMonth: 11,
  expYear: 2030,
  isDefault: true,
  createdAt: '2026-11-21T10:00:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The section against a server that keeps `saved` (newest first), adds a Visa and forgets what DELETE names. */
function renderSection(saved: PaymentMethod[], options: { listStatus?: number } = {}) {
  const calls: string[] = [];
  let kept = [...saved];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push(key);
      if (key === 'GET /api/payment-methods') {
        if (options.listStatus)
          return json({ message: 'Database away', code: 'SERVICE_UNAVAILABLE' }, options.listStatus);
        return json({
          paymentMethods: kept.map((m, i) => ({ ...m, isDefault: i === 0 })),
          defaultShippingAddress: null,
        });
      }
      if (key === 'GET /api/payments/config') return json({ provider: 'local', sellersOnboard: false });
      if (key === 'POST /api/payment-methods/setup')
        return json({ clientSecret: 'lseti_9_secret', setupRef: 'lseti_9' });
      if (key === 'POST /api/payments/local/setups/confirm') return json({ status: 'succeeded' });
      if (key === 'POST /api/payment-methods') {
        const added = { ...visa, id: '0a1b2c3d-0000-4000-8000-0000000000c9', isDefault: true };
        kept = [added, ...kept];
        return json({ paymentMethod: added }, 201);
      }
      const removed = kept.find((m) => key === `DELETE /api/payment-methods/${m.id}`);
      if (removed) {
        kept = kept.filter((m) => m !== removed);
        return new Response(null, { status: 204 });
      }
      return json({ message: 'Card not found', code: 'NOT_FOUND' }, 404);
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <CardsSection />
    </QueryClientProvider>,
  );
  return calls;
}

const rowTexts = async () =>
  (await screen.findAllByTestId('saved-card-row')).map((row) => ({
    name: within(row).getByTestId('saved-card-name').textContent,
    expiry: within(row).getByTestId('saved-card-expiry').textContent,
    isDefault: within(row).queryByTestId('saved-card-default') !== null,
  }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CardsSection', () => {
  it('lists the saved cards with brand, last 4 and expiry, "Default" on the newest', async () => {
    renderSection([mastercard, visa]);
    expect(await rowTexts()).toEqual([
      { name: 'Mastercard ending in 4444', expiry: 'Expires 11/30', isDefault: true },
      { name: 'Visa ending in 4242', expiry: 'Expires 03/31', isDefault: false },
    ]);
  });

  it('says there are none, and says so when the list cannot be loaded', async () => {
    renderSection([]);
    expect((await screen.findByTestId('cards-empty')).textContent).toMatch(/No saved cards/);
    cleanup();
    renderSection([], { listStatus: 503 });
    expect((await screen.findByTestId('cards-error')).textContent).toContain('Database away');
  });

  it('adds a card with the form, then lists it as the default', async () => {
    renderSection([mastercard]);
    fireEvent.click(await screen.findByTestId('card-add'));
    fireEvent.change(await screen.findByTestId('card-number'), { target: { value: '4242424242424242' } });
    fireEvent.change(screen.getByTestId('card-expiry'), { target: { value: '0331' } });
    fireEvent.change(screen.getByTestId('card-cvc'), { target: { value: '123' } });
    fireEvent.click(screen.getByTestId('payment-submit'));
    await waitFor(() => expect(screen.queryByTestId('card-add-panel')).toBeNull());
    await waitFor(async () =>
      expect((await rowTexts()).map((r) => [r.name, r.isDefault])).toEqual([
        ['Visa ending in 4242', true],
        ['Mastercard ending in 4444', false],
      ]),
    );
  });

  it('removes a card only after the buyer confirms', async () => {
    const calls = renderSection([mastercard, visa]);
    const [, visaRow] = await screen.findAllByTestId('saved-card-row');
    fireEvent.click(within(visaRow as HTMLElement).getByTestId('saved-card-remove'));
    const dialog = await screen.findByTestId('card-remove-dialog');
    expect(dialog.textContent).toContain('Visa ending in 4242');
    expect(calls.some((c) => c.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getByTestId('card-remove-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('saved-card-row')).toHaveLength(1));
    expect(calls).toContain(`DELETE /api/payment-methods/${visa.id}`);
  });

  it('offers no new card once 5 are saved', async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({
      ...visa,
      id: `0a1b2c3d-0000-4000-8000-00000000000${i}`,
    }));
    renderSection(five);
    expect((await screen.findByTestId('card-add')).hasAttribute('disabled')).toBe(true);
  });
});
