/** Card number input: digits only, grouped as the card network prints them, checked like Stripe does. */

/** American Express numbers (34…, 37…) are 15 digits printed 4-6-5; the rest 16 (up to 19) in fours. */
export function isAmex(digits: string): boolean {
  return /^3[47]/.test(digits);
}

export function maxCardDigits(digits: string): number {
  return isAmex(digits) ? 15 : 19;
}

/** The digits of whatever was typed or pasted: '4242 4242-42' -> '42424242 42' without spaces. */
export function cardDigits(input: string): string {
  const digits = input.replace(/\D/g, '');
  return digits.slice(0, maxCardDigits(digits));
}

/** Groups the digits as typed: '42424242' -> '4242 4242', '378282246310005' -> '3782 822463 10005'. */
export function formatCardNumber(input: string): string {
  const digits = cardDigits(input);
  if (isAmex(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * Where the caret belongs in the formatted number so that it stays after the same digit it was
 * after before formatting (typing in the middle does not jump to the end).
 */
export function caretAfterDigits(formatted: string, digitsBeforeCaret: number): number {
  if (digitsBeforeCaret <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (/\d/.test(formatted[i] ?? '')) seen += 1;
    if (seen === digitsBeforeCaret) return i + 1;
  }
  return formatted.length;
}

/** The Luhn checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe's wording for a card number that cannot be charged, or null when it looks right. */
export function cardNumberError(input: string): string | null {
  const digits = cardDigits(input);
  if (digits.length === 0) return 'Your card number is incomplete.';
  const needed = isAmex(digits) ? 15 : 16;
  if (digits.length < needed) return 'Your card number is incomplete.';
  if (!passesLuhn(digits)) return 'Your card number is invalid.';
  return null;
}
