import { describe, expect, it } from 'vitest';
import { type Account, useCheckoutTestApp } from '../../test/checkout-test-app.ts';
import { listProduct, openCheckout, ordersOf, payWithCard, stockOf } from '../../test/payments.ts';
import type { TestApp } from '../../test/test-app.ts';
import { SETUP_IN_PROGRESS_MESSAGE, SETUP_RESUME_SECONDS } from './service.ts';

/**
 * Issue 18: a checkout writes the buyer's hold, then asks the provider for a payment session and
 * attaches it. When the database (or the process) goes away between the two, the hold stays
 * without a session; the buyer's next checkout of that product used to answer "still being set
 * up" until the hold lapsed (10 minutes). The interruption is made here by taking the session off
 * the hold, as if it had never been attached.
 */
let t: TestApp;
let seller: Account;
let buyer: Account;
useCheckoutTestApp((state) => ({ t, seller, buyer } = state));

async function pendingPayments(productId: string): Promise<string[]> {
  const result = await t.database.pool.query(
    `select id from payments where user_id = $1 and product_id = $2 and status = 'pending'`,
    [buyer.user.id, productId],
  );
  return result.rows.map((row) => row.id);
}

/** The hold keeps its unit but loses its session, its setup having started `agoSec` ago. */
async function interruptSetup(paymentId: string, agoSec: number, providerToo: boolean) {
  await t.database.pool.query(
    `update payments set client_secret = null, provider_ref = null,
       updated_at = now() - make_interval(secs => $2) where id = $1`,
    [paymentId, agoSec],
  );
  if (providerToo) {
    await t.database.pool.query('delete from local_payment_intents where payment_id = $1', [paymentId]);
  }
}

describe('a checkout whose payment session was never attached', () => {
  it('answers "still being set up" while the setup may still be under way', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 2 });
    expect((await openCheckout(t.app, buyer.cookie, product.id)).statusCode).toBe(200);
    const [paymentId = ''] = await pendingPayments(product.id);
    await interruptSetup(paymentId, 1, false);

    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', message: SETUP_IN_PROGRESS_MESSAGE });
  });

  it('is taken over once the setup is older than SETUP_RESUME_SECONDS: the same payment, with the session the provider already had', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 2 });
    const first = await openCheckout(t.app, buyer.cookie, product.id);
    const [paymentId = ''] = await pendingPayments(product.id);
    await interruptSetup(paymentId, SETUP_RESUME_SECONDS + 1, false);

    const resumed = await openCheckout(t.app, buyer.cookie, product.id);
    expect(resumed.statusCode, resumed.body).toBe(200);
    // The provider had answered before the interruption: it hands back the same session.
    expect(resumed.json().clientSecret).toBe(first.json().clientSecret);
    expect(await pendingPayments(product.id)).toEqual([paymentId]);
    // A second request right after finds the session attached: the same answer.
    const again = await openCheckout(t.app, buyer.cookie, product.id);
    expect(again.json().clientSecret).toBe(first.json().clientSecret);
  });

  it('asks the provider again when it never answered, and the buyer pays once', async () => {
    const product = await listProduct(t, seller.cookie, { stock: 2, priceCents: 3100 });
    expect((await openCheckout(t.app, buyer.cookie, product.id)).statusCode).toBe(200);
    const [paymentId = ''] = await pendingPayments(product.id);
    await interruptSetup(paymentId, SETUP_RESUME_SECONDS + 1, true);

    const resumed = await openCheckout(t.app, buyer.cookie, product.id);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ amountCents: 3100 });
    expect(await pendingPayments(product.id)).toEqual([paymentId]);
    const paid = await payWithCard(t.app, resumed.json().clientSecret);
    expect(paid.json()).toEqual({ status: 'succeeded' });

    const orders = (await ordersOf(t.app, buyer.cookie)).filter((order) => order.role === 'buyer');
    expect(orders).toHaveLength(1);
    expect(orders[0]?.amountCents).toBe(3100);
    expect(await stockOf(t, product.id)).toBe(1);
  });
});
