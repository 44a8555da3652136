/**
 * A checkout's session opened when the buyer presses Pay, not before (the hold of a unit starts
 * then, docs/decisions/0006): the form shows the amount, checks the card, then asks for it.
 */
export interface SessionOnPay {
  /** What the buyer is shown and agrees to pay; Stripe's form is prepared for it. */
  amountCents: number;
  /**
   * Opens the session and answers its secret; null when the page shows something else instead
   * (sold out, a new total to agree to, an address to fix). The form is usable again then.
   */
  open: () => Promise<string | null>;
}

/** What both card forms (local and Stripe) take from the page that shows them. */
export interface PaymentFormProps {
  /** The secret from POST /api/create-subscription, or a checkout session opened on Pay. */
  clientSecret: string | SessionOnPay;
  submitLabel: string;
  /** The payment went through; the form stays disabled so it cannot be charged twice. */
  onSuccess: () => void;
  /** The provider refused; the form is usable again with the same secret. */
  onFailure: (message: string) => void;
  /**
   * 'setup' saves a card for later (the secret is a setup's: Stripe's SetupIntent, or the local
   * provider's) instead of paying; 'payment' by default.
   */
  mode?: 'payment' | 'setup';
}

/** Shown when a provider gives no reason of its own. */
export const GENERIC_PAYMENT_FAILURE = 'Your payment could not be completed. Please try again.';

/** The secret to pay with: given, or opened now (null: not now, see SessionOnPay.open). */
export async function secretToPay(source: PaymentFormProps['clientSecret']): Promise<string | null> {
  return typeof source === 'string' ? source : source.open();
}
