import type { User } from '@streamshop/contract/auth.ts';
import type { Product } from '@streamshop/contract/catalog.ts';
import type { PaymentConfig } from '@streamshop/contract/payments.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { authUserQueryOptions } from '../../lib/api/auth.ts';
import { paymentConfigQueryOptions } from '../../lib/api/payments.ts';
import { aProduct } from '../../test/product-fixture.ts';
import { BuyBox } from './buy-box.tsx';
import { fulfillmentTerms } from './product-details.tsx';

const LOCAL: PaymentConfig = { provider: 'local', sellersOnboard: false };
const STRIPE: PaymentConfig = { provider: 'stripe', publishableKey: 'pk_test_x', sellersOnboard: true };

const userWithId = (id: string): User => ({
  id,
  handle: `h${id}`,
  email: `${id}@example.com`,
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

function renderBox(product: Product, user: User | null, config: PaymentConfig = LOCAL) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(paymentConfigQueryOptions.queryKey, config);
  queryClient.setQueryData(authUserQueryOptions.queryKey, user);
  const router = createMemoryRouter([{ path: '/', element: <BuyBox product={product} /> }]);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('the product page’s Buy Now', () => {
  it('leads a signed-in buyer to the checkout', () => {
    renderBox(aProduct, userWithId('buyer'));
    const buy = screen.getByTestId('buy-now');
    expect(buy.textContent).toBe('Buy Now');
    expect(buy.getAttribute('href')).toBe(`/checkout/${aProduct.id}`);
  });

  it('leads a visitor signed out to sign-in, which returns to the checkout', () => {
    renderBox(aProduct, null);
    const url = new URL(screen.getByTestId('buy-now').getAttribute('href') ?? '', 'https://shop.test');
    expect(url.pathname).toBe('/signin');
    expect(url.searchParams.get('next')).toBe(`/checkout/${aProduct.id}`);
  });

  it('is a disabled Sold Out button when none is left', () => {
    renderBox({ ...aProduct, stock: 0 }, userWithId('buyer'));
    const buy = screen.getByTestId('buy-now') as HTMLButtonElement;
    expect([buy.tagName, buy.textContent, buy.disabled]).toEqual(['BUTTON', 'Sold Out', true]);
  });

  it('is disabled, saying why, where the seller must onboard and has not', () => {
    renderBox(aProduct, userWithId('buyer'), STRIPE);
    expect((screen.getByTestId('buy-now') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('product-not-taking-orders').textContent).toBe('Not taking orders yet');
  });

  it('gives the seller of the product an edit link instead', () => {
    renderBox(aProduct, userWithId(aProduct.seller.id));
    expect(screen.queryByTestId('buy-now')).toBeNull();
    expect(screen.getByTestId('edit-product').getAttribute('href')).toBe('/dashboard');
  });
});

describe('fulfillmentTerms', () => {
  it.each([
    [{ fulfillment: 'ship', shippingCents: 450 }, 'Shipping: $4.50'],
    [{ fulfillment: 'ship', shippingCents: 0 }, 'Free shipping'],
    [{ fulfillment: 'digital', shippingCents: 0 }, 'Digital'],
    [{ fulfillment: 'pickup', shippingCents: 0 }, 'Local pickup'],
  ] as const)('%j is %s', (product, title) => {
    expect(fulfillmentTerms(product).title).toBe(title);
  });
});
