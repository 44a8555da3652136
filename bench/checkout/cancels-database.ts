/**
 * The cancels-and-refunds run in the database: waiting for the refunds at the provider while the
 * server runs (PostgreSQL only), and every row of the run's product and seller once it stopped.
 */
import { eventually, NotWithinError, PAYMENT_JOBS_INTERVAL_MS } from '../../server/src/test/support.ts';
import { type Storage, sleep, withDatabase } from '../support.ts';

/**
 * Waits until no payment of the product is still 'refunding' (the payment job, every second,
 * asks the provider until it agrees), at most `maxMs`. On PostgreSQL the bench polls the count;
 * PGlite is the server's own (one process), so there the bench waits three runs of the job and
 * the count is read once the server has stopped.
 */
export async function waitForRefunds(
  storage: Storage,
  productId: string,
  maxMs: number,
  signal: AbortSignal,
): Promise<{ waitedMs: number; polled: boolean; refundingLeft: number }> {
  const t0 = performance.now();
  if (!storage.databaseUrl) {
    await sleep(Math.min(maxMs, 3 * PAYMENT_JOBS_INTERVAL_MS));
    return { waitedMs: performance.now() - t0, polled: false, refundingLeft: Number.NaN };
  }
  return withDatabase(storage, async (query) => {
    const refunding = async () => {
      signal.throwIfAborted();
      const [row] = await query<{ n: number }>(
        `select count(*)::int as n from payments where product_id = $1 and status = 'refunding'`,
        [productId],
      );
      return row?.n ?? Number.NaN;
    };
    let left: number;
    try {
      left = await eventually('no payment refunding', refunding, (n) => n === 0, {
        timeoutMs: Math.max(0, maxMs - (performance.now() - t0)),
        intervalMs: 100,
      });
    } catch (error) {
      if (!(error instanceof NotWithinError)) throw error;
      left = error.last as number;
    }
    return { waitedMs: performance.now() - t0, polled: true, refundingLeft: left };
  });
}

export interface OrderRow {
  id: string;
  status: string;
  amount_cents: number;
  shipping_cents: number;
  payment_id: string | null;
  buyer_id: string;
  has_address: boolean;
}

export interface PaymentRow {
  id: string;
  status: string;
  amount_cents: number;
  intent_status: string | null;
  intent_cents: number | null;
}

export interface LedgerRow {
  order_id: string | null;
  kind: string;
  amount_cents: number;
}

/** The product's orders and payments (with the provider's intent), its stock, and the seller's whole ledger. */
export function readCancelsDatabase(storage: Storage, productId: string, sellerHandle: string) {
  return withDatabase(storage, async (query) => {
    const orders = await query<OrderRow>(
      `select id, status, amount_cents, shipping_cents, payment_id, buyer_id,
              shipping_address is not null as has_address
       from orders where product_id = $1`,
      [productId],
    );
    const [product] = await query<{ stock: number }>('select stock from products where id = $1', [productId]);
    const payments = await query<PaymentRow>(
      `select p.id, p.status, p.amount_cents, i.status as intent_status, i.amount_cents as intent_cents
       from payments p left join local_payment_intents i on i.payment_id = p.id::text
       where p.product_id = $1`,
      [productId],
    );
    const ledger = await query<LedgerRow>(
      `select l.order_id, l.kind, l.amount_cents from ledger_entries l join users u on u.id = l.seller_id
       where u.handle = $1`,
      [sellerHandle],
    );
    return { orders, stock: product?.stock ?? Number.NaN, payments, ledger };
  });
}

export type CancelsDatabase = Awaited<ReturnType<typeof readCancelsDatabase>>;
