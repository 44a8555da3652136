import type { User } from '@streamshop/contract/auth.ts';
import type { Product } from '@streamshop/contract/catalog.ts';
import type { PaymentConfig } from '@streamshop/contract/payments.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { authUserQueryOptions } from '../lib/api/auth.ts';
import { paymentConfigQueryOptions } from '../lib/api/payments.ts';
import { aProduct } from '../test/product-fixture.ts';
import { ProductCard } from './product-card.tsx';

const product: Product = aProduct;

const LOCAL: PaymentConfig = { provider: 'local', sellersOnboard: false };
const STRIPE: PaymentConfig = { provider: 'stripe', publishableKey: 'pk_test_x', sellersOnboard: true };

const buyer: User = {
  id: 'u1',
  handle: 'ana',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function renderCard(card: Product, config: PaymentConfig = LOCAL, user: User | null = buyer) {
  // Components sit below the app layer: a plain client, with the config and session already known.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(paymentConfigQueryOptions.queryKey, config);
  queryClient.setQueryData(authUserQueryOptions.queryKey, user);
  const router = createMemoryRouter([{ path: '/', element: <ProductCard product={card} /> }]);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('product card', () => {
  it('links Buy Now to the checkout while units are left', () => {
    renderCard(product);
    expect(screen.getByTestId('buy-now').getAttribute('href')).toBe(`/checkout/${product.id}`);
    expect(screen.queryByTestId('product-sold-out')).toBeNull();
  });

  it('links Buy Now to sign-in, coming back to the checkout, for a visitor signed out', () => {
    renderCard(product, LOCAL, null);
    const href = screen.getByTestId('buy-now').getAttribute('href') ?? '';
    const url = new URL(href, 'https://shop.test');
    expect(url.pathname).toBe('/signin');
    expect(url.searchParams.get('next')).toBe(`/checkout/${product.id}`);
  });

  it('leads from the title and the image to the product page', () => {
    renderCard(product);
    expect(screen.getByRole('link', { name: 'Blue Note LP' }).getAttribute('href')).toBe(
      `/products/${product.id}`,
    );
    const imageLink = screen.getByTestId('product-image-link');
    expect(imageLink.getAttribute('href')).toBe(`/products/${product.id}`);
    // A second link to the same place would be a second tab stop saying the same thing.
    expect([imageLink.getAttribute('tabindex'), imageLink.getAttribute('aria-hidden')]).toEqual([
      '-1',
      'true',
    ]);
  });

  it('shows Sold Out and a disabled Buy Now button when none is left', () => {
    renderCard({ ...product, stock: 0 });
    expect(screen.getByTestId('product-sold-out').textContent).toBe('Sold Out');
    const buy = screen.getByTestId('buy-now');
    expect(buy.tagName).toBe('BUTTON');
    expect((buy as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('link', { name: /Buy Now/ })).toBeNull();
    // The product page still shows it (and the shows it was in).
    expect(screen.getByRole('link', { name: 'Blue Note LP' }).getAttribute('href')).toBe(
      `/products/${product.id}`,
    );
  });

  it('offers no checkout where sellers must onboard and this one has not, and says so', () => {
    renderCard(product, STRIPE);
    expect(screen.getByTestId('product-not-taking-orders').textContent).toBe('Not taking orders yet');
    const buy = screen.getByTestId('buy-now');
    expect(buy.tagName).toBe('BUTTON');
    expect((buy as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderCard({ ...product, seller: { ...product.seller, onboarded: true } }, STRIPE);
    expect(screen.getByTestId('buy-now').getAttribute('href')).toBe(`/checkout/${product.id}`);
    expect(screen.queryByTestId('product-not-taking-orders')).toBeNull();
  });

  it('shows what shipping adds to the price before the buyer pays', () => {
    renderCard(product);
    expect(screen.getByTestId('product-price').textContent).toBe('$25.00');
    expect(screen.getByTestId('product-shipping').textContent).toBe('+ $4.50 shipping');
  });

  it('says Free shipping when it ships for nothing, and nothing for a digital or pickup product', () => {
    renderCard({ ...product, shippingCents: 0 });
    expect(screen.getByTestId('product-shipping').textContent).toBe('Free shipping');
    cleanup();
    renderCard({ ...product, fulfillment: 'digital', shippingCents: 0 });
    expect(screen.queryByTestId('product-shipping')).toBeNull();
    cleanup();
    renderCard({ ...product, fulfillment: 'pickup', shippingCents: 0 });
    expect(screen.queryByTestId('product-shipping')).toBeNull();
  });
});
