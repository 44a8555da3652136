import type { StorefrontResponse } from '@streamshop/contract/catalog.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './client.ts';

export const storefrontQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: ['/api/storefront', handle],
    queryFn: () => apiGet<StorefrontResponse>(`/api/storefront/${encodeURIComponent(handle)}`),
  });
