import { checkoutAnswerSchema } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import { type Account, useCheckoutTestApp } from '../../test/checkout-test-app.ts';
import { listProduct, openCheckout, payWithCard } from '../../test/payments.ts';
import { signUp, type TestApp } from '../../test/test-app.ts';
import { ALL_RESERVED_MESSAGE, RECENT_ORDER_SECONDS, SOLD_OUT_MESSAGE } from './service.ts';

/**
 * Issue 18: a buyer who paid and comes back to checkout (the answer to their payment was lost, a
 * server died, a second tab) gets their order with 200, where there is no unit left for a new
 * hold; before, they were told 409 "sold out" or "being checked out by another buyer".
 */

let t: TestApp;
let seller: Account;
let buyer: Account;
useCheckoutTestApp((state) => ({ t, seller, buyer } = state));

/** Opens checkout and pays with the success card; the webhook has made the order when it answers. */
async function buy(cookie: string, productId: string) {
  const opened = await openCheckout(t.app, cookie, productId);
  expect(opened.statusCode, opened.body).toBe(200);
  const paid = await payWithCard(t.app, opened.json().clientSecret);
  expect(paid.json()).toEqual({ status: 'succeeded' });
}

async function purchasesOf(cookie: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/orders?role=buyer', headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json().orders as Array<{ id: string; item: { productId: string } }>;
}

describe('settling a payment while a checkout of its product is under way', () => {
  it('waits for the product before it locks the payment, as a checkout takes them', async (context) => {
    // Two transactions at once need two connections: PostgreSQL only (PGlite has one).
    if (t.database.kind !== 'postgres') return context.skip();
    const product = await listProduct(t, seller.cookie, { stock: 2, priceCents: 2500 });
    const opened = await openCheckout(t.app, buyer.cookie, product.id);
    expect(opened.statusCode, opened.body).toBe(200);
    const { rows } = await t.database.pool.query<{ id: string }>(
      `select p.id from payments p join users u on u.id = p.user_id
       where p.product_id = $1 and u.handle = $2 and p.status = 'pending'`,
      [product.id, buyer.handle],
    );
    const paymentId = rows[0]?.id;
    // A checkout of the same product under way: its transaction has the product's row.
    const checkout = await t.database.pool.connect();
    try {
      await checkout.query('begin');
      await checkout.query('select id from products where id = $1 for update', [product.id]);
      const paid = payWithCard(t.app, opened.json().clientSecret);
      // The payment's settling transaction is now waiting on a lock: the product's.
      await expect
        .poll(
          async () =>
            (
              await t.database.pool.query(
                `select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and wait_event_type = 'Lock'
                   and query like '%from products%for update%'`,
              )
            ).rows[0].n,
          { timeout: 10_000, message: 'the settling payment to wait for the product’s row, holding nothing' },
        )
        .toBe(1);
      // It has not taken the payment first: the checkout can still update the hold (where the
      // other order left both waiting on each other, and PostgreSQL failed one: a 500).
      await checkout.query('set local lock_timeout = 2000');
      await checkout.query('update payments set updated_at = now() where id = $1', [paymentId]);
      await checkout.query('commit');
      expect((await paid).json()).toEqual({ status: 'succeeded' });
    } finally {
      await checkout.query('rollback').catch(() => {});
      checkout.release();
    }
    expect(
      (await purchasesOf(buyer.cookie)).filter((order) => order.item.productId === product.id),
    ).toHaveLength(1);
  });
});

describe('POST /api/checkout/:productId after paying', () => {
  it('answers 200 with the order when the buyer comes back for a product they just bought the last of', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1, priceCents: 4500 });
    await buy(buyer.cookie, product.id);
    const [order] = await purchasesOf(buyer.cookie);

    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.statusCode, again.body).toBe(200);
    const body = again.json();
    expect(checkoutAnswerSchema.safeParse(body).success).toBe(true);
    expect(body).not.toHaveProperty('clientSecret');
    expect(body.order).toMatchObject({
      id: order?.id,
      role: 'buyer',
      status: 'paid',
      amountCents: 4500,
      item: { productId: product.id, title: 'Blue Note first pressing' },
    });
    // Nothing was held or charged again.
    const payments = await t.database.pool.query(
      `select count(*)::int as n from payments p join users u on u.id = p.user_id
       where p.product_id = $1 and u.handle = $2`,
      [product.id, buyer.handle],
    );
    expect(payments.rows[0].n).toBe(1);

    // Someone who did not buy it is still told it is sold out.
    const other = await signUp(t.app);
    const refused = await openCheckout(t.app, other.cookie, product.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SOLD_OUT_MESSAGE);
  });

  it('answers the order where every unit left is held by another buyer', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 2 });
    await buy(buyer.cookie, product.id);
    const holder = await signUp(t.app);
    expect((await openCheckout(t.app, holder.cookie, product.id)).statusCode).toBe(200);

    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order.id).toBe((await purchasesOf(buyer.cookie))[0]?.id);

    const latecomer = await signUp(t.app);
    const refused = await openCheckout(t.app, latecomer.cookie, product.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ALL_RESERVED_MESSAGE);
  });

  it('opens a new session when units are left: buying another is still possible', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 3 });
    await buy(buyer.cookie, product.id);
    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toHaveProperty('clientSecret');
    expect(again.json()).not.toHaveProperty('order');
  });

  it('answers 409 for an order older than a hold lasts, and for one the buyer cancelled', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 1 });
    await buy(buyer.cookie, product.id);
    const [order] = await purchasesOf(buyer.cookie);
    await t.database.pool.query(
      `update orders set created_at = now() - make_interval(secs => $2) where id = $1`,
      [order?.id, RECENT_ORDER_SECONDS + 60],
    );
    const old = await openCheckout(t.app, buyer.cookie, product.id);
    expect(old.statusCode).toBe(409);
    expect(old.json().message).toBe(SOLD_OUT_MESSAGE);

    const second = await listProduct(t, seller.cookie, { stock: 1 });
    const canceller = await signUp(t.app);
    await buy(canceller.cookie, second.id);
    const [bought] = await purchasesOf(canceller.cookie);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${bought?.id}/cancel`,
      headers: { cookie: canceller.cookie },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The unit went back on sale and someone else bought it.
    await buy(buyer.cookie, second.id);
    const refused = await openCheckout(t.app, canceller.cookie, second.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SOLD_OUT_MESSAGE);
  });
});
