/** The expiry field, typed as 'MM / YY' the way card forms print it. */

/**
 * Formats what was typed into 'MM / YY'. A first digit above 1 can only be a month on its own
 * ('4' -> '04 / '), and the separator is added as soon as the month is complete, except while
 * deleting, so Backspace can remove it.
 */
export function formatExpiry(input: string, deleting = false): string {
  let digits = input.replace(/\D/g, '');
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  // '13' cannot be a month: read it as January and the start of the year.
  if (/^1[3-9]/.test(digits)) digits = `01${digits.slice(1)}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

/** 'MM / YY' to month and four-digit year, or null when either part is incomplete. */
export function parseExpiry(input: string): Expiry | null {
  const match = /^\s*(\d{2})\s*\/?\s*(\d{2})\s*$/.exec(input);
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

/** Cards are not issued further ahead than this. */
const MAX_YEARS_AHEAD = 50;

/** Stripe's wording for an expiry that cannot be charged at `now`, or null when it is fine. */
export function expiryError(input: string, now: Date): string | null {
  const expiry = parseExpiry(input);
  if (!expiry) return "Your card's expiration date is incomplete.";
  if (expiry.month < 1 || expiry.month > 12) return "Your card's expiration month is invalid.";
  const year = now.getFullYear();
  if (expiry.year < year) return "Your card's expiration year is in the past.";
  // A card is valid through the last day of its expiry month.
  if (expiry.year === year && expiry.month < now.getMonth() + 1) {
    return "Your card's expiration date is in the past.";
  }
  if (expiry.year > year + MAX_YEARS_AHEAD) return "Your card's expiration year is invalid.";
  return null;
}
