import { DISC_PRICE_TIERS } from './constants.ts';

/**
 * Formats integer cents as dollars with two decimals: 1999 -> "$19.99", 123456789 ->
 * "$1,234,567.89". The thousands separators are put in by hand: the first toLocaleString of a
 * page load builds the locale's data, tens of milliseconds a phone spends before a price shows.
 */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** Dollars (as typed in a form) to integer cents, rounded; non-numeric becomes 0. */
export function dollarsToCents(dollars: number | string): number {
  const value = typeof dollars === 'number' ? dollars : Number.parseFloat(dollars);
  if (!Number.isFinite(value)) return 0;
  return Math.round(value * 100);
}

/** Integer cents to a dollars number for form fields: 1999 -> 19.99. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

export function discUnitPriceCents(quantity: number): number {
  const q = Math.max(1, Math.floor(quantity));
  const tier = [...DISC_PRICE_TIERS].reverse().find((t) => q >= t.minQuantity);
  return (tier ?? DISC_PRICE_TIERS[0]).unitPriceCents;
}

/** Total for a disc pre-order as the spec's string with 2 decimals: 10 discs -> "35.00". */
export function discTotalPrice(quantity: number): string {
  const q = Math.max(1, Math.floor(quantity));
  return ((discUnitPriceCents(q) * q) / 100).toFixed(2);
}
