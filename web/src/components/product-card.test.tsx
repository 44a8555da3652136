import type { Product } from '@streamshop/contract/catalog.ts';
import type { PaymentConfig } from '@streamshop/contract/payments.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentConfigQueryOptions } from '../lib/api/payments.ts';
import { aProduct } from '../test/product-fixture.ts';
import { ProductCard } from './product-card.tsx';

const product: Product = aProduct;

const LOCAL: PaymentConfig = { provider: 'local', sellersOnboard: false };
const STRIPE: PaymentConfig = { provider: 'stripe', publishableKey: 'pk_test_x', sellersOnboard: true };

function renderCard(card: Product, config: PaymentConfig = LOCAL) {
  // Components sit below the app layer: a plain client, with the config already known.
  const queryClient = new QueryClient();
  queryClient.setQueryData(paymentConfigQueryOptions.queryKey, config);
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

  it('leads from the title and the image to the checkout, as Buy Now does', () => {
    renderCard(product);
    expect(screen.getByRole('link', { name: 'Blue Note LP' }).getAttribute('href')).toBe(
      `/checkout/${product.id}`,
    );
    const imageLink = screen.getByTestId('product-image-link');
    expect(imageLink.getAttribute('href')).toBe(`/checkout/${product.id}`);
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
    // Nor do the title and the image lead to a checkout that would refuse.
    expect(screen.queryByRole('link', { name: 'Blue Note LP' })).toBeNull();
    expect(screen.queryByTestId('product-image-link')).toBeNull();
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
