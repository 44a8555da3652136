import type { User } from '@streamshop/contract/auth.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { checkoutRequest, RoomCheckoutSheet } from './room-checkout-sheet.tsx';

configure({ asyncUtilTimeout: 4000 });

const product: RoomProduct = {
  id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
  title: 'Blue Note LP',
  imageUrl: null,
  priceCents: 2500,
  stock: 1,
  condition: 'used',
  fulfillment: 'digital',
  shippingCents: 0,
};
const buyer = { id: 'u1', handle: 'ana', plan: 'free' } as User;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderSheet(checkoutAnswer: () => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (key === `POST /api/checkout/${product.id}`) return checkoutAnswer();
    if (key === 'GET /api/payments/config') return json({ provider: 'local' });
    return json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, buyer);
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <RoomCheckoutSheet roomName="crate-digging" request={checkoutRequest(product)} onClose={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the room’s checkout sheet', () => {
  it('shows the order, not a card form, to a buyer who paid for it moments ago', async () => {
    renderSheet(() =>
      json({
        order: {
          id: '0a1b2c3d-0000-4000-8000-000000000001',
          role: 'buyer',
          status: 'paid',
          amountCents: 2500,
          shippingCents: 0,
          item: { productId: product.id, title: product.title, imageUrl: null, fulfillment: 'digital' },
          createdAt: new Date().toISOString(),
        },
      }),
    );
    const note = await screen.findByTestId('order-placed');
    expect(note.textContent).toContain('You bought this');
    expect(screen.getByTestId('order-placed-reference').textContent).toBe('#0A1B2C3D');
    expect(screen.getByRole('link', { name: 'See your orders' }).getAttribute('href')).toBe('/orders');
    expect(screen.queryByTestId('card-number')).toBeNull();
    expect(screen.queryByTestId('room-checkout-show-buyer')).toBeNull();
  });

  it('shows the card form for a session', async () => {
    renderSheet(() =>
      json({
        clientSecret: 'pi_1_secret_x',
        amountCents: 2500,
        subtotalCents: 2500,
        shippingCents: 0,
        shippingAddress: null,
        reservedUntil: new Date(Date.now() + 600_000).toISOString(),
      }),
    );
    expect(await screen.findByTestId('card-number')).toBeTruthy();
    expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $25.00');
    expect(screen.queryByTestId('order-placed')).toBeNull();
  });
});
