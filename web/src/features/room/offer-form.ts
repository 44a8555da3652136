import { dollarsToCents } from '@streamshop/contract/money.ts';
import { offerFloorCents, type StartOfferBody, startOfferBodySchema } from '@streamshop/contract/shop.ts';

/** The Start offer form as typed: the price in dollars, the duration in seconds. */
export interface OfferFormValues {
  price: string;
  quantity: string;
  duration: string;
  /** The seller confirmed a price below the floor (OFFER_FLOOR_PERCENT of the regular price). */
  confirmBelowFloor: boolean;
}
export type OfferField = Exclude<keyof OfferFormValues, 'confirmBelowFloor'>;
export type OfferFieldErrors = Partial<Record<OfferField, string>>;

/** Which form field each body field (and so each server field error) belongs to. */
const FIELD_OF: Record<string, OfferField> = {
  priceCents: 'price',
  quantity: 'quantity',
  durationSec: 'duration',
};

export const DEFAULT_OFFER_SECONDS = 60;

/** A starting point: 20 % off, up to 5 units of the stock, for a minute. */
export function defaultOfferValues(regularCents: number, stock: number): OfferFormValues {
  const price = Math.max(1, Math.floor(regularCents * 0.8));
  return {
    price: (price / 100).toFixed(2),
    quantity: String(Math.max(1, Math.min(stock, 5))),
    duration: String(DEFAULT_OFFER_SECONDS),
    confirmBelowFloor: false,
  };
}

/** Whether the typed price is below the floor, so the form asks for a confirmation. */
export function isBelowFloor(values: OfferFormValues, regularCents: number): boolean {
  if (values.price.trim() === '') return false;
  const cents = dollarsToCents(values.price);
  return Number.isFinite(cents) && cents < offerFloorCents(regularCents);
}

const wholeNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Checks the form with the schema the server uses for the body (price in dollars to cents);
 * the server adds what only it knows (below the regular price, no more than the stock).
 */
export function offerFormToBody(
  values: OfferFormValues,
  productId: string,
): { ok: true; body: StartOfferBody } | { ok: false; errors: OfferFieldErrors } {
  const parsed = startOfferBodySchema.safeParse({
    productId,
    priceCents: values.price.trim() === '' ? Number.NaN : dollarsToCents(values.price),
    quantity: wholeNumber(values.quantity),
    durationSec: wholeNumber(values.duration),
    ...(values.confirmBelowFloor ? { confirmBelowFloor: true } : {}),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    errors: offerFieldErrors(
      Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
    ),
  };
}

/** The server's (or the schema's) errors by body field, as errors of the form's fields. */
export function offerFieldErrors(fields: Record<string, string>): OfferFieldErrors {
  const errors: OfferFieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = FIELD_OF[key];
    if (field && !errors[field]) errors[field] = message;
  }
  return errors;
}
