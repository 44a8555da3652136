import { SORTS, type Sort } from '@streamshop/contract/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, PackageSearch, SlidersHorizontal, X } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { PRODUCT_GRID_CLASS, ProductCard, ProductGridSkeleton } from '../../components/product-card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { UpcomingShows } from '../../components/upcoming-shows.tsx';
import { exploreQueryOptions, facetsQueryOptions } from '../../lib/api/catalog.ts';
import { cn } from '../../lib/cn.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { FilterPanel } from './filter-panel.tsx';
import { LiveSection } from './live-section.tsx';
import { PaginationNav } from './pagination-nav.tsx';
import {
  activeFilterCount,
  applyFilterPatch,
  exploreRequestParams,
  type FilterPatch,
  facetsRequestParams,
  type MarketplaceState,
  readMarketplaceState,
  SORT_LABELS,
  writeMarketplaceState,
} from './url-state.ts';

const ALL_FACETS = new URLSearchParams();

/** /c/{slug}: the slug's category id, from the whole catalogue's facets (cached for the session). */
function useSlugCategory(slug: string | undefined) {
  const { data, isPending, isError } = useQuery({ ...facetsQueryOptions(ALL_FACETS), enabled: !!slug });
  if (!slug) return { id: null, name: null, resolving: false, unknown: false };
  const category = data?.categories.find((c) => c.slug === slug);
  return {
    id: category?.id ?? null,
    name: category?.name ?? null,
    resolving: isPending && !isError,
    unknown: !isPending && !category,
  };
}

function useMarketplaceState() {
  const [searchParams] = useSearchParams();
  const { slug } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const slugCategory = useSlugCategory(slug);
  const state = useMemo(
    () => readMarketplaceState(searchParams, slugCategory.id),
    [searchParams, slugCategory.id],
  );
  const addressNamesCategory = searchParams.has('category');

  const commit = useCallback(
    (next: MarketplaceState) => {
      let pathname = location.pathname;
      let params: URLSearchParams;
      if (slug && !addressNamesCategory) {
        // /c/{slug} keeps its path while the slug's category is the only one selected.
        const onlySlug = next.categories.length === 1 && next.categories[0] === slugCategory.id;
        if (onlySlug) {
          params = writeMarketplaceState(next, { omitCategories: true });
        } else {
          pathname = '/explore';
          params = writeMarketplaceState(next);
        }
      } else {
        params = writeMarketplaceState(next);
      }
      const search = params.toString();
      navigate({ pathname, search: search ? `?${search}` : '' }, { preventScrollReset: true });
    },
    [location.pathname, navigate, slug, addressNamesCategory, slugCategory.id],
  );

  return { state, slug, slugCategory, commit };
}

/** A native select: small, and keyboard- and screen-reader-friendly everywhere. */
function SortSelect({ value, onChange }: { value: Sort; onChange: (sort: Sort) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="whitespace-nowrap text-muted-foreground text-sm">
        Sort by
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value as Sort)}
          className="h-10 w-48 cursor-pointer appearance-none rounded-md border border-input bg-background py-2 pr-9 pl-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-testid="sort-select"
        >
          {SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-60"
          aria-hidden="true"
        />
      </div>
    </div>
  );
}

function resultSummary(total: number, estimate: boolean): string {
  const count = total.toLocaleString('en-US');
  return `${estimate ? 'About ' : ''}${count} ${total === 1 ? 'product' : 'products'} found`;
}

