import { formatCents } from '@streamshop/contract/money.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { PackageCheck } from 'lucide-react';
import { Link } from 'react-router';
import { OrderStatusBadge, orderReference } from '../order-parts.tsx';
import { buttonClasses } from '../ui/button.tsx';

/**
 * What the checkout page and the room's checkout sheet show a buyer who comes back after paying
 * (the answer to their payment was lost, or they reopened checkout): their order, not a card form.
 */
export function OrderPlacedNote({ order }: { order: OrderDetail }) {
  return (
    <div
      className="grid justify-items-start gap-3 rounded-lg border border-border p-4"
      data-testid="order-placed"
    >
      <p className="flex items-center gap-2 font-medium">
        <PackageCheck className="size-4 text-primary" aria-hidden="true" />
        You bought this
      </p>
      <p className="text-muted-foreground text-sm">
        Your payment{order.item.title ? ` for ${order.item.title}` : ''} went through: order{' '}
        <span className="font-mono" data-testid="order-placed-reference">
          {orderReference(order)}
        </span>
        , {formatCents(order.amountCents)}. Nothing more is charged.
      </p>
      <OrderStatusBadge status={order.status} />
      <Link to="/orders" className={buttonClasses({ size: 'sm' })}>
        See your orders
      </Link>
    </div>
  );
}
