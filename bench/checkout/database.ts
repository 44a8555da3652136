/** What the database holds for the product (read once the server has stopped: PGlite is one process's). */
import { type Storage, withDatabase } from '../support.ts';

export function readDatabase(storage: Storage, productId: string) {
  return withDatabase(storage, async (query) => {
    const [orders] = await query<{ orders: number; payments: number; buyers: number }>(
      `select count(*)::int as orders, count(distinct payment_id)::int as payments,
              count(distinct buyer_id)::int as buyers
       from orders where product_id = $1`,
      [productId],
    );
    const [product] = await query<{ stock: number }>('select stock from products where id = $1', [productId]);
    const paymentRows = await query<{ status: string; n: number }>(
      `select status, count(*)::int as n from payments where product_id = $1 group by status order by status`,
      [productId],
    );
    const [events] = await query<{ succeeded: number; all: number }>(
      `select count(*) filter (where type = 'payment.succeeded')::int as succeeded, count(*)::int as all
       from payment_events`,
    );
    const [outbox] = await query<{
      events: number;
      undelivered: number;
      attempts: number;
      retried: number;
    }>(
      `select count(*)::int as events, count(*) filter (where delivered_at is null)::int as undelivered,
              coalesce(sum(attempts), 0)::int as attempts, count(*) filter (where attempts > 1)::int as retried
       from local_webhook_events`,
    );
    const [intents] = await query<{ succeeded: number }>(
      `select count(*)::int as succeeded from local_payment_intents i join payments p on p.id::text = i.payment_id::text
       where p.product_id = $1 and i.status = 'succeeded'`,
      [productId],
    );
    return {
      orders: orders?.orders ?? Number.NaN,
      distinctPayments: orders?.payments ?? Number.NaN,
      distinctBuyers: orders?.buyers ?? Number.NaN,
      stock: product?.stock ?? Number.NaN,
      payments: Object.fromEntries(paymentRows.map((r) => [r.status, r.n])),
      chargedIntents: intents?.succeeded ?? Number.NaN,
      webhookEvents: events,
      outbox,
    };
  });
}

export type DatabaseCounts = Awaited<ReturnType<typeof readDatabase>>;
