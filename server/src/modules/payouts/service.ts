import {
  type Balance,
  LEDGER_PAGE_SIZE,
  type LedgerPage,
  type LedgerQuery,
  PAYOUT_HOLD_DAYS,
} from '@streamshop/contract/orders.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { startIntervalJob } from '../../platform/interval-job.ts';
import { decodeCursor, pageOf } from '../../platform/page-cursor.ts';
import {
  balanceSums,
  insertPayoutReversal,
  insertProviderPayout,
  insertRefundEntries,
  insertSaleEntries,
  ledgerPage,
  lockProviderPayout,
  payOutAvailable,
  sellerOfAccount,
} from './repo.ts';

/** What the platform owes each seller (ADR 0016): a ledger written with the orders it follows. */

/**
 * The platform's fee on `grossCents` at `percent` (hundredths of a percent are kept), rounded
 * half up, in integers so 2.9 % of $10.00 is 29 cents and not 28.999….
 */
export function platformFee(grossCents: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((grossCents * basisPoints + 5000) / 10_000);
}

/**
 * A paid order's `sale` (+ the total, shipping included) and `fee` (− the platform's part),
 * available PAYOUT_HOLD_DAYS after the payment. Called in the transaction that inserts the order.
 */
export async function recordSale(
  tx: Tx,
  order: { id: string; sellerId: string; amountCents: number },
  feePercent: number,
): Promise<void> {
  await insertSaleEntries(tx, {
    orderId: order.id,
    sellerId: order.sellerId,
    grossCents: order.amountCents,
    feeCents: platformFee(order.amountCents, feePercent),
    holdDays: PAYOUT_HOLD_DAYS,
  });
}

/** A refund or cancel: `refund` (− the sale) and `fee_refund` (+ the fee), in the order's transaction. */
export function recordRefund(tx: Tx, orderId: string): Promise<void> {
  return insertRefundEntries(tx, orderId);
}

export async function balanceOf(db: Db, sellerId: string): Promise<Balance> {
  const sums = await balanceSums(db, sellerId);
  const grossCents = sums.sales + sums.refunds;
  const feeCents = -(sums.fees + sums.fee_refunds);
  // A payout of more than is available by our hold (Stripe pays out on its own schedule, often
  // sooner) took money that is still pending here: it comes out of pending, not below zero.
  // What stays negative is owed (a refund after the money was paid out).
  const aheadOfHold = Math.min(sums.pending, Math.max(0, -sums.available));
  return {
    grossCents,
    feeCents,
    netCents: grossCents - feeCents,
    pendingCents: sums.pending - aheadOfHold,
    availableCents: sums.available + aheadOfHold,
    paidOutCents: -sums.payouts,
  };
}

/** A page of the entries behind the balance, newest first. */
export async function ledgerPageOf(db: Db, sellerId: string, query: LedgerQuery): Promise<LedgerPage> {
  const { rows, nextCursor } = pageOf(
    await ledgerPage(db, sellerId, { after: decodeCursor(query.cursor), limit: LEDGER_PAGE_SIZE + 1 }),
    LEDGER_PAGE_SIZE,
  );
  const entries = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    amountCents: row.amount_cents,
    orderId: row.order_id,
    productTitle: row.product_title,
    buyerHandle: row.buyer_handle,
    availableAt: iso(row.available_at),
    createdAt: iso(row.created_at),
  }));
  return { entries, nextCursor };
}

/** The ledger's currency: every amount in it is US cents. */
export const LEDGER_CURRENCY = 'usd';

export type ProviderPayout = { accountRef: string; payoutRef: string; amountCents: number; currency: string };

/**
 * What a provider payout event did to the ledger. `recorded` and `reversed` changed it; the others
 * left it as it was (already applied, a failure of a payout not recorded as paid or already given
 * back, an account no seller owns, or a currency the ledger does not keep).
 */
export type ProviderPayoutOutcome =
  | 'recorded'
  | 'reversed'
  | 'already_applied'
  | 'unknown_account'
  | 'other_currency';

/**
 * A payout the provider made from a seller's connected account (Stripe Connect), mirrored in their
 * ledger in the transaction that records the event: `paid` writes a `payout` entry (− the amount),
 * `failed` gives a recorded one back with a `payout_reversal` (+ what it took). Each at most once
 * per provider payout, whichever event or instance brings it. A failure that comes before its
 * payout was recorded (Stripe does not promise the order of events) writes both, so the `paid`
 * that follows finds the payout there and changes nothing.
 */
export async function recordProviderPayout(
  tx: Tx,
  payout: ProviderPayout,
  outcome: 'paid' | 'failed',
): Promise<ProviderPayoutOutcome> {
  if (payout.currency.toLowerCase() !== LEDGER_CURRENCY) return 'other_currency';
  const sellerId = await sellerOfAccount(tx, payout.accountRef);
  if (!sellerId) return 'unknown_account';
  await lockProviderPayout(tx, payout.payoutRef);
  if (outcome === 'paid') {
    const recorded = await insertProviderPayout(tx, { ...payout, sellerId });
    return recorded ? 'recorded' : 'already_applied';
  }
  await insertProviderPayout(tx, { ...payout, sellerId });
  return (await insertPayoutReversal(tx, sellerId, payout.payoutRef)) ? 'reversed' : 'already_applied';
}

/** With the local provider, available money is paid out once a day, as Stripe does by default. */
export const LOCAL_PAYOUT_EVERY_MS = 24 * 60 * 60 * 1000;
const LOCAL_PAYOUT_CHECK_MS = 10 * 60 * 1000;

/**
 * The local provider's payouts (no bank: the ledger's `payout` entry is the transfer), checked on
 * every instance; the repo's lock makes one of them pay. stop() waits for a run in progress.
 */
export function startLocalPayouts(
  db: Db,
  log: FastifyBaseLogger,
  options: { everyMs?: number | undefined; intervalMs?: number | undefined } = {},
): () => Promise<void> {
  return startIntervalJob('local payouts', options.intervalMs ?? LOCAL_PAYOUT_CHECK_MS, log, async () => {
    const paid = await payOutAvailable(db, options.everyMs ?? LOCAL_PAYOUT_EVERY_MS);
    if (paid.length > 0) log.info({ sellers: paid.length }, 'paid out available balances (local provider)');
  });
}

// Sellers' payout accounts (Stripe Connect), for checkout's destination charges and its webhook.
export { payoutDestination, sellerAccountChanged } from './accounts.ts';
