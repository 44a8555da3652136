import type { CategoryFacet, Product } from '@streamshop/contract/catalog.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { ProductDialog } from './product-dialog.tsx';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const categories: CategoryFacet[] = [{ id: 3, name: 'Vinyl', slug: 'vinyl', productCount: 1 }];

const product: Product = {
  id: '0b7d2c1e-0000-4000-8000-000000000001',
  title: 'Blue Note LP',
  description: 'First press',
  priceCents: 1999,
  condition: 'used',
  categoryId: 3,
  imageUrl: null,
  stock: 4,
  fulfillment: 'ship',
  shippingCents: 500,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 'u1', handle: 'ana', businessName: null, profileImageUrl: null, onboarded: false },
  createdAt: '2025-01-01T00:00:00.000Z',
};

function renderDialog(initial: Product | null, answer: (url: string, init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => answer(url, init));
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <QueryClientProvider client={queryClient}>
      <ProductDialog open product={initial} categories={categories} onOpenChange={() => {}} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

const submit = () => fireEvent.click(screen.getByTestId('product-submit'));

describe('product dialog', () => {
  it('says the price is required when it is left blank, and sends nothing', () => {
    const fetchMock = renderDialog(product, () => json(product));
    fireEvent.change(screen.getByTestId('product-price-input'), { target: { value: '' } });
    submit();
    expect(screen.getByText('Price is required')).toBeTruthy();
    expect(screen.getByTestId('product-price-input').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a negative stock with a field message instead of saving 1', () => {
    const fetchMock = renderDialog(product, () => json(product));
    fireEvent.change(screen.getByTestId('product-stock-input'), { target: { value: '-3' } });
    submit();
    expect(screen.getByText('Stock must be 0 or more')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(getToasts().map((toast) => toast.title)).not.toContain('Product updated successfully!');
  });

  it("titles a refused upload 'Upload Failed' with the server's message", async () => {
    const message = 'Invalid image: the file is not a readable JPEG, PNG or WebP image';
    const fetchMock = renderDialog(null, () => json({ code: 'VALIDATION_FAILED', message }, 400));
    const file = new File(['not an image'], 'notes.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('product-image-file'), { target: { files: [file] } });
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Upload Failed', description: message, open: true }),
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/uploads/product-image');
  });

  it("titles a file that is not an image 'Upload Failed' before sending it", () => {
    const fetchMock = renderDialog(null, () => json({}));
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.change(screen.getByTestId('product-image-file'), { target: { files: [file] } });
    expect(getToasts()[0]).toMatchObject({
      title: 'Upload Failed',
      description: 'Choose a JPEG, PNG or WebP image.',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
