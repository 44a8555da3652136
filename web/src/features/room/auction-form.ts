import {
  AUCTION_DEFAULT_EXTEND_SECONDS,
  AUCTION_DEFAULT_SECONDS,
  type StartAuctionBody,
  startAuctionBodySchema,
} from '@streamshop/contract/auctions.ts';
import { dollarsToCents } from '@streamshop/contract/money.ts';

/** The Start auction form as typed: the starting bid in dollars, durations in seconds. */
export interface AuctionFormValues {
  startingBid: string;
  duration: string;
  suddenDeath: boolean;
  extend: string;
}
export type AuctionField = 'startingBid' | 'duration' | 'extend';
export type AuctionFieldErrors = Partial<Record<AuctionField, string>>;

/** Which form field each body field (and so each server field error) belongs to. */
const FIELD_OF: Record<string, AuctionField> = {
  startingBidCents: 'startingBid',
  durationSec: 'duration',
  extendSec: 'extend',
};

/** What people read instead of the API's field names. */
const READABLE: Record<AuctionField, [string, string]> = {
  startingBid: ['startingBidCents', 'The starting bid'],
  duration: ['durationSec', 'The duration'],
  extend: ['extendSec', 'The extension'],
};

/** A starting point: a dollar, the default 20 seconds and 10-second extensions. */
export function defaultAuctionValues(): AuctionFormValues {
  return {
    startingBid: '1.00',
    duration: String(AUCTION_DEFAULT_SECONDS),
    suddenDeath: false,
    extend: String(AUCTION_DEFAULT_EXTEND_SECONDS),
  };
}

const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function reword(field: AuctionField, message: string): string {
  const [name, readable] = READABLE[field];
  const text = message.startsWith(name) ? `${readable}${message.slice(name.length)}` : message;
  // The form takes dollars: the schema's "whole number of cents" is about a typed fraction of a cent.
  return field === 'startingBid'
    ? text.replace('a whole number of cents', 'an amount in dollars and cents')
    : text;
}

/** The server's (or the schema's) errors by body field, as errors of the form's fields, in words. */
export function auctionFieldErrors(fields: Record<string, string>): AuctionFieldErrors {
  const errors: AuctionFieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = FIELD_OF[key];
    if (field && !errors[field]) errors[field] = reword(field, message);
  }
  return errors;
}

/** Checks the form with the schema the server uses (the starting bid from dollars to cents). */
export function auctionFormToBody(
  values: AuctionFormValues,
  productId: string,
): { ok: true; body: StartAuctionBody } | { ok: false; errors: AuctionFieldErrors } {
  const typed = values.startingBid.trim().replace(/^\$/, '');
  const parsed = startAuctionBodySchema.safeParse({
    productId,
    startingBidCents: typed === '' || !/^\d+(\.\d{1,2})?$/.test(typed) ? Number.NaN : dollarsToCents(typed),
    durationSec: number(values.duration),
    suddenDeath: values.suddenDeath,
    // Sudden death never extends: the field is off, its value unused.
    extendSec: values.suddenDeath ? AUCTION_DEFAULT_EXTEND_SECONDS : number(values.extend),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    errors: auctionFieldErrors(
      Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
    ),
  };
}
