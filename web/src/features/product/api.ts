import type { ProductPage } from '@streamshop/contract/catalog.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/client.ts';

// Only types come from the contract's catalog module: its zod schemas stay out of this bundle.

/** GET /api/products/:id/page: the product, its seller (live or not) and the shows it is in. */
export const productPageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/products', id, 'page'],
    queryFn: () => apiGet<ProductPage>(`/api/products/${encodeURIComponent(id)}/page`),
  });
