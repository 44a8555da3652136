/** The endpoints the explore bench loads, and the p95 target for each. */
import type { Options } from './options.ts';

export interface Endpoint {
  key: string;
  label: string;
  path: string;
  /** p95 target in ms for this catalogue, when the issue sets one. */
  target?: number;
}

/** The targets: 100k products on PGlite, and relevance at 1M on PostgreSQL. */
function targetFor(key: string, options: Options): number | undefined {
  if (options.large) return key.startsWith('relevance') ? 100 : undefined;
  if (options.products > 100_000) return undefined;
  if (key === 'newest' || key === 'filtered') return 15;
  if (key.startsWith('relevance')) return 50;
  if (key === 'facets') return 40;
  return undefined;
}

/** The inputs picked from the seeded catalogue: its largest category, a common and a rare title word. */
export interface Inputs {
  category: { id: number; slug: string; n: number };
  common: { word: string; matches: number };
  rare: { word: string; matches: number };
}

/** The floor (constant JSON, the baseline) and the explore endpoints, each with its target. */
export function endpointsFor(options: Options, { category, common, rare }: Inputs): Endpoint[] {
  const endpoints: Endpoint[] = [
    { key: 'floor', label: 'floor: GET /bench/floor (constant JSON)', path: '/bench/floor' },
    { key: 'newest', label: 'explore newest, page 1', path: '/api/explore' },
    {
      key: 'filtered',
      label: `explore price_low, category ${category.slug}, $10–200`,
      path: `/api/explore?sort=price_low&category=${category.id}&minPrice=10&maxPrice=200`,
    },
    {
      key: 'relevance-common',
      label: `relevance "${common.word}" (${common.matches} matches)`,
      path: `/api/explore?search=${encodeURIComponent(common.word)}&sort=relevance`,
    },
    {
      key: 'relevance-rare',
      label: `relevance "${rare.word}" (${rare.matches} matches)`,
      path: `/api/explore?search=${encodeURIComponent(rare.word)}&sort=relevance`,
    },
    { key: 'facets', label: 'facets (no filter)', path: '/api/facets' },
  ];
  for (const endpoint of endpoints) endpoint.target = targetFor(endpoint.key, options);
  return endpoints;
}
