/** What the database holds for the product (read once the server has stopped: PGlite is one process's). */
import { type Storage, withDatabase } from '../support.ts';

/** `charge`: what each buyer should pay (price + shipping) and the shipping in it. */
export function readDatabase(
  storage: Storage,
  productId: string,
  charge: { amountCents: number; shippingCents: number },
) {
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
    const [intents] = await query<{ succeeded: number; cents: number; wrong: number }>(
      `select count(*)::int as succeeded, coalesce(sum(i.amount_cents), 0)::int as cents,
              count(*) filter (where i.amount_cents <> $2)::int as wrong
       from local_payment_intents i join payments p on p.id::text = i.payment_id::text
       where p.product_id = $1 and i.status = 'succeeded'`,
      [productId, charge.amountCents],
    );
    // Every order of a shipped product: the total with shipping, the shipping, and the address.
    const [amounts] = await query<{ cents: number; wrong: number; noAddress: number }>(
      `select coalesce(sum(amount_cents), 0)::int as cents,
              count(*) filter (where amount_cents <> $2 or shipping_cents <> $3)::int as wrong,
              count(*) filter (where shipping_address is null)::int as "noAddress"
       from orders where product_id = $1`,
      [productId, charge.amountCents, charge.shippingCents],
    );
    return {
      orders: orders?.orders ?? Number.NaN,
      distinctPayments: orders?.payments ?? Number.NaN,
      distinctBuyers: orders?.buyers ?? Number.NaN,
      stock: product?.stock ?? Number.NaN,
      payments: Object.fromEntries(paymentRows.map((r) => [r.status, r.n])),
      chargedIntents: intents?.succeeded ?? Number.NaN,
      /** Σ charged at the provider, and how many charges were not price + shipping. */
      chargedCents: intents?.cents ?? Number.NaN,
      wrongCharges: intents?.wrong ?? Number.NaN,
      /** Σ of the orders' totals; orders whose total or shipping is not the product's; orders without an address. */
      orderCents: amounts?.cents ?? Number.NaN,
      wrongOrderAmounts: amounts?.wrong ?? Number.NaN,
      ordersWithoutAddress: amounts?.noAddress ?? Number.NaN,
      webhookEvents: events,
      outbox,
    };
  });
}

export type DatabaseCounts = Awaited<ReturnType<typeof readDatabase>>;
