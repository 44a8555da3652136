import type { Product } from '@streamshop/contract/catalog.ts';
import { Pencil, ShoppingBag } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { useSellerTakesOrders } from '../../lib/api/payments.ts';
import { buyNowPath } from '../../lib/buy-now-path.ts';
import { NOT_TAKING_ORDERS } from '../../lib/not-taking-orders.ts';
import { useAuth } from '../../lib/session/use-auth.ts';

const BUY_CLASS = 'w-full';

/**
 * Buy Now, or why there is none: Sold Out (disabled), the seller not taking orders yet, or, on
 * the seller's own product, a way to edit it instead.
 */
export function BuyBox({ product }: { product: Product }) {
  const { user } = useAuth();
  const takesOrders = useSellerTakesOrders(product.seller.onboarded);
  if (user?.id === product.seller.id) {
    return (
      <div className="flex flex-col gap-2" data-testid="own-product">
        <p className="text-muted-foreground text-sm">This is your product.</p>
        <Link
          to="/dashboard"
          className={buttonClasses({ variant: 'outline', size: 'lg', className: BUY_CLASS })}
          data-testid="edit-product"
        >
          <Pencil aria-hidden="true" />
          Edit in your dashboard
        </Link>
      </div>
    );
  }
  if (product.stock === 0) {
    return (
      <button
        type="button"
        disabled
        className={buttonClasses({ size: 'lg', className: BUY_CLASS })}
        data-testid="buy-now"
      >
        Sold Out
      </button>
    );
  }
  if (!takesOrders) {
    return (
      <div className="flex flex-col gap-2">
        <button
          type="button"
          disabled
          className={buttonClasses({ size: 'lg', className: BUY_CLASS })}
          data-testid="buy-now"
        >
          Buy Now
        </button>
        <p className="text-muted-foreground text-sm" data-testid="product-not-taking-orders">
          {NOT_TAKING_ORDERS}
        </p>
      </div>
    );
  }
  return (
    <Link
      to={buyNowPath(product.id, user !== null)}
      className={buttonClasses({ size: 'lg', className: BUY_CLASS })}
      data-testid="buy-now"
    >
      <ShoppingBag aria-hidden="true" />
      Buy Now
    </Link>
  );
}
