import { PROCESSING_FEE_CENTS } from '@streamshop/contract/constants.ts';

export interface CheckoutTotals {
  subtotalCents: number;
  processingFeeCents: number;
  shippingCents: number;
  totalCents: number;
}

/**
 * The summary's lines from what the server will charge (the session's amountCents and the
 * shipping in it), so the total shown is always the amount charged, even if the price changed
 * since the product was loaded.
 */
export function checkoutTotals(session: { amountCents: number; shippingCents?: number }): CheckoutTotals {
  const shippingCents = session.shippingCents ?? 0;
  return {
    subtotalCents: session.amountCents - PROCESSING_FEE_CENTS - shippingCents,
    processingFeeCents: PROCESSING_FEE_CENTS,
    shippingCents,
    totalCents: session.amountCents,
  };
}

/** Before a session is open: the product's own price and shipping (a live offer may lower it). */
export function estimatedTotals(product: { priceCents: number; shippingCents?: number }): CheckoutTotals {
  return checkoutTotals({
    amountCents: product.priceCents + (product.shippingCents ?? 0),
    shippingCents: product.shippingCents ?? 0,
  });
}
