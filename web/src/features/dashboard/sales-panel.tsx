import type { OrderStatus } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { KNOWN_CARRIERS, type OrderDetail, shipOrderBodySchema } from '@streamshop/contract/orders.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, Loader2, PackageCheck, Printer, Truck, Undo2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
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
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { allOrders, ordersQueryOptions, useOrderActionMutation } from '../../lib/api/orders.ts';
import { cn } from '../../lib/cn.ts';
import { downloadText, toCsv } from '../../lib/csv.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { PackingSlipDialog } from './packing-slip-dialog.tsx';

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

function ShipDialog({
  order,
  onOpenChange,
}: {
  order: OrderDetail | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useOrderActionMutation();

  const close = (open: boolean) => {
    if (!open) {
      setCarrier('');
      setTrackingNumber('');
      setErrors({});
    }
    onOpenChange(open);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!order) return;
    const parsed = shipOrderBodySchema.safeParse({ carrier, trackingNumber });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    setErrors({});
    action.mutate(
      { kind: 'ship', id: order.id, body: parsed.data },
      {
        onSuccess: () => {
          toast({
            title: 'Marked shipped',
            description: `@${order.buyerHandle} gets the tracking number by email.`,
          });
          close(false);
        },
        onError: (error) => {
          const fields = extractFieldErrors(error);
          if (Object.keys(fields).length > 0) setErrors(fields);
          else errorToast('Could not mark it shipped', errorMessage(error, 'Please try again.'));
        },
      },
    );
  };

  const field = (name: 'carrier' | 'trackingNumber') => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <Dialog open={order !== null} onOpenChange={close}>
      <DialogContent data-testid="ship-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Ship {order?.item.title ?? 'this order'}</DialogTitle>
            <DialogDescription>
              The buyer gets the carrier and tracking number by email and on their orders page.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-carrier`}>Carrier</Label>
            <Input
              {...field('carrier')}
              list={`${id}-carriers`}
              value={carrier}
              onChange={(event) => setCarrier(event.target.value)}
              placeholder="USPS, UPS, FedEx, DHL…"
              autoComplete="off"
              data-testid="ship-carrier"
            />
            <datalist id={`${id}-carriers`}>
              {KNOWN_CARRIERS.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <FieldError id={`${id}-carrier-error`} message={errors.carrier} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-trackingNumber`}>Tracking number</Label>
            <Input
              {...field('trackingNumber')}
              value={trackingNumber}
              onChange={(event) => setTrackingNumber(event.target.value)}
              autoComplete="off"
              className="font-mono"
              data-testid="ship-tracking"
            />
            <FieldError id={`${id}-trackingNumber-error`} message={errors.trackingNumber} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={action.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={action.isPending} data-testid="ship-submit">
              {action.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Truck aria-hidden="true" />
              )}
              Mark shipped
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className={cn('text-destructive text-sm')} role="alert">
      {message}
    </p>
  ) : null;
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
      order.carrier,
      order.trackingNumber,
      order.shippedAt,
      order.deliveredAt,
      order.cancelledAt,
      order.refundedAt,
    ]),
  );
}
