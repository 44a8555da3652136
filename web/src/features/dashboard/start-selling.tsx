import { Plus, Radio, Store } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';

/** A buyer's invitation to sell: list a product (the dashboard's dialog) or go live. */
export function StartSelling({ handle, onAddProduct }: { handle: string; onAddProduct: () => void }) {
  return (
    <Card
      className="mb-8 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between"
      data-testid="start-selling"
    >
      <div className="flex items-start gap-3">
        <Store className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
        <div>
          <h2 className="font-semibold text-lg">Start selling</h2>
          <p className="text-muted-foreground text-sm">
            List something you'd like to sell, or go live and sell it on camera. Your storefront will be at
            /s/{handle}.
          </p>
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button onClick={onAddProduct} data-testid="start-selling-add-product">
          <Plus aria-hidden="true" />
          Add Product
        </Button>
        <Link
          to="/golive"
          className={buttonClasses({ className: 'bg-red-600 text-white hover:bg-red-700' })}
          data-testid="go-live-link"
        >
          <Radio aria-hidden="true" />
          Go Live
        </Link>
      </div>
    </Card>
  );
}
