import type { OrderStatus } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Loader2, PackageCheck, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
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
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { ordersQueryOptions, useOrderActionMutation } from '../../lib/api/orders.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';

/** /orders: what the signed-in buyer bought, each with its timeline and tracking (ADR 0016). */
export function OrdersPage() {
  usePageTitle('Your orders');
  const [status, setStatus] = useState<OrderStatus | undefined>(undefined);
  const purchases = useInfiniteQuery(ordersQueryOptions('buyer', status));
  const [cancelling, setCancelling] = useState<OrderDetail | null>(null);
  const action = useOrderActionMutation();
  const orders = purchases.data?.pages.flatMap((page) => page.orders) ?? [];

  const cancel = () => {
    if (!cancelling) return;
    action.mutate(
      { kind: 'cancel', id: cancelling.id },
      {
        onSuccess: () => {
          toast({
            title: 'Order cancelled',
            description: `${formatCents(cancelling.amountCents)} goes back to your card.`,
          });
          setCancelling(null);
        },
        onError: (error) => errorToast('Could not cancel', errorMessage(error, 'Please try again.')),
      },
    );
  };

  const deliver = (order: OrderDetail) =>
    action.mutate(
      { kind: 'deliver', id: order.id },
      {
        onSuccess: () => toast({ title: 'Marked delivered', description: 'Enjoy it!' }),
        onError: (error) =>
          errorToast('Could not mark it delivered', errorMessage(error, 'Please try again.')),
      },
    );

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="mb-6 font-bold text-3xl tracking-tight">Your orders</h1>
      <OrderStatusFilter status={status} onChange={setStatus} />
      <OrderListPlaceholder
        pending={purchases.isPending}
        failed={purchases.isError}
        count={orders.length}
        status={status}
        noun="orders"
        emptyDescription="What you buy shows up here, with its tracking."
        testId="orders-empty"
      />
      {orders.length === 0 ? null : (
        <ul className="grid gap-3" aria-label="Your orders">
          {orders.map((order) => (
            <li key={order.id}>
              <Card className="grid gap-4 p-4 sm:grid-cols-[1fr_auto]" data-testid="purchase">
                <div className="grid gap-2">
                  <OrderHeading order={order} level="h2" testId="purchase-title" />
                  <p className="text-muted-foreground text-sm">
                    <span className="font-mono">{orderReference(order)}</span> · from{' '}
                    <Link to={`/s/${order.sellerHandle}`} className="text-foreground hover:underline">
                      @{order.sellerHandle}
                    </Link>
                  </p>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <OrderTimeline order={order} />
                    <div className="grid content-start gap-2">
                      <Tracking order={order} />
                      {order.shippingAddress ? <AddressBlock address={order.shippingAddress} /> : null}
                    </div>
                  </div>
                </div>
                <div className="flex flex-col items-start gap-2 sm:items-end">
                  <p className="font-semibold">{formatCents(order.amountCents)}</p>
                  {order.shippingCents > 0 ? (
                    <p className="text-muted-foreground text-xs">
                      incl. {formatCents(order.shippingCents)} shipping
                    </p>
                  ) : null}
                  <div className="flex flex-wrap gap-2">
                    {order.status === 'paid' ? (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => setCancelling(order)}
                        data-testid="purchase-cancel"
                      >
                        <XCircle aria-hidden="true" />
                        Cancel
                      </Button>
                    ) : null}
                    {order.status === 'shipped' ? (
                      <Button
                        size="sm"
                        onClick={() => deliver(order)}
                        disabled={action.isPending && action.variables?.id === order.id}
                        data-testid="purchase-deliver"
                      >
                        <PackageCheck aria-hidden="true" />
                        Mark delivered
                      </Button>
                    ) : null}
                  </div>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {purchases.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="outline"
            onClick={() => purchases.fetchNextPage()}
            disabled={purchases.isFetchingNextPage}
          >
            {purchases.isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Load more
          </Button>
        </div>
      ) : null}
      <p className="mt-8 text-center text-muted-foreground text-sm">
        Looking for what you sold?{' '}
        <Link
          to="/dashboard?tab=sales"
          className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}
        >
          Open your sales
        </Link>
      </p>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title="Cancel this order?"
        description={`You get ${cancelling ? formatCents(cancelling.amountCents) : 'your money'} back on your card, and @${cancelling?.sellerHandle ?? 'the seller'} will not ship it.`}
        cancelLabel="Keep the order"
        confirmLabel="Cancel order"
        pending={action.isPending}
        onConfirm={cancel}
        testId="cancel-dialog"
        confirmTestId="cancel-confirm"
      />
    </div>
  );
}
