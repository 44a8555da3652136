/** What the database holds after the run (read once the servers stopped: PGlite is one process's). */
import { type Storage, withDatabase } from '../support.ts';

export function readDatabase(storage: Storage, productId: string, offerId: string, title: string) {
  return withDatabase(storage, async (query) => {
    const orders = await query<{
      payment_id: string;
      created_ms: number;
      amount_cents: number;
      offer_id: string | null;
      client_secret: string | null;
      during_live: boolean;
    }>(
      `select o.payment_id::text, (extract(epoch from o.created_at) * 1000)::float8 as created_ms,
              o.amount_cents, p.offer_id::text as offer_id, p.client_secret, o.during_live
       from orders o join payments p on p.id = o.payment_id
       where o.product_id = $1 order by o.created_at`,
      [productId],
    );
    const [product] = await query<{ stock: number }>('select stock from products where id = $1', [productId]);
    const paymentRows = await query<{ status: string; n: number }>(
      'select status, count(*)::int as n from payments where product_id = $1 group by status order by status',
      [productId],
    );
    const [offer] = await query<{ quantity: number; price_cents: number }>(
      'select quantity, price_cents from stream_offers where id::text = $1',
      [offerId],
    );
    const webhooks = await query<{ payload: string; attempts: number; lag_ms: number | null }>(
      `select payload, attempts,
              (extract(epoch from delivered_at - created_at) * 1000)::float8 as lag_ms
       from local_webhook_events`,
    );
    const [lines] = await query<{ n: number }>(
      `select count(*)::int as n from chat_messages where kind = 'purchase' and message like $1`,
      [`% just bought ${title}`],
    );
    return {
      orders,
      stock: product?.stock ?? Number.NaN,
      payments: Object.fromEntries(paymentRows.map((r) => [r.status, r.n])),
      offer,
      webhooks,
      purchaseLines: lines?.n ?? Number.NaN,
    };
  });
}

export type DatabaseCounts = Awaited<ReturnType<typeof readDatabase>>;
