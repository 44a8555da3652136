import type { FacetsResponse } from '@streamshop/contract/catalog.ts';
import { CONDITIONS, type Condition } from '@streamshop/contract/constants.ts';
import { X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/cn.ts';
import {
  activeFilterCount,
  type FilterPatch,
  type MarketplaceState,
  parsePrice,
  toggleCategory,
} from './url-state.ts';

/** A typed price is applied this long after the last keystroke (or at once on Enter or blur). */
export const PRICE_DEBOUNCE_MS = 500;

const CONDITION_LABELS: Record<Condition, string> = { new: 'New', used: 'Used', refurbished: 'Refurbished' };

const priceText = (value: number | null) => (value === null ? '' : String(value));

/** A dollars field that shows what the user types and applies it to the filters when they pause. */
function PriceField({
  id,
  label,
  value,
  onCommit,
  testId,
}: {
  id: string;
  label: string;
  value: number | null;
  onCommit: (value: number | null) => void;
  testId: string;
}) {
  const [text, setText] = useState(() => priceText(value));
  const commitRef = useRef(onCommit);
  useEffect(() => {
    commitRef.current = onCommit;
  });

  // The address changed (back button, Clear filters): show its value.
  useEffect(() => {
    setText((current) => (parsePrice(current) === value ? current : priceText(value)));
  }, [value]);

  useEffect(() => {
    if (parsePrice(text) === value) return;
    const timer = setTimeout(() => commitRef.current(parsePrice(text)), PRICE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  const commitNow = () => {
    if (parsePrice(text) !== value) onCommit(parsePrice(text));
  };

  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-muted-foreground text-xs">
        {label}
      </label>
      <div className="relative">
        <span
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground text-sm"
          aria-hidden="true"
        >
          $
        </span>
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder={label.startsWith('Min') ? '0' : 'Any'}
          className="pl-6"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={commitNow}
          onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
            if (event.key === 'Enter') commitNow();
          }}
          data-testid={testId}
        />
      </div>
    </div>
  );
}

/** Categories (with counts), condition, and minimum and maximum price in dollars. */
export function FilterPanel({
  state,
  facets,
  onChange,
  className,
}: {
  state: MarketplaceState;
  facets: FacetsResponse | undefined;
  onChange: (patch: FilterPatch) => void;
  className?: string;
}) {
  const uid = useId();
  const active = activeFilterCount(state);
  const conditionCounts = new Map(facets?.conditions.map((c) => [c.condition, c.productCount]));

  return (
    <div className={cn('flex flex-col gap-6', className)} data-testid="filter-panel">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold text-lg">Filters</h2>
        {active > 0 ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onChange({ categories: [], condition: null, minPrice: null, maxPrice: null })}
            data-testid="clear-filters"
          >
            <X aria-hidden="true" />
            Clear all
          </Button>
        ) : null}
      </div>

      <fieldset className="grid gap-1">
        <legend className="mb-2 font-medium text-sm">Categories</legend>
        {facets ? (
          facets.categories.map((category) => {
            const checked = state.categories.includes(category.id);
            const inputId = `${uid}-category-${category.id}`;
            return (
              <div
                key={category.id}
                className="flex items-center gap-2 rounded-md px-1 py-1 hover:bg-accent/60"
              >
                <input
                  id={inputId}
                  type="checkbox"
                  className="size-4 cursor-pointer accent-primary"
                  checked={checked}
                  onChange={() => onChange({ categories: toggleCategory(state.categories, category.id) })}
                  data-testid={`category-${category.slug}`}
                />
                <label htmlFor={inputId} className="flex flex-1 cursor-pointer justify-between gap-2 text-sm">
                  <span>{category.name}</span>
                  <span className="text-muted-foreground tabular-nums">
                    {category.productCount.toLocaleString('en-US')}
                  </span>
                </label>
              </div>
            );
          })
        ) : (
          <div className="grid gap-2" aria-hidden="true">
            {[0, 1, 2, 3, 4, 5].map((i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        )}
      </fieldset>

      <fieldset className="grid gap-1">
        <legend className="mb-2 font-medium text-sm">Condition</legend>
        {([null, ...CONDITIONS] as const).map((condition) => {
          const inputId = `${uid}-condition-${condition ?? 'any'}`;
          const count = condition ? conditionCounts.get(condition) : undefined;
          return (
            <div key={inputId} className="flex items-center gap-2 rounded-md px-1 py-1 hover:bg-accent/60">
              <input
                id={inputId}
                type="radio"
                name={`${uid}-condition`}
                className="size-4 cursor-pointer accent-primary"
                checked={state.condition === condition}
                onChange={() => onChange({ condition })}
                data-testid={`condition-${condition ?? 'any'}`}
              />
              <label htmlFor={inputId} className="flex flex-1 cursor-pointer justify-between gap-2 text-sm">
                <span>{condition ? CONDITION_LABELS[condition] : 'Any condition'}</span>
                {count !== undefined ? (
                  <span className="text-muted-foreground tabular-nums">{count.toLocaleString('en-US')}</span>
                ) : null}
              </label>
            </div>
          );
        })}
      </fieldset>

      <fieldset className="grid gap-3">
        <legend className="mb-2 font-medium text-sm">Price (USD)</legend>
        <div className="grid grid-cols-2 gap-3">
          <PriceField
            id={`${uid}-min-price`}
            label="Minimum price"
            value={state.minPrice}
            onCommit={(minPrice) => onChange({ minPrice })}
            testId="min-price"
          />
          <PriceField
            id={`${uid}-max-price`}
            label="Maximum price"
            value={state.maxPrice}
            onCommit={(maxPrice) => onChange({ maxPrice })}
            testId="max-price"
          />
        </div>
      </fieldset>
    </div>
  );
}
