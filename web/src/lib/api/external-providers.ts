import { EXTERNAL_PROVIDERS_URL, type ExternalProviders } from '@streamshop/contract/auth.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './client.ts';

/** The external sign-in providers this server is configured for: the sign-in and sign-up pages' buttons. */
export const externalProvidersQueryOptions = queryOptions({
  queryKey: [EXTERNAL_PROVIDERS_URL] as const,
  queryFn: () => apiGet<ExternalProviders>(EXTERNAL_PROVIDERS_URL),
});
