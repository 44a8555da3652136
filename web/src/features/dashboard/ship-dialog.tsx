import { KNOWN_CARRIERS, type OrderDetail, shipOrderBodySchema } from '@streamshop/contract/orders.ts';
import { Loader2, Truck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
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
import { useOrderActionMutation } from '../../lib/api/orders.ts';
import { cn } from '../../lib/cn.ts';
import { errorToast } from '../../lib/error-toast.ts';

/** The Sales tab's "Ship" dialog: the carrier and tracking number of a paid order that ships. */
export function ShipDialog({
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
