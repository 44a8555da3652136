import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { OrdersPage } from './orders-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const base: OrderDetail = {
  id: '0a1b2c3d-0000-4000-8000-000000000001',
  role: 'buyer',
  status: 'shipped',
  amountCents: 5000,
  shippingCents: 500,
  item: { productId: 'p1', title: 'Blue Note LP', imageUrl: null, fulfillment: 'ship' },
  buyerHandle: 'ana',
  sellerHandle: 'groovevault',
  shippingAddress: { name: 'Ana', line1: '1 Record Lane', city: 'Bristol', postalCode: 'BS1', country: 'GB' },
  carrier: 'UPS',
  trackingNumber: '1Z999',
  trackingUrl: 'https://www.ups.com/track?tracknum=1Z999',
  createdAt: '2026-11-20T10:00:00.000Z',
  shippedAt: '2026-11-21T10:00:00.000Z',
  deliveredAt: null,
  cancelledAt: null,
  refundedAt: null,
};
const paid: OrderDetail = {
  ...base,
  id: '0a1b2c3d-0000-4000-8000-000000000002',
  status: 'paid',
  item: { ...base.item, title: 'Kind of Blue' },
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  shippedAt: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderOrders(orders: OrderDetail[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push(key);
      if (key === 'GET /api/orders?role=buyer') return json({ orders, nextCursor: null });
      if (key === `POST /api/orders/${paid.id}/cancel`) return json({ ...paid, status: 'cancelled' });
      return json({ message: 'No such endpoint' }, 404);
    }),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const router = createMemoryRouter([{ path: '/orders', Component: OrdersPage }], {
    initialEntries: ['/orders'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OrdersPage', () => {
  it('shows each order with its timeline and a tracking link, and Cancel only before it ships', async () => {
    renderOrders([base, paid]);
    const [shipped, notShipped] = await screen.findAllByTestId('purchase');
    if (!shipped || !notShipped) throw new Error('two purchases expected');
    expect(within(shipped).getByTestId('order-tracking-link').getAttribute('href')).toBe(
      'https://www.ups.com/track?tracknum=1Z999',
    );
    expect(within(shipped).getByTestId('order-timeline').textContent).toMatch(/Paid.*Shipped.*Delivered—/);
    expect(within(shipped).queryByTestId('purchase-cancel')).toBeNull();
    expect(within(shipped).getByTestId('purchase-deliver')).toBeTruthy();
    expect(within(notShipped).queryByTestId('order-tracking')).toBeNull();
    expect(within(notShipped).getByTestId('purchase-cancel')).toBeTruthy();
  });

  it('cancels after the buyer confirms', async () => {
    const calls = renderOrders([paid]);
    fireEvent.click(await screen.findByTestId('purchase-cancel'));
    fireEvent.click(await screen.findByTestId('cancel-confirm'));
    await waitFor(() => expect(calls).toContain(`POST /api/orders/${paid.id}/cancel`));
  });

  it('says so when there are no orders', async () => {
    renderOrders([]);
    expect((await screen.findByTestId('orders-empty')).textContent).toContain('No Orders Yet');
  });
});
