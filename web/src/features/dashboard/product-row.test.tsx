import type { Product } from '@streamshop/contract/catalog.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProductRow } from './product-row.tsx';

const product = {
  id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
  title: 'Blue Note LP',
  description: null,
  priceCents: 2500,
  condition: 'used',
  imageUrl: null,
  stock: 3,
  fulfillment: 'ship',
  shippingCents: 450,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 's1', handle: 'groovevault', businessName: null, profileImageUrl: null, onboarded: false },
} as Product;

function renderRow(row: Product) {
  render(
    <ul>
      <ProductRow product={row} onEdit={() => {}} onDelete={() => {}} />
    </ul>,
  );
}

afterEach(cleanup);

describe("the seller's product row", () => {
  it('shows the units left', () => {
    renderRow(product);
    expect(screen.getByTestId('dashboard-product-price').textContent).toBe('$25.00');
    expect(screen.getByTestId('dashboard-product-stock').textContent).toBe('3 in stock');
  });

  it('says Sold Out when none is left', () => {
    renderRow({ ...product, stock: 0 });
    expect(screen.getByTestId('dashboard-product-stock').textContent).toBe('Sold Out');
  });
});
