import type { Product } from '@streamshop/contract/catalog.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ProductCard } from './product-card.tsx';

const product = {
  id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
  title: 'Blue Note LP',
  description: null,
  priceCents: 2500,
  condition: 'used',
  imageUrl: null,
  stock: 3,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 's1', handle: 'groovevault', businessName: null, profileImageUrl: null },
} as Product;

function renderCard(card: Product) {
  const router = createMemoryRouter([{ path: '/', element: <ProductCard product={card} /> }]);
  render(<RouterProvider router={router} />);
}

afterEach(cleanup);

describe('product card', () => {
  it('links Buy Now to the checkout while units are left', () => {
    renderCard(product);
    expect(screen.getByTestId('buy-now').getAttribute('href')).toBe(`/checkout/${product.id}`);
    expect(screen.queryByTestId('product-sold-out')).toBeNull();
  });

  it('shows Sold Out and a disabled Buy Now button when none is left', () => {
    renderCard({ ...product, stock: 0 });
    expect(screen.getByTestId('product-sold-out').textContent).toBe('Sold Out');
    const buy = screen.getByTestId('buy-now');
    expect(buy.tagName).toBe('BUTTON');
    expect((buy as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('link', { name: /Buy Now/ })).toBeNull();
  });
});
