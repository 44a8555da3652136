import type { Product } from '@streamshop/contract/catalog.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { aProduct } from '../../test/product-fixture.ts';
import { ProductRow } from './product-row.tsx';

const product: Product = aProduct;

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
