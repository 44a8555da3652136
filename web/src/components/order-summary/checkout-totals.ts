import { PROCESSING_FEE_CENTS } from '@streamshop/contract/constants.ts';

export interface CheckoutTotals {
  subtotalCents: number;
  processingFeeCents: number;
  totalCents: number;
}

/**
 * The summary's lines from what the server will charge (the session's amountCents), so the total
 * shown is always the amount charged, even if the price changed since the product was loaded.
 */
export function checkoutTotals(amountCents: number): CheckoutTotals {
  return {
    subtotalCents: amountCents - PROCESSING_FEE_CENTS,
    processingFeeCents: PROCESSING_FEE_CENTS,
    totalCents: amountCents,
  };
}
