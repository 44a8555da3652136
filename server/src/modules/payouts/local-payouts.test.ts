import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { eventually } from '../../test/eventually.ts';
import { listProduct, openCheckout, payWithCard } from '../../test/payments.ts';
import { buildTestApp, createTestDatabase, signUp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 17: with the local provider the ledger behaves as Stripe would offline. Available money is
 * paid out once a day (a `payout` entry), by one instance however many run the job.
 */
const CHECK_MS = 100;

let database: Database;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  const deps = { database, localPayouts: { intervalMs: CHECK_MS } };
  a = await buildTestApp({ platformFeePercent: 10 }, deps);
  b = await buildTestApp({ platformFeePercent: 10 }, deps);
});
afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await database?.close();
});

const balanceOf = async (cookie: string) =>
  (await a.app.inject({ method: 'GET', url: '/api/payouts/balance', headers: { cookie } })).json();

async function sell(seller: { cookie: string }, priceCents: number) {
  const buyer = await signUp(a.app);
  const product = await listProduct(a, seller.cookie, { priceCents });
  const checkout = await openCheckout(a.app, buyer.cookie, product.id);
  expect((await payWithCard(a.app, checkout.json().clientSecret)).statusCode).toBe(200);
}

/** The hold is PAYOUT_HOLD_DAYS: the test moves the seller's entries past it instead of waiting. */
const makeAvailable = (sellerId: string) =>
  database.pool.query(
    `update ledger_entries set available_at = now() - interval '1 minute' where seller_id = $1 and kind <> 'payout'`,
    [sellerId],
  );

describe('local payouts', () => {
  it('pays out what is available once, keeps pending money, and waits a day for the next payout', async () => {
    const seller = await signUp(a.app);
    await sell(seller, 5000);
    await new Promise((resolve) => setTimeout(resolve, CHECK_MS * 5));
    // Still within the hold: nothing is paid.
    expect(await balanceOf(seller.cookie)).toMatchObject({ pendingCents: 4500, paidOutCents: 0 });

    await makeAvailable(seller.user.id);
    const paid = await eventually(
      'the payout',
      () => balanceOf(seller.cookie),
      (balance) => balance.paidOutCents > 0,
    );
    expect(paid).toMatchObject({ netCents: 4500, availableCents: 0, pendingCents: 0, paidOutCents: 4500 });

    // Two instances ran the job all along: one payout entry, for exactly what was available.
    const ledger = await a.app.inject({
      method: 'GET',
      url: '/api/payouts/ledger',
      headers: { cookie: seller.cookie },
    });
    const payouts = ledger.json().entries.filter((entry: { kind: string }) => entry.kind === 'payout');
    expect(payouts.map((entry: { amountCents: number }) => entry.amountCents)).toEqual([-4500]);

    // A second sale becomes available the same day: it waits for tomorrow's payout.
    await sell(seller, 2000);
    await makeAvailable(seller.user.id);
    await new Promise((resolve) => setTimeout(resolve, CHECK_MS * 5));
    expect(await balanceOf(seller.cookie)).toMatchObject({ availableCents: 1800, paidOutCents: 4500 });
  });

  it('leaves a seller with nothing available alone, and never pays out a negative balance', async () => {
    const seller = await signUp(a.app);
    await sell(seller, 3000);
    await makeAvailable(seller.user.id);
    await eventually(
      'the payout',
      () => balanceOf(seller.cookie),
      (balance) => balance.paidOutCents > 0,
    );
    // Refunded after it was paid out: the available balance goes negative, and stays unpaid.
    const orders = await a.app.inject({
      method: 'GET',
      url: '/api/orders?role=seller',
      headers: { cookie: seller.cookie },
    });
    const [order] = orders.json().orders;
    const refund = await a.app.inject({
      method: 'POST',
      url: `/api/orders/${order.id}/refund`,
      headers: { cookie: seller.cookie },
    });
    expect(refund.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, CHECK_MS * 5));
    expect(await balanceOf(seller.cookie)).toMatchObject({
      netCents: 0,
      availableCents: -2700,
      paidOutCents: 2700,
    });
  });
});
