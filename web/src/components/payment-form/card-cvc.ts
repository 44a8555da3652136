import { isAmex } from './card-number.ts';

/** The security code: 4 digits on American Express cards, 3 on the others. */
export function cvcLength(cardNumberDigits: string): 3 | 4 {
  return isAmex(cardNumberDigits) ? 4 : 3;
}

/** Only digits, at most as many as the card's code has. */
export function formatCvc(input: string, cardNumberDigits: string): string {
  return input.replace(/\D/g, '').slice(0, cvcLength(cardNumberDigits));
}

/** Stripe's wording for an incomplete security code, or null when it is complete. */
export function cvcError(input: string, cardNumberDigits: string): string | null {
  return input.replace(/\D/g, '').length === cvcLength(cardNumberDigits)
    ? null
    : "Your card's security code is incomplete.";
}
