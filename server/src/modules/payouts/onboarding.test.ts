import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeProvider } from '../../platform/payments/stripe.ts';
import { eventually } from '../../test/eventually.ts';
import { listProduct, openCheckout } from '../../test/payments.ts';
import {
  STRIPE_TEST_SETTINGS,
  type StripeApi,
  signedStripeEvent,
  startStripeApi,
} from '../../test/stripe-api.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { ALREADY_READY_MESSAGE, NO_ONBOARDING_MESSAGE, NOT_ONBOARDED_MESSAGE } from './accounts.ts';
import { platformFee } from './service.ts';

/**
 * Issue 17, payouts with Stripe Connect (ADR 0016): the whole app on the Stripe provider, whose SDK
 * talks over HTTP to a Stripe API on 127.0.0.1 that keeps accounts, PaymentIntents and refunds.
 */
const FEE_PERCENT = 2.9;
/** Where the provider posts its events (checkout's webhook route). */
const WEBHOOK_PATH = '/api/webhooks/payments';
const PUBLIC_URL = 'http://localhost:3000';

let t: TestApp;
let stripe: StripeApi;
beforeAll(async () => {
  stripe = await startStripeApi();
  const payments = stripeProvider(STRIPE_TEST_SETTINGS, { stripe: stripe.client });
  t = await buildTestApp({ platformFeePercent: FEE_PERCENT, publicUrl: PUBLIC_URL }, { payments });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const onboard = (cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/payouts/onboarding', headers: cookie ? { cookie } : {} });
const accountRefOf = async (userId: string) =>
  (await t.database.pool.query('select stripe_account_id from users where id = $1', [userId])).rows[0]
    ?.stripe_account_id as string | null;
const deliver = (type: string, object: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: WEBHOOK_PATH, ...signedStripeEvent(type, object) });

describe('payouts with Stripe Connect', () => {
  it('answers 401 before anything else when signed out', async () => {
    expect((await get('/api/payouts/account')).statusCode).toBe(401);
    expect((await onboard()).statusCode).toBe(401);
  });

  it('tells the browser that sellers must onboard', async () => {
    expect((await get('/api/payments/config')).json()).toMatchObject({
      provider: 'stripe',
      sellersOnboard: true,
    });
  });

  it('takes no paid order for a seller who has not onboarded, and the product says so', async () => {
    const seller = await signUp(t.app);
    const buyer = await signUp(t.app);
    const product = await listProduct(t, seller.cookie);
    expect((await get(`/api/products/${product.id}`)).json().seller.onboarded).toBe(false);
    expect((await get('/api/payouts/account', seller.cookie)).json()).toEqual({
      status: 'not_started',
      readySince: null,
    });

    const intentsBefore = stripe.intents.size;
    const refused = await openCheckout(t.app, buyer.cookie, product.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(NOT_ONBOARDED_MESSAGE);
    expect(stripe.intents.size).toBe(intentsBefore);
  });

  it('onboards a seller on one account however often they click, then charges to it with the fee', async () => {
    const seller = await signUp(t.app);
    const buyer = await signUp(t.app);
    const product = await listProduct(t, seller.cookie, { priceCents: 2500 });

    const clicks = await Promise.all([
      onboard(seller.cookie),
      onboard(seller.cookie),
      onboard(seller.cookie),
    ]);
    expect(clicks.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const accountRef = await accountRefOf(seller.user.id);
    expect(accountRef).toMatch(/^acct_/);
    expect([...stripe.accounts.values()].filter((a) => a.userId === seller.user.id)).toHaveLength(1);
    for (const click of clicks) expect(click.json().url).toContain(`/setup/${accountRef}/`);
    // Each click gets its own single-use link, back to the Earnings tab.
    expect(new Set(clicks.map((r) => r.json().url)).size).toBe(3);

    // Back from Stripe before finishing: still pending, still no paid orders.
    expect((await get('/api/payouts/account', seller.cookie)).json().status).toBe('pending');
    expect((await openCheckout(t.app, buyer.cookie, product.id)).statusCode).toBe(409);

    // Finished: the next look asks Stripe and records it.
    stripe.setReady(accountRef ?? '', true);
    const ready = (await get('/api/payouts/account', seller.cookie)).json();
    expect(ready.status).toBe('ready');
    expect(Date.parse(ready.readySince)).not.toBeNaN();
    expect((await get(`/api/products/${product.id}`)).json().seller.onboarded).toBe(true);
    const again = await onboard(seller.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_READY_MESSAGE);

    const checkout = await openCheckout(t.app, buyer.cookie, product.id);
    expect(checkout.statusCode).toBe(200);
    const charge = [...stripe.intents.values()].at(-1);
    expect(charge).toMatchObject({
      amount: '2500',
      'transfer_data[destination]': accountRef,
      application_fee_amount: String(platformFee(2500, FEE_PERCENT)),
    });

    // Stripe reports the payment: the order exists and the ledger's fee is the application fee.
    const paid = await deliver('payment_intent.succeeded', {
      id: charge?.id,
      object: 'payment_intent',
      amount: 2500,
      amount_received: 2500,
      metadata: { paymentId: charge?.['metadata[paymentId]'] },
      status: 'succeeded',
    });
    expect(paid.statusCode).toBe(200);
    const balance = (await get('/api/payouts/balance', seller.cookie)).json();
    expect(balance).toMatchObject({ grossCents: 2500, feeCents: platformFee(2500, FEE_PERCENT) });

    // A refund comes back from the seller's account, with the fee.
    const [order] = (await get('/api/orders?role=seller', seller.cookie)).json().orders;
    const refund = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.id}/refund`,
      headers: { cookie: seller.cookie },
    });
    expect(refund.statusCode).toBe(200);
    const refunds = await eventually(
      'the refund at Stripe',
      () => stripe.refunds.filter((r) => r.payment_intent === charge?.id),
      (found) => found.length > 0,
    );
    expect(refunds).toEqual([
      { payment_intent: charge?.id, reverse_transfer: 'true', refund_application_fee: 'true' },
    ]);
  });

  it('stops taking orders when Stripe restricts the account, and starts again when it is cleared', async () => {
    const seller = await signUp(t.app);
    const buyer = await signUp(t.app);
    const product = await listProduct(t, seller.cookie, { stock: 2 });
    await onboard(seller.cookie);
    const accountRef = (await accountRefOf(seller.user.id)) ?? '';
    stripe.setReady(accountRef, true);
    expect((await get('/api/payouts/account', seller.cookie)).json().status).toBe('ready');

    const restricted = await deliver('account.updated', {
      id: accountRef,
      object: 'account',
      payouts_enabled: false,
      capabilities: { transfers: 'inactive' },
    });
    expect(restricted.statusCode).toBe(200);
    expect((await openCheckout(t.app, buyer.cookie, product.id)).statusCode).toBe(409);
    expect((await get(`/api/products/${product.id}`)).json().seller.onboarded).toBe(false);

    await deliver('account.updated', {
      id: accountRef,
      object: 'account',
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
    });
    expect((await openCheckout(t.app, buyer.cookie, product.id)).statusCode).toBe(200);
  });

  it("answers 502 with Stripe's reason when Stripe is down, and keeps nothing half-made", async () => {
    const seller = await signUp(t.app);
    stripe.down = true;
    try {
      const response = await onboard(seller.cookie);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toMatch(/payment provider could not be reached/);
      expect(response.body).not.toContain(STRIPE_TEST_SETTINGS.secretKey);
      expect(await accountRefOf(seller.user.id)).toBeNull();
    } finally {
      stripe.down = false;
    }
    expect((await onboard(seller.cookie)).statusCode).toBe(200);
  });
});

describe('payouts with the local provider', () => {
  let local: TestApp;
  beforeAll(async () => {
    local = await buildTestApp();
  });
  afterAll(async () => {
    await local?.close();
  });

  it('needs no onboarding: the ledger is the whole story, and sellers take orders at once', async () => {
    const seller = await signUp(local.app);
    const buyer = await signUp(local.app);
    const product = await listProduct(local, seller.cookie);
    const account = await local.app.inject({
      method: 'GET',
      url: '/api/payouts/account',
      headers: { cookie: seller.cookie },
    });
    expect(account.json()).toEqual({ status: 'not_required', readySince: null });
    const onboarding = await local.app.inject({
      method: 'POST',
      url: '/api/payouts/onboarding',
      headers: { cookie: seller.cookie },
    });
    expect(onboarding.statusCode).toBe(409);
    expect(onboarding.json().message).toBe(NO_ONBOARDING_MESSAGE);
    expect((await local.app.inject({ method: 'GET', url: '/api/payments/config' })).json()).toEqual({
      provider: 'local',
      sellersOnboard: false,
    });
    expect((await openCheckout(local.app, buyer.cookie, product.id)).statusCode).toBe(200);
  });
});
