import { DISC_ORDER_MAX_QUANTITY } from '@streamshop/contract/constants.ts';
import {
  BETA_DUPLICATE_MESSAGE,
  GENERIC_FORM_ERROR_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  PREORDER_DUPLICATE_MESSAGE,
} from '@streamshop/contract/disc.ts';
import { discTotalPrice, discUnitPriceCents, formatCents } from '@streamshop/contract/money.ts';
import { extractServerMessage, parseApiError } from '../../lib/api/client.ts';

/**
 * Quantity typed into a number field: non-numeric becomes 1 (spec section 5), fractions are
 * dropped, and the result is kept between 1 and `max`.
 */
export function parseQuantity(raw: string | number, max = Number.POSITIVE_INFINITY): number {
  const value = typeof raw === 'number' ? raw : Number.parseInt(raw, 10);
  if (!Number.isFinite(value)) return 1;
  return clampQuantity(Math.trunc(value), max);
}

export function clampQuantity(quantity: number, max = Number.POSITIVE_INFINITY): number {
  return Math.min(Math.max(quantity, 1), max);
}

/** The disc order form's quantity: 1 to 1000, non-numeric becomes 1. */
export const parseOrderQuantity = (raw: string | number) => parseQuantity(raw, DISC_ORDER_MAX_QUANTITY);

/** An email as submitted: trimmed, or null when blank, in which case nothing is sent. */
export function submittedEmail(raw: string): string | null {
  const email = raw.trim();
  return email ? email : null;
}

/** Price per disc for a quantity, in dollars: 10 -> "$3.50". */
export const unitPriceLabel = (quantity: number) => formatCents(discUnitPriceCents(quantity));

/** Total for a quantity as the request's string: 10 -> "35.00". */
export const totalPrice = (quantity: number) => discTotalPrice(quantity);

// The page's price table reads price-tiers.ts, which stays clear of zod (the forms' chunk).
export { priceTierRows } from './price-tiers.ts';

export type DiscFormKind = 'beta' | 'preorder' | 'order';

const conflictMessages: Record<DiscFormKind, string> = {
  beta: BETA_DUPLICATE_MESSAGE,
  preorder: PREORDER_DUPLICATE_MESSAGE,
  order: GENERIC_FORM_ERROR_MESSAGE,
};

/**
 * Spec section 8: the `message` of the server's JSON after the `NNN: ` prefix; when there is
 * none, 409 and 400 get the form's fixed texts and anything else a generic one.
 */
export function discFormErrorMessage(error: unknown, kind: DiscFormKind): string {
  const message = extractServerMessage(error);
  if (message) return message;
  const { status } = parseApiError(error);
  if (status === 409) return conflictMessages[kind];
  if (status === 400) return INVALID_EMAIL_MESSAGE;
  return GENERIC_FORM_ERROR_MESSAGE;
}
