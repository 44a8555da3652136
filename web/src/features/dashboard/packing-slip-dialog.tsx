import { formatCents } from '@streamshop/contract/money.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { Printer } from 'lucide-react';
import { useEffect } from 'react';
import { AddressBlock, orderReference } from '../../components/order-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { formatDate } from '../../lib/format-date.ts';

/**
 * A packing slip to print and put in the parcel. While it is open, printing shows only the slip
 * (index.css: `body.printing-slip` hides the page and the dialog's chrome).
 */
export function PackingSlipDialog({
  order,
  onOpenChange,
}: {
  order: OrderDetail | null;
  onOpenChange: (open: boolean) => void;
}) {
  useEffect(() => {
    if (!order) return;
    document.body.classList.add('printing-slip');
    return () => document.body.classList.remove('printing-slip');
  }, [order]);

  return (
    <Dialog open={order !== null} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-xl print:static print:max-h-none print:w-full print:max-w-none print:translate-x-0 print:translate-y-0 print:border-0 print:bg-white print:text-black print:shadow-none"
        data-testid="packing-slip"
      >
        <DialogHeader>
          <DialogTitle>Packing slip</DialogTitle>
          <DialogDescription className="print:hidden">Print it and put it in the parcel.</DialogDescription>
        </DialogHeader>
        {order ? (
          <div className="grid gap-4 text-sm">
            <div className="flex justify-between gap-4">
              <div>
                <p className="text-muted-foreground text-xs uppercase tracking-wide print:text-black">
                  Ship to
                </p>
                {order.shippingAddress ? (
                  <AddressBlock address={order.shippingAddress} className="text-base" />
                ) : null}
              </div>
              <div className="text-right">
                <p className="font-mono" data-testid="slip-reference">
                  Order {orderReference(order)}
                </p>
                <p>{formatDate(order.createdAt)}</p>
                <p>From @{order.sellerHandle}</p>
              </div>
            </div>
            <table className="w-full border-collapse text-left">
              <thead>
                <tr className="border-border border-b">
                  <th className="py-1 font-medium">Item</th>
                  <th className="py-1 text-right font-medium">Qty</th>
                  <th className="py-1 text-right font-medium">Price</th>
                </tr>
              </thead>
              <tbody>
                <tr className="border-border border-b">
                  <td className="py-1">{order.item.title ?? 'Deleted product'}</td>
                  <td className="py-1 text-right">1</td>
                  <td className="py-1 text-right">{formatCents(order.amountCents - order.shippingCents)}</td>
                </tr>
                <tr>
                  <td className="py-1" colSpan={2}>
                    Shipping
                  </td>
                  <td className="py-1 text-right">{formatCents(order.shippingCents)}</td>
                </tr>
                <tr className="font-semibold">
                  <td className="py-1" colSpan={2}>
                    Total paid
                  </td>
                  <td className="py-1 text-right">{formatCents(order.amountCents)}</td>
                </tr>
              </tbody>
            </table>
            <p className="text-muted-foreground print:text-black">
              Thank you for buying from @{order.sellerHandle} on StreamShop.
            </p>
          </div>
        ) : null}
        <DialogFooter className="print:hidden">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button onClick={() => window.print()} data-testid="slip-print">
            <Printer aria-hidden="true" />
            Print
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
