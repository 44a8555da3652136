import { formatCents } from '@streamshop/contract/money.ts';
import { AlertCircle } from 'lucide-react';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import type { CheckoutSessionState } from '../../lib/checkout-session.ts';
import { serverAddressErrors } from '../shipping-address/address-form.ts';

/** Why Pay did not go on to the card: the unit was taken, a new total, a limit, the provider. */
export function PayNotice({ checkout, shownCents }: { checkout: CheckoutSessionState; shownCents: number }) {
  const { error, totalChanged } = checkout;
  if (error && Object.keys(serverAddressErrors(extractFieldErrors(error))).length === 0) {
    return (
      <p className="flex items-start gap-2 text-sm" role="alert" data-testid="checkout-pay-error">
        <AlertCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        {errorMessage(error, 'Secure payment could not be set up. Please try again.')}
      </p>
    );
  }
  if (totalChanged) {
    return (
      <p className="text-sm" role="alert" data-testid="checkout-total-changed">
        The total is now {formatCents(shownCents)}. Check it and press Pay again.
      </p>
    );
  }
  return null;
}
