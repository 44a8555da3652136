/** What both card forms (local and Stripe) take from the page that shows them. */
export interface PaymentFormProps {
  /** The session's secret from POST /api/checkout/:id or POST /api/create-subscription. */
  clientSecret: string;
  submitLabel: string;
  /** The payment went through; the form stays disabled so it cannot be charged twice. */
  onSuccess: () => void;
  /** The provider refused; the form is usable again with the same secret. */
  onFailure: (message: string) => void;
}

/** Shown when a provider gives no reason of its own. */
export const GENERIC_PAYMENT_FAILURE = 'Your payment could not be completed. Please try again.';
