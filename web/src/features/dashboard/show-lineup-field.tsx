import { formatCents } from '@streamshop/contract/money.ts';
import { SHOW_MAX_PRODUCTS } from '@streamshop/contract/shows.ts';
import { useQuery } from '@tanstack/react-query';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { myProductsQueryOptions } from '../../lib/api/dashboard.ts';
import { toggleProduct } from './show-form.ts';

/**
 * The show's lineup: a box to tick per product of the seller's (the Products tab's list). The
 * order of ticking is the lineup's order, and each ticked product shows its place in it.
 */
export function ShowLineupField({
  id,
  productIds,
  error,
  onChange,
}: {
  id: string;
  productIds: string[];
  error: string | undefined;
  onChange: (productIds: string[]) => void;
}) {
  const products = useQuery(myProductsQueryOptions);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={[error ? errorId : undefined, hintId].filter(Boolean).join(' ')}
      data-testid="show-lineup"
    >
      <legend className="mb-2 font-medium text-sm leading-none">Products</legend>
      <p id={hintId} className="text-muted-foreground text-xs">
        Tick the products you will sell, in the order you will show them (up to {SHOW_MAX_PRODUCTS}).
        {productIds.length > 0 ? ` ${productIds.length} chosen.` : ''}
      </p>
      {products.isPending ? (
        <div className="grid gap-2" role="status" aria-label="Loading your products">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : products.isError ? (
        <p className="text-muted-foreground text-sm">Your products could not be loaded.</p>
      ) : products.data.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="show-lineup-empty">
          You have no products yet. Add them in the Products tab, then put them in the show.
        </p>
      ) : (
        <ul className="grid max-h-60 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-border p-1">
          {products.data.map((product) => {
            const place = productIds.indexOf(product.id) + 1;
            const inputId = `${id}-${product.id}`;
            return (
              <li key={product.id}>
                <label
                  htmlFor={inputId}
                  className="flex cursor-pointer items-center gap-3 rounded-md p-2 hover:bg-accent"
                  data-testid="show-lineup-product"
                >
                  <input
                    id={inputId}
                    type="checkbox"
                    name="productIds"
                    className="size-4 shrink-0 cursor-pointer accent-primary"
                    checked={place > 0}
                    aria-invalid={error ? true : undefined}
                    onChange={(event) =>
                      onChange(toggleProduct(productIds, product.id, event.target.checked))
                    }
                  />
                  <ProductThumb product={product} size="sm" loading="lazy" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm">{product.title}</span>
                    <span className="text-muted-foreground text-xs">{formatCents(product.priceCents)}</span>
                  </span>
                  {place > 0 ? (
                    <span
                      className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground text-xs"
                      data-testid="show-lineup-place"
                    >
                      <span className="sr-only">Number </span>
                      {place}
                    </span>
                  ) : null}
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
