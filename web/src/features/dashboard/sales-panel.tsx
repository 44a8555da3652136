import { carrierName } from '@streamshop/contract/carriers.ts';
import type { OrderStatus } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, Loader2, PackageCheck, Printer, Truck, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import {
  AddressBlock,
  OrderHeading,
  OrderListPlaceholder,
  OrderStatusFilter,
  OrderTimeline,
  orderReference,
  Tracking,
} from '../../components/order-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { allOrders, ordersQueryOptions, useOrderActionMutation } from '../../lib/api/orders.ts';
import { downloadText, toCsv } from '../../lib/csv.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { PackingSlipDialog } from './packing-slip-dialog.tsx';
import { ShipDialog } from './ship-dialog.tsx';

/** The dashboard's Sales tab (ADR 0016): what sold, to whom, where it goes, and what to do next. */
export function SalesPanel() {
  const [status, setStatus] = useState<OrderStatus | undefined>(undefined);
  const sales = useInfiniteQuery(ordersQueryOptions('seller', status));
  const [shipping, setShipping] = useState<OrderDetail | null>(null);
  const [refunding, setRefunding] = useState<OrderDetail | null>(null);
  const [slip, setSlip] = useState<OrderDetail | null>(null);
  const [exporting, setExporting] = useState(false);
  const action = useOrderActionMutation();
  const orders = sales.data?.pages.flatMap((page) => page.orders) ?? [];

  const deliver = (order: OrderDetail) =>
    action.mutate(
      { kind: 'deliver', id: order.id },
      {
        onSuccess: () => toast({ title: 'Marked delivered', description: order.item.title ?? '' }),
        onError: (error) =>
          errorToast('Could not mark it delivered', errorMessage(error, 'Please try again.')),
      },
    );

  const refund = () => {
    if (!refunding) return;
    action.mutate(
      { kind: 'refund', id: refunding.id },
      {
        onSuccess: () => {
          toast({
            title: 'Refunded',
            description: `${formatCents(refunding.amountCents)} goes back to @${refunding.buyerHandle}.`,
          });
          setRefunding(null);
        },
        onError: (error) => errorToast('Could not refund', errorMessage(error, 'Please try again.')),
      },
    );
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await allOrders('seller');
      downloadText(`sales-${new Date().toISOString().slice(0, 10)}.csv`, salesCsv(all));
    } catch (error) {
      errorToast('Could not export your sales', errorMessage(error, 'Please try again.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-semibold text-xl">Sales</h2>
        <Button variant="outline" onClick={exportCsv} disabled={exporting} data-testid="sales-export">
          {exporting ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Download aria-hidden="true" />
          )}
          Export CSV
        </Button>
      </div>
      <OrderStatusFilter status={status} onChange={setStatus} testIdPrefix="sales-filter" />
      <OrderListPlaceholder
        pending={sales.isPending}
        failed={sales.isError}
        count={orders.length}
        status={status}
        noun="sales"
        emptyDescription={status ? 'Pick another status to see more.' : 'Your sales will show up here.'}
        testId="sales-empty"
      />
      {orders.length === 0 ? null : (
        <ul className="grid gap-3" aria-label="Your sales">
          {orders.map((order) => (
            <SaleRow
              key={order.id}
              order={order}
              busy={action.isPending && action.variables?.id === order.id}
              onShip={() => setShipping(order)}
              onRefund={() => setRefunding(order)}
              onDeliver={() => deliver(order)}
              onSlip={() => setSlip(order)}
            />
          ))}
        </ul>
      )}
      {sales.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" onClick={() => sales.fetchNextPage()} disabled={sales.isFetchingNextPage}>
            {sales.isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Load more
          </Button>
        </div>
      ) : null}

      <ShipDialog order={shipping} onOpenChange={(open) => !open && setShipping(null)} />
      <ConfirmDialog
        open={refunding !== null}
        onOpenChange={(open) => !open && setRefunding(null)}
        title={`Refund ${refunding ? formatCents(refunding.amountCents) : ''} to @${refunding?.buyerHandle ?? ''}?`}
        description="The whole amount, shipping included, goes back to the buyer's card, the unit returns to your stock, and it comes out of your balance. This cannot be undone."
        cancelLabel="Keep the sale"
        confirmLabel="Refund"
        pending={action.isPending}
        onConfirm={refund}
        testId="refund-dialog"
        confirmTestId="refund-confirm"
      />
      <PackingSlipDialog order={slip} onOpenChange={(open) => !open && setSlip(null)} />
    </>
  );
}

function SaleRow({
  order,
  busy,
  onShip,
  onRefund,
  onDeliver,
  onSlip,
}: {
  order: OrderDetail;
  busy: boolean;
  onShip: () => void;
  onRefund: () => void;
  onDeliver: () => void;
  onSlip: () => void;
}) {
  const ships = order.item.fulfillment === 'ship';
  const open = order.status !== 'cancelled' && order.status !== 'refunded';
  return (
    <li>
      <Card className="grid gap-4 p-4 sm:grid-cols-[1fr_auto]" data-testid="sale">
        <div className="grid gap-2">
          <OrderHeading order={order} level="h3" testId="sale-title" />
          <p className="text-muted-foreground text-sm">
            <span className="font-mono">{orderReference(order)}</span> · {formatDate(order.createdAt)} · to{' '}
            <span className="text-foreground" data-testid="sale-buyer">
              @{order.buyerHandle}
            </span>
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            {order.shippingAddress ? (
              <AddressBlock address={order.shippingAddress} />
            ) : (
              <p className="text-muted-foreground text-sm">
                {order.item.fulfillment === 'pickup' ? 'Picked up' : 'Digital'}: nothing to ship
              </p>
            )}
            <div className="grid gap-1">
              <Tracking order={order} />
              <OrderTimeline order={order} />
            </div>
          </div>
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <p className="font-semibold" data-testid="sale-amount">
            {formatCents(order.amountCents)}
          </p>
          {order.shippingCents > 0 ? (
            <p className="text-muted-foreground text-xs">incl. {formatCents(order.shippingCents)} shipping</p>
          ) : null}
          <div className="flex flex-wrap gap-2 sm:justify-end">
            {order.status === 'paid' && ships ? (
              <Button size="sm" onClick={onShip} disabled={busy} data-testid="sale-ship">
                <Truck aria-hidden="true" />
                Ship
              </Button>
            ) : null}
            {order.status === 'paid' && !ships ? (
              <Button size="sm" onClick={onDeliver} disabled={busy} data-testid="sale-deliver">
                <PackageCheck aria-hidden="true" />
                Mark delivered
              </Button>
            ) : null}
            {ships && order.shippingAddress ? (
              <Button size="sm" variant="outline" onClick={onSlip} data-testid="sale-slip">
                <Printer aria-hidden="true" />
                Packing slip
              </Button>
            ) : null}
            {open ? (
              <Button size="sm" variant="ghost" onClick={onRefund} disabled={busy} data-testid="sale-refund">
                <Undo2 aria-hidden="true" />
                Refund
              </Button>
            ) : null}
          </div>
        </div>
      </Card>
    </li>
  );
}

/** Every sale as a spreadsheet row (cells that look like formulas are neutralised in toCsv). */
export function salesCsv(orders: OrderDetail[]): string {
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  return toCsv(
    [
      'order',
      'date',
      'status',
      'item',
      'buyer',
      'amount',
      'shipping',
      'name',
      'line1',
      'line2',
      'city',
      'region',
      'postal_code',
      'country',
      'carrier',
      'tracking_number',
      'shipped_at',
      'delivered_at',
      'cancelled_at',
      'refunded_at',
    ],
    orders.map((order) => [
      orderReference(order),
      order.createdAt,
      order.status,
      order.item.title,
      order.buyerHandle,
      dollars(order.amountCents),
      dollars(order.shippingCents),
      order.shippingAddress?.name,
      order.shippingAddress?.line1,
      order.shippingAddress?.line2,
      order.shippingAddress?.city,
      order.shippingAddress?.region,
      order.shippingAddress?.postalCode,
      order.shippingAddress?.country,
      carrierName(order.carrier),
      order.trackingNumber,
      order.shippedAt,
      order.deliveredAt,
      order.cancelledAt,
      order.refundedAt,
    ]),
  );
}
