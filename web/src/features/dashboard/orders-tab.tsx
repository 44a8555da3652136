import { DASHBOARD_LATEST_ORDERS, ORDER_NUMBER_LENGTH } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowRight, ShoppingBag } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ORDER_STATUS_LABELS } from '../../components/order-parts.tsx';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ordersQueryOptions } from '../../lib/api/orders.ts';
import { formatDate } from '../../lib/format-date.ts';
import { LoadFailed, RowsSkeleton, TabPanelHeader } from './tab-panel-parts.tsx';

/** 'Order #' plus the first 8 characters of the id (spec: Seller dashboard, Orders). */
export const orderNumber = (order: Pick<OrderDetail, 'id'>) =>
  `Order #${order.id.slice(0, ORDER_NUMBER_LENGTH)}`;

/** The spec's 'Completed' for a paid order on its way (or arrived); the plain word when it ended otherwise. */
function OrderBadge({ status }: { status: OrderDetail['status'] }) {
  if (status === 'cancelled' || status === 'refunded') {
    return (
      <Badge variant="secondary" data-testid="dashboard-order-status">
        {ORDER_STATUS_LABELS[status]}
      </Badge>
    );
  }
  return (
    <Badge className="bg-emerald-700 text-white" data-testid="dashboard-order-status">
      Completed
    </Badge>
  );
}

function OrderRow({ order }: { order: OrderDetail }) {
  const title = order.item.title ?? 'Deleted product';
  return (
    <li>
      <Card className="flex items-center gap-3 p-3 sm:gap-4" data-testid="dashboard-order">
        <ProductThumb product={order.item} size="sm" loading="lazy" />
        <div className="min-w-0 flex-1">
          <h3 className="font-medium font-mono" data-testid="dashboard-order-number">
            {orderNumber(order)}
          </h3>
          <p className="line-clamp-2 text-muted-foreground text-sm">
            <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time> · {title}
          </p>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-center sm:gap-3">
          <span className="font-semibold tabular-nums" data-testid="dashboard-order-amount">
            {formatCents(order.amountCents)}
          </span>
          <OrderBadge status={order.status} />
        </div>
      </Card>
    </li>
  );
}

/**
 * The dashboard's Orders tab: the signed-in user's 10 latest purchases, newest first, and a link to
 * /orders for all of them with tracking. It shares its cache entry with /orders ('/api/orders'),
 * which a purchase invalidates, so a just-paid order is here when checkout lands on ?tab=orders.
 */
export function OrdersTab() {
  const purchases = useInfiniteQuery(ordersQueryOptions('buyer'));
  const latest = purchases.data?.pages[0]?.orders.slice(0, DASHBOARD_LATEST_ORDERS) ?? [];
  return (
    <>
      <TabPanelHeader title="Recent Orders">
        <Link
          to="/orders"
          className={buttonClasses({ variant: 'outline' })}
          data-testid="dashboard-all-orders"
        >
          All orders and tracking
          <ArrowRight aria-hidden="true" />
        </Link>
      </TabPanelHeader>
      {purchases.isPending ? (
        <RowsSkeleton />
      ) : purchases.isError ? (
        <LoadFailed what="orders" />
      ) : latest.length === 0 ? (
        <EmptyState
          icon={ShoppingBag}
          title="No Orders Yet"
          description="What you buy from live shows and storefronts shows up here."
          testId="dashboard-orders-empty"
        >
          <Link to="/explore" className={buttonClasses({ className: 'mt-2' })}>
            Explore the marketplace
          </Link>
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-3" aria-label="Recent orders">
          {latest.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </ul>
      )}
    </>
  );
}
