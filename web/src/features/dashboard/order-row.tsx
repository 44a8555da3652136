import type { Order } from '@streamshop/contract/catalog.ts';
import { ORDER_NUMBER_LENGTH } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../lib/format-date.ts';

/** 'Order #' plus the first 8 characters of the id. */
export const orderNumber = (order: Pick<Order, 'id'>) => `Order #${order.id.slice(0, ORDER_NUMBER_LENGTH)}`;

/** An order the seller made or received. */
export function OrderRow({ order }: { order: Order }) {
  return (
    <li>
      <Card className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="dashboard-order">
        <div>
          <div className="flex items-center gap-2">
            <h3 className="font-medium font-mono">{orderNumber(order)}</h3>
            <Badge variant="outline" data-testid="order-role">
              {order.role === 'buyer' ? 'Purchase' : 'Sale'}
            </Badge>
          </div>
          <p className="text-muted-foreground text-sm">
            {formatDate(order.createdAt)}
            {order.productTitle ? ` · ${order.productTitle}` : ''}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span className="font-semibold">{formatCents(order.amountCents)}</span>
          {order.status === 'refunded' ? (
            <Badge variant="secondary">Refunded</Badge>
          ) : (
            <Badge className="bg-emerald-700 text-white">Completed</Badge>
          )}
        </div>
      </Card>
    </li>
  );
}
