import { CARRIER_NAMES, CARRIERS, type Carrier } from '@streamshop/contract/carriers.ts';
import { type OrderDetail, shipOrderBodySchema } from '@streamshop/contract/orders.ts';
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
import { FieldError } from '../../components/ui/field-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { useOrderActionMutation } from '../../lib/api/orders.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { fieldErrorProps, fieldErrorsFromIssues } from '../../lib/form-errors.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';

const SHIP_LABELS = { carrier: 'Carrier', trackingNumber: 'Tracking number' } as const;
type ShipField = keyof typeof SHIP_LABELS;

/** The Sales tab's "Ship" dialog: the carrier (from the list) and tracking number of a paid order. */
export function ShipDialog({
  order,
  onOpenChange,
}: {
  order: OrderDetail | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [carrier, setCarrier] = useState<Carrier | ''>('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const fieldErrors = useFieldErrors(SHIP_LABELS);
  const { errors } = fieldErrors;
  const action = useOrderActionMutation();

  const close = (open: boolean) => {
    if (!open) {
      setCarrier('');
      setTrackingNumber('');
      fieldErrors.clearAll();
    }
    onOpenChange(open);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!order) return;
    const parsed = shipOrderBodySchema.safeParse({ carrier, trackingNumber });
    if (!parsed.success) {
      fieldErrors.show(fieldErrorsFromIssues(parsed.error.issues, SHIP_LABELS));
      return;
    }
    fieldErrors.clearAll();
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
          if (!fieldErrors.showServer(error)) {
            errorToast('Could not mark it shipped', errorMessage(error, 'Please try again.'));
          }
        },
      },
    );
  };

  const field = (name: ShipField) => ({
    id: `${id}-${name}`,
    name,
    ...fieldErrorProps(`${id}-${name}-error`, errors[name]),
  });

  return (
    <Dialog open={order !== null} onOpenChange={close}>
      <DialogContent data-testid="ship-dialog">
        <form ref={fieldErrors.formRef} onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Ship {order?.item.title ?? 'this order'}</DialogTitle>
            <DialogDescription>
              The buyer gets the carrier and tracking number by email and on their orders page.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-carrier`}>{SHIP_LABELS.carrier}</Label>
            <Select
              value={carrier}
              onValueChange={(value) => {
                setCarrier(value as Carrier);
                fieldErrors.clear('carrier');
              }}
            >
              <SelectTrigger {...field('carrier')} data-testid="ship-carrier">
                <SelectValue placeholder="Choose a carrier" />
              </SelectTrigger>
              <SelectContent>
                {CARRIERS.map((code) => (
                  <SelectItem key={code} value={code} data-testid={`ship-carrier-${code}`}>
                    {CARRIER_NAMES[code]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError id={`${id}-carrier-error`} message={errors.carrier} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-trackingNumber`}>{SHIP_LABELS.trackingNumber}</Label>
            <Input
              {...field('trackingNumber')}
              value={trackingNumber}
              onChange={(event) => {
                setTrackingNumber(event.target.value);
                fieldErrors.clear('trackingNumber');
              }}
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
