import type { SiteLinks } from '@streamshop/contract/site.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './client.ts';

// Only types come from the contract's site module: its zod schemas stay out of the shell's bundle.
const SITE_LINKS_URL = '/api/site/links';

const NONE: SiteLinks = {
  dropMode: null,
  streamDisc: null,
  streamshopLive: null,
  newsletterForm: null,
  pressKit: null,
};

/** GET /api/site/links: the operator's other sites (DROP_MODE_URL and the rest), null when unset. */
export const siteLinksQueryOptions = queryOptions({
  queryKey: [SITE_LINKS_URL] as const,
  queryFn: () => apiGet<SiteLinks>(SITE_LINKS_URL),
});

/**
 * The external links to show. Every one is unset until the server has answered (and if it
 * cannot), so the first paint (and a prerendered page) shows none: a link appears only once the
 * operator's address for it is known, and never as a dead placeholder.
 */
export function useSiteLinks(): SiteLinks {
  return useQuery(siteLinksQueryOptions).data ?? NONE;
}
