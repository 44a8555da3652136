import type { Product } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useQuery } from '@tanstack/react-query';
import { Plus, RotateCw, Search } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { myProductsQueryOptions } from '../../lib/api/dashboard.ts';
import { storefrontQueryOptions } from '../../lib/api/storefront.ts';

/**
 * The products the picker offers: the seller's own catalogue, or for a moderator the seller's
 * storefront (a moderator cannot read another seller's private list).
 */
function useLineupCandidates(ownerHandle: string, isOwner: boolean, enabled: boolean) {
  const mine = useQuery({ ...myProductsQueryOptions, enabled: enabled && isOwner });
  const storefront = useQuery({ ...storefrontQueryOptions(ownerHandle), enabled: enabled && !isOwner });
  if (isOwner) return { products: mine.data, isError: mine.isError, refetch: mine.refetch };
  return { products: storefront.data?.products, isError: storefront.isError, refetch: storefront.refetch };
}

/** The dialog where the seller or a moderator picks products from the catalogue for the lineup. */
export function ProductPicker({
  open,
  onOpenChange,
  ownerHandle,
  isOwner,
  lineup,
  onAdd,
  adding,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  ownerHandle: string;
  isOwner: boolean;
  lineup: RoomProduct[];
  onAdd: (product: Product) => void;
  adding: string | null;
}) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const candidates = useLineupCandidates(ownerHandle, isOwner, open);
  const inLineup = new Set(lineup.map((product) => product.id));
  const needle = search.trim().toLowerCase();
  const shown = (candidates.products ?? []).filter((product) => product.title.toLowerCase().includes(needle));

  let list: ReactNode;
  if (candidates.isError) {
    list = (
      <div className="grid justify-items-start gap-2 py-4 text-sm" role="alert">
        <p className="text-destructive">The products could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => candidates.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  } else if (!candidates.products) {
    list = (
      <div className="grid gap-2" aria-busy="true">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-14 w-full" />
        ))}
      </div>
    );
  } else if (candidates.products.length === 0) {
    list = (
      <p className="py-4 text-muted-foreground text-sm" data-testid="lineup-picker-empty">
        No products in the catalogue yet.{' '}
        {isOwner ? (
          <Link to="/dashboard" className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}>
            Add products on the dashboard
          </Link>
        ) : null}
      </p>
    );
  } else if (shown.length === 0) {
    list = <p className="py-4 text-muted-foreground text-sm">No product matches “{search.trim()}”.</p>;
  } else {
    list = (
      <ul className="grid max-h-[50vh] gap-2 overflow-y-auto pr-1" data-testid="lineup-picker-list">
        {shown.map((product) => (
          <li
            key={product.id}
            className="flex items-center gap-3 rounded-md border border-border p-2"
            data-testid="lineup-picker-product"
          >
            <ProductThumb product={product} size="sm" />
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-sm">{product.title}</p>
              <p className="text-muted-foreground text-xs">
                {formatCents(product.priceCents)} · {product.stock} in stock
              </p>
            </div>
            {inLineup.has(product.id) ? (
              <span className="text-muted-foreground text-xs" data-testid="lineup-picker-added">
                In lineup
              </span>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => onAdd(product)}
                disabled={adding !== null}
                data-testid="lineup-add"
              >
                <Plus aria-hidden="true" />
                Add<span className="sr-only">: {product.title}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="lineup-picker">
        <DialogHeader>
          <DialogTitle>Add to the lineup</DialogTitle>
          <DialogDescription>Line up products to pin them for viewers during the stream.</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search products
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={searchId}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search products"
            className="pl-9"
            autoComplete="off"
            data-testid="lineup-picker-search"
          />
        </div>
        {list}
      </DialogContent>
    </Dialog>
  );
}
