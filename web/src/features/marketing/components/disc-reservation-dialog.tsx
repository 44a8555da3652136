import { DISC_DEPOSIT_CENTS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Lock } from 'lucide-react';
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
import { errorToast } from '../../../lib/error-toast.ts';
import { useDiscReservationMutation } from '../api.ts';
import { discFormErrorMessage, submittedEmail } from '../form-helpers.ts';
import { DISC_TOAST_MS } from '../timings.ts';

/**
 * The $1 reservation (spec: disc pre-order form): name, email and an optional phone; on success
 * the browser goes to the payment page, which returns to /stream-disc?preorder=success|cancelled.
 */
export function DiscReservationDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const ids = { name: useId(), email: useId(), phone: useId() };
  const [form, setForm] = useState({ name: '', email: '', phone: '' });
  const reserve = useDiscReservationMutation();
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = submittedEmail(form.email);
    const name = form.name.trim();
    if (!name || !email || reserve.isPending) return;
    reserve.mutate(
      { name, email, phone: form.phone.trim() || undefined },
      {
        onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
        onError: (error) =>
          errorToast('Pre-order Failed', discFormErrorMessage(error, 'order'), DISC_TOAST_MS),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="reservation-dialog">
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Reserve your Stream Disc</DialogTitle>
            <DialogDescription>
              A {formatCents(DISC_DEPOSIT_CENTS)} deposit holds your disc from the first batch. The full
              invoice is emailed in 3-5 business days, and you pay the rest when your disc is ready to ship.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={ids.name}>Name</Label>
            <Input id={ids.name} required autoComplete="name" value={form.name} onChange={set('name')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.email}>Email</Label>
            <Input
              id={ids.email}
              type="email"
              required
              autoComplete="email"
              placeholder="you@example.com"
              value={form.email}
              onChange={set('email')}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.phone}>Phone (optional)</Label>
            <Input id={ids.phone} type="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} />
          </div>
          <Button type="submit" size="lg" disabled={reserve.isPending} data-testid="reservation-submit">
            <Lock aria-hidden="true" />
            {reserve.isPending ? 'Processing...' : 'Reserve for $1'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
