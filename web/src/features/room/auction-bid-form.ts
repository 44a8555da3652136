import { AUCTION_MAX_CENTS, AUCTION_MESSAGES } from '@streamshop/contract/auctions.ts';
import { dollarsToCents, formatCents } from '@streamshop/contract/money.ts';

const DOLLARS = /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

/**
 * The "Max bid" field as typed (dollars: 25, 25.50, $1,200) checked against the next bid the
 * auction takes: the cents to send as `maxBidCents`, or why not, in words.
 */
export function parseMaxBid(
  typed: string,
  minNextBidCents: number,
): { ok: true; cents: number } | { ok: false; error: string } {
  const text = typed.trim();
  if (text === '') return { ok: false, error: 'Enter the most you would pay, in dollars.' };
  if (!DOLLARS.test(text)) return { ok: false, error: 'Enter an amount in dollars, like 25 or 25.50.' };
  const cents = dollarsToCents(text.replace(/[$,\s]/g, ''));
  if (cents < minNextBidCents)
    return { ok: false, error: AUCTION_MESSAGES.tooLow(formatCents(minNextBidCents)) };
  if (cents > AUCTION_MAX_CENTS)
    return { ok: false, error: `Bids go up to ${formatCents(AUCTION_MAX_CENTS)}.` };
  return { ok: true, cents };
}

/** A new id per tap (the server takes the same id twice as one bid), safe for the body's pattern. */
export function newClientBidId(): string {
  const id =
    typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return id.replace(/[^A-Za-z0-9_-]/g, '');
}
