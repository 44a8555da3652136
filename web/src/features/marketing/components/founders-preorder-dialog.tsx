import { newsletterPreorderBodySchema } from '@streamshop/contract/disc.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Minus, Plus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { cn } from '../../../lib/cn.ts';
import { errorToast } from '../../../lib/error-toast.ts';
import { useFormDialogFlow } from '../../../lib/use-form-dialog-flow.ts';
import { useNewsletterPreorderMutation } from '../api.ts';
import {
  discFormErrorMessage,
  parseQuantity,
  priceTierRows,
  totalPrice,
  unitPriceLabel,
} from '../form-helpers.ts';
import { DISC_TOAST_MS, RESERVED_VIEW_MS } from '../timings.ts';
import { DiscArt } from './disc-art.tsx';

/**
 * 'Limited Founders Batch Edition': pick a quantity (price per disc from the tier table), leave a
 * name and email, and the batch is reserved; the invoice follows by email. The reserved view stays
 * 5 s, then the modal closes and resets.
 */
export function FoundersPreorderDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const ids = { quantity: useId(), name: useId(), email: useId() };
  const [quantityText, setQuantityText] = useState('1');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const preorder = useNewsletterPreorderMutation();
  // The success view shows the reserved order's total.
  const {
    answer: reservedTotal,
    succeed,
    handleOpenChange,
  } = useFormDialogFlow<string>({
    successViewMs: RESERVED_VIEW_MS,
    onOpenChange,
    reset: () => {
      setQuantityText('1');
      setName('');
      setEmail('');
      setFieldError(null);
      preorder.reset();
    },
  });

  const quantity = parseQuantity(quantityText);
  const total = totalPrice(quantity);

  const step = (delta: number) => setQuantityText(String(Math.max(1, quantity + delta)));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (preorder.isPending) return;
    const body = { name: name.trim(), email: email.trim(), quantity, totalPrice: total };
    const checked = newsletterPreorderBodySchema.safeParse(body);
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? 'Please check the form.');
      return;
    }
    setFieldError(null);
    preorder.mutate(body, {
      onSuccess: (answer) => succeed(answer?.totalPrice ?? total),
      onError: (error) =>
        errorToast('Pre-order failed', discFormErrorMessage(error, 'preorder'), DISC_TOAST_MS),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="founders-dialog">
        {reservedTotal ? (
          <div
            className="ss-pop grid justify-items-center gap-3 py-8 text-center"
            data-testid="founders-reserved"
          >
            <p className="font-black text-6xl text-emerald-400 italic tracking-tight">RESERVED!</p>
            <DialogTitle className="text-3xl">Order Reserved!</DialogTitle>
            <DialogDescription className="max-w-md text-base">
              A full invoice will be emailed to you within 3-5 business days. We'll let you know when your
              discs are ready to ship.
            </DialogDescription>
            <p className="text-lg">
              Total order value:{' '}
              <strong data-testid="founders-reserved-total">
                {formatCents(Math.round(Number(reservedTotal) * 100))}
              </strong>
            </p>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-5">
            <DialogHeader>
              <DialogTitle className="text-2xl">Limited Founders Batch Edition</DialogTitle>
              <DialogDescription>
                The first pressing of the Stream Disc, numbered and shipped before general release. Reserve
                now, pay when your invoice arrives.
              </DialogDescription>
            </DialogHeader>

            <div className="grid gap-5 sm:grid-cols-[160px_1fr]">
              <DiscArt className="mx-auto max-w-[160px]" title="Founders Batch Stream Disc" />
              <div className="grid content-start gap-3">
                <Label htmlFor={ids.quantity}>Quantity</Label>
                <div className="flex items-center gap-2">
                  <Button
                    variant="outline"
                    size="icon"
                    aria-label="One fewer disc"
                    onClick={() => step(-1)}
                    disabled={quantity <= 1}
                  >
                    <Minus aria-hidden="true" />
                  </Button>
                  <Input
                    id={ids.quantity}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    className="w-24 text-center"
                    value={quantityText}
                    onChange={(event) => setQuantityText(event.target.value)}
                    onBlur={() => setQuantityText(String(quantity))}
                    data-testid="founders-quantity"
                  />
                  <Button variant="outline" size="icon" aria-label="One more disc" onClick={() => step(1)}>
                    <Plus aria-hidden="true" />
                  </Button>
                </div>
                <dl className="grid grid-cols-2 gap-2 text-sm">
                  <dt className="text-muted-foreground">Price per disc</dt>
                  <dd className="text-right font-medium" data-testid="founders-unit-price">
                    {unitPriceLabel(quantity)}
                  </dd>
                  <dt className="text-muted-foreground">Total</dt>
                  <dd className="text-right font-bold text-lg" data-testid="founders-total">
                    ${total}
                  </dd>
                </dl>
              </div>
            </div>

            <table className="w-full overflow-hidden rounded-lg border border-border text-sm">
              <caption className="pb-2 text-left font-medium">Bulk pricing</caption>
              <thead className="bg-muted text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    Discs
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Price per disc
                  </th>
                </tr>
              </thead>
              <tbody>
                {priceTierRows.map((row) => {
                  const active =
                    quantity >= row.minQuantity && (row.maxQuantity === null || quantity <= row.maxQuantity);
                  return (
                    <tr
                      key={row.range}
                      className={cn('border-border border-t', active && 'bg-primary/15 font-semibold')}
                      aria-current={active ? 'true' : undefined}
                    >
                      <td className="px-3 py-2">{row.range}</td>
                      <td className="px-3 py-2 text-right">
                        {row.price}
                        {row.maxQuantity === null ? (
                          <span className="text-muted-foreground"> (cost price)</span>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>

            <div className="grid gap-3 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={ids.name}>Full name</Label>
                <Input
                  id={ids.name}
                  required
                  autoComplete="name"
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  data-testid="founders-name"
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={ids.email}>Email</Label>
                <Input
                  id={ids.email}
                  type="email"
                  required
                  autoComplete="email"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  data-testid="founders-email"
                />
              </div>
            </div>
            {fieldError ? (
              <p role="alert" className="text-red-400 text-sm" data-testid="founders-error">
                {fieldError}
              </p>
            ) : null}
            <Button type="submit" size="lg" disabled={preorder.isPending} data-testid="founders-submit">
              {preorder.isPending
                ? 'Reserving...'
                : `Reserve ${quantity} ${quantity === 1 ? 'Disc' : 'Discs'}`}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
