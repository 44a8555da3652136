import type { Product } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { SquarePen, Trash2 } from 'lucide-react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';

/** A product of the seller's list (price, condition, units left), with Edit and Delete. */
export function ProductRow({
  product,
  onEdit,
  onDelete,
}: {
  product: Product;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <li>
      <Card className="flex items-center gap-4 p-3" data-testid="dashboard-product">
        <ProductThumb product={product} loading="lazy" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-medium" data-testid="dashboard-product-title">
            {product.title}
          </h3>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <span className="font-semibold" data-testid="dashboard-product-price">
              {formatCents(product.priceCents)}
            </span>
            <Badge variant="secondary">{product.condition.toUpperCase()}</Badge>
            {product.stock === 0 ? (
              <Badge variant="destructive" data-testid="dashboard-product-stock">
                Sold Out
              </Badge>
            ) : (
              <span className="text-muted-foreground text-sm" data-testid="dashboard-product-stock">
                {product.stock} in stock
              </span>
            )}
          </div>
        </div>
        <div className="flex shrink-0 gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Edit ${product.title}`}
            onClick={onEdit}
            data-testid="product-edit"
          >
            <SquarePen aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="text-red-400 hover:text-red-300"
            aria-label={`Delete ${product.title}`}
            onClick={onDelete}
            data-testid="product-delete"
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </Card>
    </li>
  );
}
