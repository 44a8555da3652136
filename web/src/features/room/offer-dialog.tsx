import { formatCents } from '@streamshop/contract/money.ts';
import {
  OFFER_FLOOR_PERCENT,
  OFFER_MAX_SECONDS,
  OFFER_MIN_SECONDS,
  offerFloorCents,
  type RoomProduct,
} from '@streamshop/contract/shop.ts';
import { BadgePercent } from 'lucide-react';
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
import {
  defaultOfferValues,
  isBelowFloor,
  type OfferField,
  type OfferFieldErrors,
  type OfferFormValues,
} from './offer-form.ts';

/** The seller starts a live offer on a pinned product: price, units and how long it runs. */
export function OfferDialog({
  product,
  pending,
  serverErrors,
  onSubmit,
  onClose,
}: {
  product: RoomProduct;
  pending: boolean;
  serverErrors: OfferFieldErrors;
  onSubmit: (values: OfferFormValues) => OfferFieldErrors | null;
  onClose: () => void;
}) {
  const [values, setValues] = useState(() => defaultOfferValues(product.priceCents, product.stock));
  const [errors, setErrors] = useState<OfferFieldErrors>({});
  const ids = { price: useId(), quantity: useId(), duration: useId(), confirm: useId() };
  const shownErrors = { ...serverErrors, ...errors };
  const floor = offerFloorCents(product.priceCents);
  const belowFloor = isBelowFloor(values, product.priceCents);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(onSubmit({ ...values, confirmBelowFloor: belowFloor && values.confirmBelowFloor }) ?? {});
  };
  const field = (name: OfferField, label: string, hint: string, props: Record<string, string | number>) => (
    <div className="grid gap-1.5">
      <Label htmlFor={ids[name]}>{label}</Label>
      <Input
        id={ids[name]}
        type="number"
        inputMode="decimal"
        value={values[name]}
        onChange={(event) => {
          const value = event.target.value;
          setValues((current) => ({ ...current, [name]: value }));
        }}
        aria-invalid={shownErrors[name] ? true : undefined}
        aria-describedby={`${ids[name]}-hint`}
        data-testid={`offer-${name}`}
        {...props}
      />
      {shownErrors[name] ? (
        <p id={`${ids[name]}-hint`} className="text-destructive text-sm" data-testid={`offer-${name}-error`}>
          {shownErrors[name]}
        </p>
      ) : (
        <p id={`${ids[name]}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent data-testid="offer-dialog">
        <DialogHeader>
          <DialogTitle>Start a live offer</DialogTitle>
          <DialogDescription>
            A time-limited price on {product.title} (regular {formatCents(product.priceCents)}). Everyone in
            the room sees the same countdown.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {field(
            'price',
            'Offer price ($)',
            `Below the regular price; at least ${formatCents(floor)} (${OFFER_FLOOR_PERCENT} %) unless you confirm.`,
            { min: 0.01, step: 0.01 },
          )}
          {belowFloor ? (
            <div className="flex items-start gap-2 rounded-md border border-destructive/50 p-3 text-sm">
              <input
                id={ids.confirm}
                type="checkbox"
                className="mt-0.5 size-4"
                checked={values.confirmBelowFloor}
                onChange={(event) => {
                  const checked = event.target.checked;
                  setValues((current) => ({ ...current, confirmBelowFloor: checked }));
                }}
                data-testid="offer-confirm-below-floor"
              />
              <Label htmlFor={ids.confirm} className="font-normal leading-snug">
                Yes, sell at less than {OFFER_FLOOR_PERCENT} % of the regular price ({formatCents(floor)}).
              </Label>
            </div>
          ) : null}
          <div className="grid grid-cols-2 gap-4">
            {field('quantity', 'Units at this price', `Up to ${product.stock} in stock.`, {
              min: 1,
              step: 1,
            })}
            {field('duration', 'Duration (seconds)', `${OFFER_MIN_SECONDS}–${OFFER_MAX_SECONDS} seconds.`, {
              min: OFFER_MIN_SECONDS,
              max: OFFER_MAX_SECONDS,
              step: 1,
            })}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending} data-testid="offer-submit">
              <BadgePercent aria-hidden="true" />
              Start offer
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
