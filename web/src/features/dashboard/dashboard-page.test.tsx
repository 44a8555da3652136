import type { User } from '@streamshop/contract/auth.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { DashboardPage } from './dashboard-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const ana: User = {
  id: 'u1',
  handle: 'ana',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const order = (n: number, status: OrderDetail['status']): OrderDetail => ({
  id: `${n.toString(16).padStart(8, 'a')}-2a4b-4c3d-9e8f-0123456789ab`,
  role: 'buyer',
  status,
  amountCents: 1000 + n,
  shippingCents: 0,
  item: { productId: null, title: `Record ${n}`, imageUrl: null, fulfillment: 'digital' },
  buyerHandle: 'ana',
  sellerHandle: 'bob',
  shippingAddress: null,
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  createdAt: '2026-03-05T12:00:00.000Z',
  shippedAt: null,
  deliveredAt: null,
  cancelledAt: null,
  refundedAt: status === 'refunded' ? '2026-03-06T12:00:00.000Z' : null,
});

const A_PRODUCT = {
  id: 'p1',
  title: 'Blue Note first pressing',
  description: '',
  priceCents: 2500,
  condition: 'used',
  imageUrl: null,
  stock: 1,
};

/** The dashboard at `entry`, for a user with `products` (a seller) or none, and `orders` bought. */
function renderDashboard(entry: string, { products = [] as unknown[], orders = [] as OrderDetail[] } = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/analytics')
        return json({
          totalViews: 0,
          totalOrders: 0,
          totalRevenue: 0,
          totalProducts: products.length,
          totalPurchases: orders.length,
        });
      if (url === '/api/products/mine') return json(products);
      if (url === '/api/streams/mine') return json([]);
      if (url === '/api/orders?role=buyer') return json({ orders, nextCursor: null });
      if (url === '/api/shows?scope=mine&limit=50') return json({ shows: [] });
      return json({ message: 'Not here' }, 404);
    }),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, ana);
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: <DashboardPage PlanSummary={() => null} ChatSettingsDialog={() => null} />,
      },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const selectedTab = () => screen.getByRole('tab', { selected: true }).textContent;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('dashboard', () => {
  it('greets someone who has not sold anything as a buyer, with their orders first', async () => {
    renderDashboard('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Dashboard' })).toBeTruthy();
    expect(screen.getByTestId('dashboard-greeting').textContent).toBe('Welcome, @ana');
    expect(screen.queryByText(/Seller Dashboard|Welcome back/)).toBeNull();
    expect(selectedTab()).toBe('Orders');
    expect(await screen.findByTestId('dashboard-orders-empty')).toBeTruthy();
    const invitation = screen.getByTestId('start-selling');
    expect(within(invitation).getByRole('link', { name: 'Go Live' }).getAttribute('href')).toBe('/golive');
    expect(screen.getAllByTestId('go-live-link')).toHaveLength(1);
  });

  it("keeps the spec's Seller Dashboard, greeting and Products tab for a seller", async () => {
    renderDashboard('/dashboard', { products: [A_PRODUCT] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Seller Dashboard' })).toBeTruthy();
    expect(screen.getByTestId('dashboard-greeting').textContent).toBe('Welcome back, @ana');
    expect(selectedTab()).toBe('Products');
    expect(screen.queryByTestId('start-selling')).toBeNull();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Products',
      'Streams',
      'Shows',
      'Orders',
      'Sales',
      'Earnings',
    ]);
  });

  it('opens ?tab=orders with the 10 latest orders as the spec draws them, each with an honest badge', async () => {
    const orders = [order(1, 'paid'), order(2, 'refunded'), order(3, 'cancelled')];
    for (let n = 4; n <= 12; n += 1) orders.push(order(n, n % 2 ? 'shipped' : 'delivered'));
    renderDashboard('/dashboard?tab=orders', { products: [A_PRODUCT], orders });
    const rows = await screen.findAllByTestId('dashboard-order');
    expect(selectedTab()).toBe('Orders');
    expect(rows).toHaveLength(10);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByTestId('dashboard-order-number').textContent).toBe('Order #aaaaaaa1');
    expect(first.getByTestId('dashboard-order-amount').textContent).toBe('$10.01');
    expect(first.getByText(/Mar 5, 2026/)).toBeTruthy();
    expect(
      rows.map((row) => within(row).getByTestId('dashboard-order-status').textContent).slice(0, 5),
    ).toEqual(['Completed', 'Refunded', 'Cancelled', 'Completed', 'Completed']);
    expect(screen.getByTestId('dashboard-all-orders').getAttribute('href')).toBe('/orders');
  });

  it('opens ?tab=shows on the Shows tab; the header links a seller to scheduling one there', async () => {
    renderDashboard('/dashboard?tab=shows', { products: [A_PRODUCT] });
    expect(await screen.findByRole('heading', { level: 2, name: 'Your Shows' })).toBeTruthy();
    expect(selectedTab()).toBe('Shows');
    expect(await screen.findByTestId('dashboard-shows-empty')).toBeTruthy();
    // The panel opens its dialog for ?schedule=new (shows-panel.test.tsx).
    expect(screen.getByTestId('schedule-show-link').getAttribute('href')).toBe(
      '/dashboard?tab=shows&schedule=new',
    );
  });

  it("opens the Add Product dialog over a buyer's Products tab from Start selling", async () => {
    const router = renderDashboard('/dashboard');
    fireEvent.click(await screen.findByTestId('start-selling-add-product'));
    expect(await screen.findByRole('dialog', { name: 'Add Product' })).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=products');
    expect(screen.getByTestId('dashboard-products-empty')).toBeTruthy();
  });
});
