import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { stripeProvider } from '../../platform/payments/stripe.ts';
import { listProduct, openCheckout } from '../../test/payments.ts';
import {
  STRIPE_TEST_SETTINGS,
  type StripeApi,
  signedStripeEvent,
  startStripeApi,
} from '../../test/stripe-api.ts';
import { buildTestApp, createTestDatabase, signUp, type TestApp } from '../../test/test-app.ts';

/**
 * Stripe's payouts from a seller's connected account to their bank, mirrored in the seller's ledger
 * (ADR 0016): two app instances on one database and the Stripe provider, whose SDK talks to the
 * test Stripe API; the payouts arrive as signed Connect webhooks (`event.account`).
 */
const FEE_PERCENT = 10;
const WEBHOOK_PATH = '/api/webhooks/payments';

let database: Database;
let stripe: StripeApi;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  stripe = await startStripeApi();
  database = await createTestDatabase();
  const payments = stripeProvider(STRIPE_TEST_SETTINGS, { stripe: stripe.client });
  a = await buildTestApp({ platformFeePercent: FEE_PERCENT }, { database, payments });
  b = await buildTestApp({ platformFeePercent: FEE_PERCENT }, { database, payments });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
  await stripe?.close();
});

type Seller = Awaited<ReturnType<typeof signUp>> & { accountRef: string };

const get = (url: string, cookie: string) => a.app.inject({ method: 'GET', url, headers: { cookie } });
const balanceOf = async (seller: Seller) => (await get('/api/payouts/balance', seller.cookie)).json();
const ledgerOf = async (seller: Seller) =>
  (await get('/api/payouts/ledger', seller.cookie)).json().entries as Array<{
    kind: string;
    amountCents: number;
  }>;
const countEntries = async () =>
  Number((await database.pool.query('select count(*) as n from ledger_entries')).rows[0]?.n);

/** Posts a signed Stripe event to one instance's webhook. */
const deliver = (
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; account?: string; to?: TestApp } = {},
) =>
  (options.to ?? a).app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    ...signedStripeEvent(type, object, options),
  });

let payoutCount = 0;
/** A Stripe payout object as Stripe renders it in payout.* events. */
const payout = (amount: number, overrides: Record<string, unknown> = {}) => ({
  id: `po_test_${++payoutCount}`,
  object: 'payout',
  amount,
  currency: 'usd',
  status: 'paid',
  automatic: true,
  arrival_date: Math.floor(Date.now() / 1000),
  destination: 'ba_test_bank',
  ...overrides,
});

/**
 * A seller onboarded to Connect who sold for `priceCents` through a destination charge, the sale
 * past its hold (available) unless `pending`, so a payout of it takes the available balance to zero.
 */
async function sellerWithSale(priceCents: number, { pending = false } = {}): Promise<Seller> {
  const seller = await signUp(a.app);
  const buyer = await signUp(a.app);
  const product = await listProduct(a, seller.cookie, { priceCents });
  await a.app.inject({ method: 'POST', url: '/api/payouts/onboarding', headers: { cookie: seller.cookie } });
  const accountRef = (
    await database.pool.query('select stripe_account_id from users where id = $1', [seller.user.id])
  ).rows[0]?.stripe_account_id as string;
  stripe.setReady(accountRef, true);
  expect((await get('/api/payouts/account', seller.cookie)).json().status).toBe('ready');

  expect((await openCheckout(a.app, buyer.cookie, product.id)).statusCode).toBe(200);
  const intent = [...stripe.intents.values()].at(-1);
  expect(intent?.['transfer_data[destination]']).toBe(accountRef);
  const paid = await deliver('payment_intent.succeeded', {
    id: intent?.id,
    object: 'payment_intent',
    amount: priceCents,
    amount_received: priceCents,
    metadata: { paymentId: intent?.['metadata[paymentId]'] },
    status: 'succeeded',
  });
  expect(paid.statusCode).toBe(200);
  if (!pending)
    await database.pool.query(
      `update ledger_entries set available_at = now() - interval '1 minute' where seller_id = $1`,
      [seller.user.id],
    );
  return { ...seller, accountRef };
}

/** The ledger's arithmetic: what was earned is pending, available or paid out. */
function expectBalanced(balance: Record<string, number>) {
  expect(balance.netCents).toBe(
    (balance.pendingCents ?? 0) + (balance.availableCents ?? 0) + (balance.paidOutCents ?? 0),
  );
}

