import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { afterCursor, cursorAt, type PageCursor } from '../../platform/page-cursor.ts';

/** The ledger's queries (ADR 0016): entries are only ever added; balances are sums. */

/** A sale's entries, once per order (the unique (order, kind) index refuses a second). */
export async function insertSaleEntries(
  tx: Tx,
  sale: { orderId: string; sellerId: string; grossCents: number; feeCents: number; holdDays: number },
): Promise<void> {
  await tx.execute(sql`
    insert into ledger_entries (seller_id, order_id, kind, amount_cents, available_at)
    select ${sale.sellerId}, ${sale.orderId}, entry.kind, entry.amount, o.created_at + make_interval(days => ${sale.holdDays})
    from orders o, (values ('sale', ${sale.grossCents}::int), ('fee', ${-sale.feeCents}::int)) as entry(kind, amount)
    where o.id = ${sale.orderId} and (entry.kind = 'sale' or entry.amount <> 0)
    on conflict (order_id, kind) where kind <> 'payout' do nothing`);
}

/**
 * The reversal of an order's sale and fee: taken at once from a sale already available, and from
 * the pending amount of one that is not yet (so a refunded sale never shows as pending money).
 */
export async function insertRefundEntries(tx: Tx, orderId: string): Promise<void> {
  await tx.execute(sql`
    insert into ledger_entries (seller_id, order_id, kind, amount_cents, available_at)
    select seller_id, order_id, case kind when 'sale' then 'refund' else 'fee_refund' end, -amount_cents,
      greatest(available_at, now())
    from ledger_entries where order_id = ${orderId} and kind in ('sale', 'fee')
    on conflict (order_id, kind) where kind <> 'payout' do nothing`);
}

export type BalanceSums = {
  sales: number;
  refunds: number;
  fees: number;
  fee_refunds: number;
  payouts: number;
  pending: number;
  available: number;
};

export async function balanceSums(db: Db, sellerId: string): Promise<BalanceSums> {
  const result = await db.execute<BalanceSums>(sql`
    select
      coalesce(sum(amount_cents) filter (where kind = 'sale'), 0) as sales,
      coalesce(sum(amount_cents) filter (where kind = 'refund'), 0) as refunds,
      coalesce(sum(amount_cents) filter (where kind = 'fee'), 0) as fees,
      coalesce(sum(amount_cents) filter (where kind = 'fee_refund'), 0) as fee_refunds,
      coalesce(sum(amount_cents) filter (where kind in ('payout', 'payout_reversal')), 0) as payouts,
      coalesce(sum(amount_cents) filter (
        where kind not in ('payout', 'payout_reversal') and available_at > now()), 0) as pending,
      coalesce(sum(amount_cents) filter (where available_at <= now()), 0) as available
    from ledger_entries where seller_id = ${sellerId}`);
  const row = result.rows[0];
  return {
    sales: Number(row?.sales ?? 0),
    refunds: Number(row?.refunds ?? 0),
    fees: Number(row?.fees ?? 0),
    fee_refunds: Number(row?.fee_refunds ?? 0),
    payouts: Number(row?.payouts ?? 0),
    pending: Number(row?.pending ?? 0),
    available: Number(row?.available ?? 0),
  };
}

export type LedgerRow = {
  id: string;
  kind: 'sale' | 'fee' | 'refund' | 'fee_refund' | 'payout' | 'payout_reversal';
  amount_cents: number;
  order_id: string | null;
  product_title: string | null;
  buyer_handle: string | null;
  available_at: Date | string;
  created_at: Date | string;
  /** created_at to the microsecond, for the next page's cursor. */
  cursor_at: string;
};

/**
 * A page of the seller's entries, newest first (a sale and its fee, written in one transaction,
 * share created_at: id breaks the tie), after the (created_at, id) of `after`, with the order and
 * product behind each.
 */