/** The browse view behind signed-in /, /explore, /search?q= and /c/{slug}. */
export function MarketplacePage() {
  const { state, slug, slugCategory, commit } = useMarketplaceState();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const title = state.q ? 'Search Results' : 'Marketplace';
  usePageTitle(slugCategory.name ?? title);

  const ready = !slugCategory.resolving && !slugCategory.unknown;
  const facets = useQuery({ ...facetsQueryOptions(facetsRequestParams(state)), enabled: ready });
  const exploreParams = exploreRequestParams(state);
  const explore = useQuery({ ...exploreQueryOptions(exploreParams), enabled: ready });

  const onFilterChange = useCallback(
    (patch: FilterPatch) => commit(applyFilterPatch(state, patch)),
    [commit, state],
  );
  const onPageChange = (page: number) => {
    commit({ ...state, page });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const active = activeFilterCount(state);
  const data = explore.data;
  const products = data?.products ?? [];
  const showSkeleton = !slugCategory.unknown && (!ready || explore.isPending);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
      <header className="mb-8 flex flex-col gap-2">
        <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-muted-foreground">
          <p data-testid="result-summary" aria-live="polite">
            {data && !explore.isPlaceholderData
              ? resultSummary(data.pagination.total, data.pagination.totalIsEstimate)
              : 'Discover thousands of products from verified sellers'}
          </p>
          {active > 0 ? (
            <Badge variant="secondary" data-testid="active-filter-count">
              {active} {active === 1 ? 'filter' : 'filters'} active
            </Badge>
          ) : null}
        </div>
        {state.q ? (
          <p className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Results for</span>
            <span className="font-medium">“{state.q}”</span>
            <Link
              to="/explore"
              className="inline-flex items-center gap-1 rounded-sm text-primary underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-3.5" aria-hidden="true" />
              Clear search
            </Link>
          </p>
        ) : null}
        {slugCategory.name ? (
          <p className="text-sm">
            <span className="text-muted-foreground">Category:</span>{' '}
            <span className="font-medium">{slugCategory.name}</span>
          </p>
        ) : null}
      </header>

      <LiveSection />
      <UpcomingShows />

      <div className="flex flex-col gap-8 lg:flex-row">
        <aside className="lg:w-64 lg:shrink-0" aria-label="Product filters">
          <Button
            variant="outline"
            className="w-full lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <SlidersHorizontal aria-hidden="true" />
            {filtersOpen ? 'Hide filters' : 'Show filters'}
            {active > 0 ? ` (${active})` : ''}
          </Button>
          <div
            id={filtersId}
            className={cn('mt-4 lg:sticky lg:top-20 lg:mt-0 lg:block', !filtersOpen && 'hidden')}
          >
            <FilterPanel state={state} facets={facets.data} onChange={onFilterChange} />
          </div>
        </aside>

        <section
          className="min-w-0 flex-1"
          aria-labelledby="products-heading"
          data-testid="products-section"
          data-busy={!ready || explore.isFetching}
          data-query={exploreParams.toString()}
        >
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="products-heading" className="font-bold text-xl">
              Products
            </h2>
            <SortSelect value={state.sort} onChange={(sort) => onFilterChange({ sort })} />
          </div>

          {slugCategory.unknown ? (
            <EmptyState
              icon={PackageSearch}
              title="No Products Found"
              description={`There is no category called “${slug}”.`}
              testId="products-empty"
            />
          ) : showSkeleton ? (
            <ProductGridSkeleton />
          ) : explore.isError && !data ? (
            <EmptyState
              icon={PackageSearch}
              title="Products could not be loaded"
              description="Something went wrong. Please try again."
              testId="products-error"
            >
              <Button variant="outline" className="mt-2" onClick={() => void explore.refetch()}>
                Try again
              </Button>
            </EmptyState>
          ) : products.length === 0 ? (
            <EmptyState
              icon={PackageSearch}
              title="No Products Found"
              description="Try adjusting your filters or search terms."
              testId="products-empty"
            />
          ) : (
            <div
              className={cn(
                PRODUCT_GRID_CLASS,
                'transition-opacity',
                explore.isPlaceholderData && 'opacity-60',
              )}
              aria-busy={explore.isFetching}
              data-testid="product-grid"
            >
              {products.map((product) => (
                <ProductCard key={product.id} product={product} />
              ))}
            </div>
          )}

          {data && !slugCategory.unknown ? (
            <PaginationNav
              page={state.page}
              totalPages={data.pagination.totalPages}
              onPageChange={onPageChange}
            />
          ) : null}
        </section>
      </div>
    </div>
  );
}
