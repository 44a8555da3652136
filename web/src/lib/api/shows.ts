import type { Show, ShowList } from '@streamshop/contract/shows.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './client.ts';

// Only types come from the contract's shows module: its zod schemas stay out of this bundle.

export const SHOWS_URL = '/api/shows';

/** The query key of one show (GET /api/shows/:id); its page and its reminder toggle share it. */
export const showQueryKey = (id: string) => [SHOWS_URL, id] as const;

/** GET /api/shows: the upcoming shows, soonest first, of everyone or of one seller (by handle). */
export const upcomingShowsQueryOptions = ({ seller, limit }: { seller?: string; limit: number }) => {
  const params = new URLSearchParams({ limit: String(limit) });
  if (seller) params.set('seller', seller);
  return queryOptions({
    queryKey: [SHOWS_URL, 'upcoming', seller ?? null, limit] as const,
    queryFn: async () => (await apiGet<ShowList>(`${SHOWS_URL}?${params}`)).shows,
  });
};

export type { Show };