export async function ledgerPage(
  db: Db,
  sellerId: string,
  options: { after?: PageCursor | undefined; limit: number },
): Promise<LedgerRow[]> {
  const result = await db.execute<LedgerRow>(sql`
    select l.id, l.kind, l.amount_cents, l.order_id, p.title as product_title, b.handle as buyer_handle,
      l.available_at, l.created_at, ${cursorAt(sql`l.created_at`)} as cursor_at
    from ledger_entries l
    left join orders o on o.id = l.order_id
    left join products p on p.id = o.product_id
    left join users b on b.id = o.buyer_id
    where l.seller_id = ${sellerId} ${afterCursor(sql`l.created_at`, sql`l.id`, options.after)}
    order by l.created_at desc, l.id desc limit ${options.limit}`);
  return result.rows;
}

/**
 * Pays out, as the local provider's stand-in for a bank transfer, every seller's available balance
 * once a day: a `payout` entry of minus what is available, for sellers with money available and
 * no payout in the last `everyMs`. One transaction under an advisory lock, so two instances
 * running the job at once pay nobody twice. Answers what was paid to whom.
 */
export async function payOutAvailable(
  db: Db,
  everyMs: number,
): Promise<Array<{ seller_id: string; amount_cents: number }>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ledger-payouts'))`);
    const paid = await tx.execute<{ seller_id: string; amount_cents: number }>(sql`
      insert into ledger_entries (seller_id, kind, amount_cents, available_at)
      select seller_id, 'payout', -sum(amount_cents), now()
      from ledger_entries
      where available_at <= now()
      group by seller_id
      having sum(amount_cents) > 0 and coalesce(
        max(created_at) filter (where kind = 'payout'), '-infinity'::timestamptz
      ) <= now() - make_interval(secs => ${everyMs / 1000})
      returning seller_id, -amount_cents as amount_cents`);
    return paid.rows.map((row) => ({ seller_id: row.seller_id, amount_cents: Number(row.amount_cents) }));
  });
}

/** The seller who owns the provider account (one at most: the column is unique), or null. */
export async function sellerOfAccount(tx: Tx, accountRef: string): Promise<string | null> {
  const result = await tx.execute<{ id: string }>(
    sql`select id from users where stripe_account_id = ${accountRef}`,
  );
  return result.rows[0]?.id ?? null;
}

/**
 * Serialises the events of one provider payout (paid, then failed), so a failure handled while its
 * payout is being recorded on another instance waits for it instead of finding nothing to reverse.
 */
export async function lockProviderPayout(tx: Tx, payoutRef: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`provider-payout:${payoutRef}`}))`);
}

/** A provider payout's `payout` entry, once per payout (the unique (payout_ref, kind) key). Answers whether it was new. */
export async function insertProviderPayout(
  tx: Tx,
  payout: { sellerId: string; payoutRef: string; amountCents: number },
): Promise<boolean> {
  const inserted = await tx.execute(sql`
    insert into ledger_entries (seller_id, kind, amount_cents, available_at, payout_ref)
    values (${payout.sellerId}, 'payout', ${-payout.amountCents}, now(), ${payout.payoutRef})
    on conflict (payout_ref, kind) where payout_ref is not null do nothing
    returning id`);
  return inserted.rows.length > 0;
}

/**
 * Gives back a recorded provider payout of the seller (a `payout_reversal` of what its `payout`
 * took), once. Answers false when there is no such payout, or it was given back already.
 */
export async function insertPayoutReversal(tx: Tx, sellerId: string, payoutRef: string): Promise<boolean> {
  const inserted = await tx.execute(sql`
    insert into ledger_entries (seller_id, kind, amount_cents, available_at, payout_ref)
    select seller_id, 'payout_reversal', -amount_cents, now(), payout_ref from ledger_entries
    where payout_ref = ${payoutRef} and kind = 'payout' and seller_id = ${sellerId}
    on conflict (payout_ref, kind) where payout_ref is not null do nothing
    returning id`);
  return inserted.rows.length > 0;
}
