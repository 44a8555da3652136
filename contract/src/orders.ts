import { z } from 'zod';
import { CARRIERS } from './carriers.ts';
import { ORDER_STATUSES } from './catalog.ts';
import { FULFILLMENTS } from './shipping.ts';
import { textSchema } from './text.ts';

/** Orders after the payment (ADR 0016): sales and purchases, shipping, delivery, refunds, payouts. */

export const ORDER_ROLES = ['seller', 'buyer'] as const;
export type OrderRole = (typeof ORDER_ROLES)[number];

/** Orders per page of GET /api/orders?role=… */
export const ORDERS_PAGE_SIZE = 20;

/** After this many days a shipped order counts as delivered by itself. */
export const AUTO_DELIVERY_DAYS = 30;

/** A sale becomes available for payout this many days after its payment. */
export const PAYOUT_HOLD_DAYS = 7;

/** A paged list's `cursor` query field: the nextCursor of the page before (opaque base64url). */
export const pageCursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not one this server gave');

export const orderListQuerySchema = z.object({
  /** Absent: the old list of both roles (the newest 50), for clients from before ADR 0016. */
  role: z.enum(ORDER_ROLES).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  cursor: pageCursorSchema.optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be an order id' }) });

/** Where the order goes, as the buyer gave it at checkout (a snapshot). */
export const orderAddressSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullish(),
  city: z.string(),
  region: z.string().nullish(),
  postalCode: z.string(),
  country: z.string(),
});
export type OrderAddress = z.infer<typeof orderAddressSchema>;

/** One order as its seller (a sale) or its buyer (a purchase) sees it. */
export const orderDetailSchema = z.object({
  id: z.string(),
  role: z.enum(ORDER_ROLES),
  status: z.enum(ORDER_STATUSES),
  /** The total paid, shipping included. */
  amountCents: z.number().int(),
  shippingCents: z.number().int(),
  item: z.object({
    productId: z.string().nullable(),
    /** Null when the product was deleted since. */
    title: z.string().nullable(),
    imageUrl: z.string().nullable(),
    fulfillment: z.enum(FULFILLMENTS),
  }),
  buyerHandle: z.string(),
  sellerHandle: z.string(),
  shippingAddress: orderAddressSchema.nullable(),
  /**
   * A carrier code (contract/src/carriers.ts; `carrierName` shows it), or for an order shipped
   * before the list, what its seller typed.
   */
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** The carrier's tracking page when we know the carrier (not Other); else show the number. */
  trackingUrl: z.string().nullable(),
  createdAt: z.string(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const ordersPageSchema = z.object({
  orders: z.array(orderDetailSchema),
  nextCursor: z.string().nullable(),
});
export type OrdersPage = z.infer<typeof ordersPageSchema>;

/** POST /api/orders/:id/ship. */
export const shipOrderBodySchema = z.object({
  carrier: z.enum(CARRIERS, {
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? 'Carrier is required'
        : `Carrier must be one of ${CARRIERS.join(', ')}`,
  }),
  trackingNumber: textSchema('Tracking number')
    .min(1, 'Tracking number is required')
    .min(4, 'Tracking number must be at least 4 characters')
    .max(64, 'Tracking number must be at most 64 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'Tracking number may hold only letters, digits, spaces and dashes'),
});
export type ShipOrderBody = z.infer<typeof shipOrderBodySchema>;

/** GET /api/payouts/balance: the caller's ledger as a seller, summed (ADR 0016). */
export const balanceSchema = z.object({
  /** Sales less refunds, shipping included. */
  grossCents: z.number().int(),
  /** The platform's fees kept (fees less fees given back with refunds). */
  feeCents: z.number().int(),
  /** grossCents − feeCents: what the seller earned. */
  netCents: z.number().int(),
  /** Earned but not yet available (sales younger than PAYOUT_HOLD_DAYS). */
  pendingCents: z.number().int(),
  /** Available to pay out now (may be negative after a refund of money already paid out). */
  availableCents: z.number().int(),
  /** Sent to the seller's bank: payouts less those that failed and came back. */
  paidOutCents: z.number().int(),
});
export type Balance = z.infer<typeof balanceSchema>;

/**
 * `payout`: money sent to the seller's bank (the local provider's daily payout, or one Stripe made
 * from the seller's connected account); `payout_reversal`: a Stripe payout that failed, given back.
 */
export const LEDGER_KINDS = ['sale', 'fee', 'refund', 'fee_refund', 'payout', 'payout_reversal'] as const;

/** One line of the seller's ledger, with the order it belongs to. */
export const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  /** Signed: sales, fee refunds and payout reversals add; fees, refunds and payouts subtract. */
  amountCents: z.number().int(),
  orderId: z.string().nullable(),
  productTitle: z.string().nullable(),
  buyerHandle: z.string().nullable(),
  availableAt: z.string(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** Entries per page of GET /api/payouts/ledger. */
export const LEDGER_PAGE_SIZE = 50;

export const ledgerQuerySchema = z.object({ cursor: pageCursorSchema.optional() });
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;

/** A page of the seller's ledger, newest first; nextCursor is null on the last page. */
export const ledgerSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  nextCursor: z.string().nullable(),
});
export type LedgerPage = z.infer<typeof ledgerSchema>;

/**
 * GET /api/payouts/account: where the seller's money goes. `not_required` with the local provider
 * (the ledger is the whole story); with Stripe Connect, `not_started` until the seller opens an
 * account, `pending` until the provider can pay it, then `ready`. Only a ready seller takes paid
 * orders when the provider requires onboarding.
 */
export const PAYOUT_ACCOUNT_STATUSES = ['not_required', 'not_started', 'pending', 'ready'] as const;
export const payoutAccountSchema = z.object({
  status: z.enum(PAYOUT_ACCOUNT_STATUSES),
  /** Since when the provider can pay this seller (ready only). */
  readySince: z.string().nullable(),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

/** POST /api/payouts/onboarding: the provider's hosted onboarding page, single use and short-lived. */
export const onboardingLinkSchema = z.object({ url: z.string() });
export type OnboardingLink = z.infer<typeof onboardingLinkSchema>;

/** Where the provider sends the seller back: PUBLIC_URL + this + `&onboarding=return` (or `refresh`). */
export const ONBOARDING_RETURN_PATH = '/dashboard?tab=earnings';
