import type { LocalCard } from '@streamshop/contract/payments.ts';
import { cvcError } from './card-cvc.ts';
import { expiryError, parseExpiry } from './card-expiry.ts';
import { cardDigits, cardNumberError } from './card-number.ts';

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardFieldErrors = Partial<Record<keyof CardFields, string>>;

export type CardCheck = { ok: true; card: LocalCard } | { ok: false; errors: CardFieldErrors };

/** Checks the card form before anything is sent; on success gives the body for the provider. */
export function checkCardFields(fields: CardFields, now: Date): CardCheck {
  const digits = cardDigits(fields.number);
  const errors: CardFieldErrors = {};
  const numberProblem = cardNumberError(fields.number);
  if (numberProblem) errors.number = numberProblem;
  const expiryProblem = expiryError(fields.expiry, now);
  if (expiryProblem) errors.expiry = expiryProblem;
  const cvcProblem = cvcError(fields.cvc, digits);
  if (cvcProblem) errors.cvc = cvcProblem;
  const expiry = parseExpiry(fields.expiry);
  if (Object.keys(errors).length > 0 || !expiry) return { ok: false, errors };
  return {
    ok: true,
    card: {
      number: digits,
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: fields.cvc.replace(/\D/g, ''),
    },
  };
}

/**
 * The server's field errors of a 400 (keys such as 'card.number' or 'expMonth') mapped onto the
 * form's three fields.
 */
export function serverCardFieldErrors(fields: Record<string, string>): CardFieldErrors {
  const errors: CardFieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const name = key.split('.').pop() ?? key;
    if (name === 'number') errors.number ??= message;
    else if (name === 'expMonth' || name === 'expYear') errors.expiry ??= message;
    else if (name === 'cvc') errors.cvc ??= message;
  }
  return errors;
}