describe('Stripe payouts mirrored in the ledger', () => {
  it("records a connected account's paid payout as a payout of its seller", async () => {
    const seller = await sellerWithSale(5000);
    const before = await balanceOf(seller);
    expect(before).toMatchObject({ netCents: 4500, availableCents: 4500, paidOutCents: 0 });

    const paid = await deliver('payout.paid', payout(4500), { account: seller.accountRef });
    expect(paid.statusCode).toBe(200);
    const after = await balanceOf(seller);
    expect(after).toEqual({ ...before, availableCents: 0, paidOutCents: 4500 });
    expectBalanced(after);
    expect((await ledgerOf(seller)).filter((entry) => entry.kind === 'payout')).toEqual([
      expect.objectContaining({ kind: 'payout', amountCents: -4500, orderId: null }),
    ]);
  });

  it('takes a payout Stripe makes before our hold ends out of the pending money, not below zero', async () => {
    const seller = await sellerWithSale(4000, { pending: true });
    expect(await balanceOf(seller)).toMatchObject({ netCents: 3600, pendingCents: 3600, availableCents: 0 });

    // Stripe's schedule is its own: two days after the sale it pays out part of it.
    expect((await deliver('payout.paid', payout(1000), { account: seller.accountRef })).statusCode).toBe(200);
    const part = await balanceOf(seller);
    expect(part).toMatchObject({ pendingCents: 2600, availableCents: 0, paidOutCents: 1000 });
    expectBalanced(part);

    expect((await deliver('payout.paid', payout(2600), { account: seller.accountRef })).statusCode).toBe(200);
    const all = await balanceOf(seller);
    expect(all).toMatchObject({ netCents: 3600, pendingCents: 0, availableCents: 0, paidOutCents: 3600 });
    expectBalanced(all);
  });

  it('records a payout once: sent twice, under a new event id, or to two instances at once', async () => {
    const seller = await sellerWithSale(3000);
    const po = payout(2700);
    // Two instances receive the same payout in two events at the same moment.
    const raced = await Promise.all([
      deliver('payout.paid', po, { account: seller.accountRef, id: 'evt_race_a', to: a }),
      deliver('payout.paid', po, { account: seller.accountRef, id: 'evt_race_b', to: b }),
    ]);
    expect(raced.map((response) => response.statusCode)).toEqual([200, 200]);
    const once = await balanceOf(seller);
    expect(once).toMatchObject({ availableCents: 0, paidOutCents: 2700 });

    const again = await deliver('payout.paid', po, { account: seller.accountRef, id: 'evt_race_a' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const newEvent = await deliver('payout.paid', po, { account: seller.accountRef });
    expect(newEvent.statusCode).toBe(200);
    expect(await balanceOf(seller)).toEqual(once);
    expect((await ledgerOf(seller)).filter((entry) => entry.kind === 'payout')).toHaveLength(1);
  });

  it('gives a paid payout back when it fails, once', async () => {
    const seller = await sellerWithSale(2000);
    const before = await balanceOf(seller);
    const po = payout(1800);
    await deliver('payout.paid', po, { account: seller.accountRef });
    expect(await balanceOf(seller)).toMatchObject({ availableCents: 0, paidOutCents: 1800 });

    const failed = { ...po, status: 'failed', failure_code: 'account_closed' };
    const back = await deliver('payout.failed', failed, { account: seller.accountRef });
    expect(back.statusCode).toBe(200);
    const after = await balanceOf(seller);
    expect(after).toEqual(before);
    expectBalanced(after);
    expect((await ledgerOf(seller)).filter((entry) => entry.kind.startsWith('payout'))).toEqual([
      expect.objectContaining({ kind: 'payout_reversal', amountCents: 1800 }),
      expect.objectContaining({ kind: 'payout', amountCents: -1800 }),
    ]);

    // The failure again (a new event): nothing changes.
    const entries = await countEntries();
    await deliver('payout.failed', failed, { account: seller.accountRef });
    expect(await balanceOf(seller)).toEqual(before);
    expect(await countEntries()).toBe(entries);
  });

  it('keeps a payout that failed before its paid event arrived given back when the paid event comes', async () => {
    const seller = await sellerWithSale(2000);
    const before = await balanceOf(seller);
    const po = payout(1800);
    // Stripe does not promise the order of events: the failure first, then the paid.
    const failed = await deliver(
      'payout.failed',
      { ...po, status: 'failed', failure_code: 'account_closed' },
      {
        account: seller.accountRef,
      },
    );
    expect(failed.statusCode).toBe(200);
    expect(await balanceOf(seller)).toEqual(before);
    const paid = await deliver('payout.paid', po, { account: seller.accountRef });
    expect(paid.statusCode).toBe(200);
    const after = await balanceOf(seller);
    expect(after).toEqual(before);
    expectBalanced(after);
    expect((await ledgerOf(seller)).filter((entry) => entry.kind.startsWith('payout'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'payout_reversal', amountCents: 1800 }),
        expect.objectContaining({ kind: 'payout', amountCents: -1800 }),
      ]),
    );
    expect((await ledgerOf(seller)).filter((entry) => entry.kind.startsWith('payout'))).toHaveLength(2);

    // A canceled payout never paid: given back at once, and its paid event (if any) changes nothing.
    const canceled = payout(500, { status: 'canceled' });
    await deliver('payout.canceled', canceled, { account: seller.accountRef });
    await deliver('payout.paid', { ...canceled, status: 'paid' }, { account: seller.accountRef });
    expect(await balanceOf(seller)).toEqual(before);
  });

  it('writes a payout only in the ledger of the seller who owns the account', async () => {
    const first = await sellerWithSale(1000);
    const second = await sellerWithSale(4000);
    const firstBefore = await balanceOf(first);

    await deliver('payout.paid', payout(3600), { account: second.accountRef });
    expect(await balanceOf(second)).toMatchObject({ availableCents: 0, paidOutCents: 3600 });
    expect(await balanceOf(first)).toEqual(firstBefore);
  });

  it("answers 200 and changes nothing for an unknown account, another currency, or the platform's own payout", async () => {
    const seller = await sellerWithSale(1500);
    const before = await balanceOf(seller);
    const entries = await countEntries();

    const unknown = await deliver('payout.paid', payout(1350), { account: 'acct_nobody' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ received: true, duplicate: false });
    const euros = await deliver('payout.paid', payout(1350, { currency: 'eur' }), {
      account: seller.accountRef,
    });
    expect(euros.statusCode).toBe(200);
    // Signed by the account endpoint and naming no connected account: our own bank payout.
    const platform = await deliver('payout.paid', payout(1350));
    expect(platform.statusCode).toBe(200);

    expect(await balanceOf(seller)).toEqual(before);
    expect(await countEntries()).toBe(entries);
  });
});
