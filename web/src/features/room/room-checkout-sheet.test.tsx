import type { User } from '@streamshop/contract/auth.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
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

function renderSheet(
  checkoutAnswer: () => Response,
  { sold = product, offerPriceCents }: { sold?: RoomProduct; offerPriceCents?: number } = {},
) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (key === `POST /api/checkout/${product.id}`) return checkoutAnswer();
    if (key === 'POST /api/payments/local/confirm') return json({ status: 'succeeded' });
    if (key === 'GET /api/payments/config') return json({ provider: 'local' });
    return json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, buyer);
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <RoomCheckoutSheet
          roomName="crate-digging"
          request={checkoutRequest(sold, offerPriceCents)}
          onClose={() => {}}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls };
}

async function pay() {
  fireEvent.change(await screen.findByTestId('card-number'), { target: { value: '4242 4242 4242 4242' } });
  fireEvent.change(screen.getByTestId('card-expiry'), { target: { value: '12 / 40' } });
  fireEvent.change(screen.getByTestId('card-cvc'), { target: { value: '123' } });
  fireEvent.click(screen.getByTestId('payment-submit'));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the room’s checkout sheet', () => {
  it('shows the order, not a card form, to a buyer who paid for the last one moments ago', async () => {
    renderSheet(
      () =>
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
      { sold: { ...product, stock: 0 } },
    );
    const note = await screen.findByTestId('order-placed');
    expect(note.textContent).toContain('You bought this');
    expect(screen.getByTestId('order-placed-reference').textContent).toBe('#0A1B2C3D');
    expect(screen.getByRole('link', { name: 'See your orders' }).getAttribute('href')).toBe('/orders');
    expect(screen.queryByTestId('card-number')).toBeNull();
    expect(screen.queryByTestId('room-checkout-show-buyer')).toBeNull();
  });

  const session = (amountCents: number) => () =>
    json({
      clientSecret: 'pi_1_secret_x',
      amountCents,
      subtotalCents: amountCents,
      shippingCents: 0,
      shippingAddress: null,
      reservedUntil: new Date(Date.now() + 600_000).toISOString(),
    });

  it('shows the card form at once and opens the session (the hold) only on Pay', async () => {
    const { calls } = renderSheet(session(2500));
    expect(await screen.findByTestId('card-number')).toBeTruthy();
    expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $25.00');
    expect(calls(`POST /api/checkout/${product.id}`)).toHaveLength(0);
    await pay();
    await waitFor(() => expect(calls('POST /api/payments/local/confirm')).toHaveLength(1));
    const [, init] = calls(`POST /api/checkout/${product.id}`)[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ roomName: 'crate-digging', showBuyer: true });
  });

  it('shows a running offer’s price, and pays it when the server agrees', async () => {
    const { calls } = renderSheet(session(1900), { offerPriceCents: 1900 });
    expect((await screen.findByTestId('payment-submit')).textContent).toBe('Pay $19.00');
    expect(screen.getByTestId('room-checkout-offer')).toBeTruthy();
    await pay();
    await waitFor(() => expect(calls('POST /api/payments/local/confirm')).toHaveLength(1));
  });

  it('shows the regular total before charging it when the offer ended meanwhile', async () => {
    const { calls } = renderSheet(session(2500), { offerPriceCents: 1900 });
    await pay();
    expect((await screen.findByTestId('checkout-total-changed')).textContent).toBe(
      'The total is now $25.00. Check it and press Pay again.',
    );
    expect(calls('POST /api/payments/local/confirm')).toHaveLength(0);
    expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $25.00');
  });
});
