import { DISC_ORDER_MAX_QUANTITY } from '@streamshop/contract/constants.ts';
import { type DiscOrderBody, discOrderBodySchema } from '@streamshop/contract/disc.ts';
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
import { toast } from '../../../components/ui/use-toast.ts';
import { errorToast } from '../../../lib/error-toast.ts';
import { useFormDialogFlow } from '../../../lib/use-form-dialog-flow.ts';
import { useDiscOrderMutation } from '../api.ts';
import { discFormErrorMessage, parseOrderQuantity } from '../form-helpers.ts';
import { DISC_TOAST_MS, SUCCESS_VIEW_MS } from '../timings.ts';

type Field = Exclude<keyof DiscOrderBody, 'quantity'>;

const emptyForm: Record<Field, string> = {
  name: '',
  email: '',
  phone: '',
  company: '',
  shippingAddress: '',
  city: '',
  state: '',
  zipCode: '',
  country: 'US',
};

const fields: {
  key: Field;
  label: string;
  type?: string;
  autoComplete: string;
  optional?: boolean;
  wide?: boolean;
}[] = [
  { key: 'name', label: 'Full name', autoComplete: 'name' },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { key: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', optional: true },
  { key: 'company', label: 'Company', autoComplete: 'organization', optional: true },
  { key: 'shippingAddress', label: 'Shipping address', autoComplete: 'street-address', wide: true },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'state', label: 'State/Province', autoComplete: 'address-level1' },
  { key: 'zipCode', label: 'ZIP/Postal code', autoComplete: 'postal-code' },
  { key: 'country', label: 'Country', autoComplete: 'country' },
];

/**
 * The full 'Order Stream Disc' form (spec section 3). Checked with the contract's schema before it
 * is sent; success shows 'BOOM!' for 3 s, closes, and toasts 'Order Received!'.
 */
export function DiscOrderDialog({
  open,
  onOpenChange,
  edition,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shown in the description when ordering from the music or film page. */
  edition?: string;
}) {
  const formId = useId();
  const [form, setForm] = useState(emptyForm);
  const [quantityText, setQuantityText] = useState('1');
  const [errors, setErrors] = useState<Partial<Record<keyof DiscOrderBody, string>>>({});
  const order = useDiscOrderMutation();
  const {
    answer: succeeded,
    succeed,
    handleOpenChange,
  } = useFormDialogFlow<true>({
    successViewMs: SUCCESS_VIEW_MS,
    onOpenChange,
    reset: () => {
      setForm(emptyForm);
      setQuantityText('1');
      setErrors({});
      order.reset();
    },
  });
  const quantity = parseOrderQuantity(quantityText);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (order.isPending) return;
    const checked = discOrderBodySchema.safeParse({ ...form, quantity });
    if (!checked.success) {
      const found: Partial<Record<keyof DiscOrderBody, string>> = {};
      for (const issue of checked.error.issues) {
        const key = issue.path[0] as keyof DiscOrderBody;
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    order.mutate(checked.data, {
      onSuccess: () =>
        succeed(true, () =>
          toast({
            title: 'Order Received!',
            description: "We'll contact you soon with order details and payment info.",
            duration: DISC_TOAST_MS,
          }),
        ),
      onError: (error) => errorToast('Order Failed', discFormErrorMessage(error, 'order'), DISC_TOAST_MS),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="order-dialog">
        {succeeded ? (
          <div
            className="ss-pop grid justify-items-center gap-2 py-8 text-center"
            data-testid="order-success"
          >
            <p className="bg-gradient-to-r from-orange-300 via-pink-400 to-purple-400 bg-clip-text font-black text-6xl text-transparent italic tracking-tight">
              BOOM!
            </p>
            <DialogTitle className="text-3xl">Order Received!</DialogTitle>
            <DialogDescription className="text-base">
              We'll contact you soon with order details and payment info! 🚀
            </DialogDescription>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-5">
            <DialogHeader>
              <DialogTitle className="text-2xl">Order Stream Disc</DialogTitle>
              <DialogDescription>
                {edition ? `${edition}: ` : ''}
                Tell us where the discs should go. No payment now: we confirm the run, the artwork and the
                price tier with you first.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-4 sm:grid-cols-2">
              {fields.map((field) => {
                const id = `${formId}-${field.key}`;
                const error = errors[field.key];
                return (
                  <div key={field.key} className={field.wide ? 'grid gap-2 sm:col-span-2' : 'grid gap-2'}>
                    <Label htmlFor={id}>
                      {field.label}
                      {field.optional ? (
                        <span className="font-normal text-muted-foreground"> (optional)</span>
                      ) : null}
                    </Label>
                    <Input
                      id={id}
                      type={field.type ?? 'text'}
                      autoComplete={field.autoComplete}
                      required={!field.optional && field.key !== 'country'}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      value={form[field.key]}
                      onChange={(event) =>
                        setForm((current) => ({ ...current, [field.key]: event.target.value }))
                      }
                      data-testid={`order-${field.key}`}
                    />
                    {error ? (
                      <p
                        id={`${id}-error`}
                        className="text-red-400 text-xs"
                        data-testid={`order-${field.key}-error`}
                      >
                        {error}
                      </p>
                    ) : null}
                  </div>
                );
              })}
              <div className="grid gap-2">
                <Label htmlFor={`${formId}-quantity`}>Quantity</Label>
                <Input
                  id={`${formId}-quantity`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={DISC_ORDER_MAX_QUANTITY}
                  value={quantityText}
                  onChange={(event) => setQuantityText(event.target.value)}
                  onBlur={() => setQuantityText(String(quantity))}
                  data-testid="order-quantity"
                />
                <p className="text-muted-foreground text-xs">1 to {DISC_ORDER_MAX_QUANTITY} discs</p>
              </div>
            </div>
            <Button type="submit" size="lg" disabled={order.isPending} data-testid="order-submit">
              {order.isPending ? 'Processing Order...' : 'Place Order'}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
