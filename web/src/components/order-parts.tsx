import { carrierName } from '@streamshop/contract/carriers.ts';
import { ORDER_STATUSES, type OrderStatus } from '@streamshop/contract/catalog.ts';
import type { OrderAddress, OrderDetail } from '@streamshop/contract/orders.ts';
import { addressLines } from '@streamshop/contract/shipping.ts';
import { ExternalLink, ShoppingBag } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { EmptyState } from './empty-state.tsx';
import { Badge } from './ui/badge.tsx';
import { Button } from './ui/button.tsx';
import { Skeleton } from './ui/skeleton.tsx';

/** The pieces a sale (dashboard) and a purchase (/orders) share: status, timeline, address, tracking. */

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

const STATUS_CLASSES: Record<OrderStatus, string> = {
  paid: 'bg-sky-700 text-white',
  shipped: 'bg-violet-700 text-white',
  delivered: 'bg-emerald-700 text-white',
  cancelled: '',
  refunded: '',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const closed = status === 'cancelled' || status === 'refunded';
  return (
    <Badge
      variant={closed ? 'secondary' : 'default'}
      className={STATUS_CLASSES[status]}
      data-testid="order-status"
    >
      {ORDER_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 'Order #' and the first 8 hex digits of the id, as the emails quote it. */
export const orderReference = (order: Pick<OrderDetail, 'id'>) =>
  `#${order.id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Paid → shipped → delivered, or the cancel / refund that ended it, each with its time. */
/** An order card's first line: the item's title (at the page's heading level) and its status. */
export function OrderHeading({
  order,
  level,
  testId,
}: {
  order: OrderDetail;
  level: 'h2' | 'h3';
  testId: string;
}) {
  const Heading = level;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Heading className="font-medium" data-testid={testId}>
        {order.item.title ?? 'Deleted product'}
      </Heading>
      <OrderStatusBadge status={order.status} />
    </div>
  );
}

export function OrderTimeline({ order }: { order: OrderDetail }) {
  const steps: Array<{ label: string; at: string | null; ended?: boolean }> = [
    { label: 'Paid', at: order.createdAt },
  ];
  if (order.item.fulfillment === 'ship') steps.push({ label: 'Shipped', at: order.shippedAt });
  steps.push({ label: 'Delivered', at: order.deliveredAt });
  if (order.cancelledAt) steps.push({ label: 'Cancelled', at: order.cancelledAt, ended: true });
  if (order.refundedAt) steps.push({ label: 'Refunded', at: order.refundedAt, ended: true });
  const closed = order.status === 'cancelled' || order.status === 'refunded';
  const shown = closed ? steps.filter((step) => step.at) : steps;
  return (
    <ol className="grid gap-1 text-sm" aria-label="Timeline" data-testid="order-timeline">
      {shown.map((step) => (
        <li key={step.label} className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className={cn(
              'size-2.5 rounded-full',
              step.at ? (step.ended ? 'bg-destructive' : 'bg-emerald-600') : 'border border-muted-foreground',
            )}
          />
          <span className={step.at ? 'font-medium' : 'text-muted-foreground'}>{step.label}</span>
          <span className="text-muted-foreground">{step.at ? dateTime(step.at) : '—'}</span>
        </li>
      ))}
    </ol>
  );
}

export function AddressBlock({ address, className }: { address: OrderAddress; className?: string }) {
  return (
    <address className={cn('not-italic text-sm', className)} data-testid="order-address">
      {addressLines(address).map((line) => (
        <span key={line} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}

/** The carrier and number, linked to the carrier's tracking page when we know it. */
export function Tracking({ order }: { order: OrderDetail }) {
  if (!order.carrier || !order.trackingNumber) return null;
  // 'usps' reads 'USPS'; a carrier typed before the list shows as it was typed.
  const carrier = carrierName(order.carrier);
  return (
    <p className="text-sm" data-testid="order-tracking">
      <span data-testid="order-carrier">{carrier}</span>{' '}
      {order.trackingUrl ? (
        <a
          href={order.trackingUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-mono text-primary underline-offset-4 hover:underline"
          data-testid="order-tracking-link"
        >
          {order.trackingNumber}
          <ExternalLink className="size-3" aria-hidden="true" />
          <span className="sr-only">(track with {carrier})</span>
        </a>
      ) : (
        <span className="font-mono">{order.trackingNumber}</span>
      )}
    </p>
  );
}

/** Buttons above a list of orders: all of them, or those of one status. */
export function OrderStatusFilter({
  status,
  onChange,
  testIdPrefix,
}: {
  status: OrderStatus | undefined;
  onChange: (status: OrderStatus | undefined) => void;
  /** `<prefix>-all`, `<prefix>-paid` … on the buttons. */
  testIdPrefix?: string;
}) {
  return (
    <fieldset className="mb-4 flex flex-wrap gap-2" aria-label="Filter by status">
      {[undefined, ...ORDER_STATUSES].map((value) => (
        <Button
          key={value ?? 'all'}
          size="sm"
          variant={status === value ? 'default' : 'outline'}
          aria-pressed={status === value}
          onClick={() => onChange(value)}
          data-testid={testIdPrefix ? `${testIdPrefix}-${value ?? 'all'}` : undefined}
        >
          {value ? ORDER_STATUS_LABELS[value] : 'All'}
        </Button>
      ))}
    </fieldset>
  );
}

/**
 * What a list of orders shows instead of its rows: skeletons while it loads, the failure, or its
 * empty state (for the chosen status, or at all). Null when there are rows to show.
 */
export function OrderListPlaceholder({
  pending,
  failed,
  count,
  status,
  noun,
  emptyDescription,
  testId,
}: {
  pending: boolean;
  failed: boolean;
  count: number;
  status: OrderStatus | undefined;
  /** 'sales' or 'orders'. */
  noun: string;
  emptyDescription: string;
  testId: string;
}): ReactNode {
  if (pending) {
    return (
      <div className="grid gap-3" role="status" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-28 w-full" />
        ))}
      </div>
    );
  }
  if (failed)
    return <p className="py-6 text-center text-muted-foreground">Your {noun} could not be loaded.</p>;
  if (count > 0) return null;
  const title = status
    ? `No ${ORDER_STATUS_LABELS[status].toLowerCase()} ${noun}`
    : `No ${noun[0]?.toUpperCase()}${noun.slice(1)} Yet`;
  return <EmptyState icon={ShoppingBag} title={title} description={emptyDescription} testId={testId} />;
}
