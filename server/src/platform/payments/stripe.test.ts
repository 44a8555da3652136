import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, WebhookSignatureError } from './provider.ts';
import { PRO_PRICE_LOOKUP_KEY, stripeProvider } from './stripe.ts';

const SECRET_KEY = 'sk_test_51StreamShopFakeKey';
const WEBHOOK_SECRET = 'whsec_test_streamshop';
const settings = {
  secretKey: SECRET_KEY,
  publishableKey: 'pk_test_streamshop',
  webhookSecret: WEBHOOK_SECRET,
};

// ---- Webhooks: payloads signed like Stripe signs them, no network ----

const offline = stripeProvider(settings, { stripe: new Stripe(SECRET_KEY) });
const CREATED = 1_780_000_000;

function eventPayload(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_${type.replace(/\W/g, '_')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: CREATED,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

function signed(payload: unknown, opts: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(payload);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: opts.timestamp,
  });
  return { body: Buffer.from(body), headers: { 'stripe-signature': header } };
}

async function parse(type: string, object: Record<string, unknown>) {
  const { body, headers } = signed(eventPayload(type, object));
  return offline.parseWebhook(body, headers);
}

const paymentIntent = (overrides: Record<string, unknown> = {}) => ({
  id: 'pi_3Test',
  object: 'payment_intent',
  amount: 2500,
  amount_received: 2500,
  currency: 'usd',
  client_secret: 'pi_3Test_secret_abc',
  last_payment_error: null,
  metadata: { paymentId: 'pay_1' },
  status: 'succeeded',
  ...overrides,
});

const PERIOD_START = 1_780_000_000;
const PERIOD_END = 1_782_592_000;

const invoice = (overrides: Record<string, unknown> = {}) => ({
  id: 'in_1Test',
  object: 'invoice',
  amount_paid: 900,
  currency: 'usd',
  // For a subscription invoice this is the previous period, not the paid one.
  period_end: PERIOD_START,
  parent: {
    type: 'subscription_details',
    quote_details: null,
    subscription_details: { metadata: { subscriptionId: 'sub_ours' }, subscription: 'sub_1Test' },
  },
  lines: {
    object: 'list',
    has_more: false,
    url: '/v1/invoices/in_1Test/lines',
    data: [
      {
        id: 'il_2',
        object: 'line_item',
        amount: 100,
        period: { start: PERIOD_START, end: PERIOD_START + 10 },
      },
      { id: 'il_1', object: 'line_item', amount: 900, period: { start: PERIOD_START, end: PERIOD_END } },
    ],
  },
  status: 'paid',
  ...overrides,
});

const subscription = (overrides: Record<string, unknown> = {}) => ({
  id: 'sub_1Test',
  object: 'subscription',
  cancel_at: null,
  cancel_at_period_end: false,
  customer: 'cus_Test',
  items: {
    object: 'list',
    has_more: false,
    data: [
      {
        id: 'si_Test',
        object: 'subscription_item',
        current_period_start: PERIOD_START,
        current_period_end: PERIOD_END,
        price: { id: 'price_pro', object: 'price', unit_amount: 900 },
      },
    ],
  },
  latest_invoice: 'in_1Test',
  metadata: { subscriptionId: 'sub_ours', userId: 'user_1' },
  status: 'active',
  ...overrides,
});

describe('stripe provider: webhooks', () => {
  const base = { id: expect.stringMatching(/^evt_/), createdAt: new Date(CREATED * 1000) };

  it('maps a succeeded checkout payment', async () => {
    expect(await parse('payment_intent.succeeded', paymentIntent())).toEqual({
      ...base,
      id: 'evt_payment_intent_succeeded',
      type: 'payment.succeeded',
      paymentId: 'pay_1',
      ref: 'pi_3Test',
      amountCents: 2500,
    });
    const notYetReceived = await parse('payment_intent.succeeded', paymentIntent({ amount_received: 0 }));
    expect(notYetReceived).toMatchObject({ type: 'payment.succeeded', amountCents: 2500 });
  });

  it('ignores a succeeded payment without our paymentId (a subscription invoice)', async () => {
    expect(await parse('payment_intent.succeeded', paymentIntent({ metadata: {} }))).toEqual({
      ...base,
      type: 'ignored',
      providerType: 'payment_intent.succeeded',
    });
  });

  it("maps a failed payment with Stripe's message, or a default one", async () => {
    const declined = paymentIntent({
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    expect(await parse('payment_intent.payment_failed', declined)).toEqual({
      ...base,
      type: 'payment.failed',
      paymentId: 'pay_1',
      ref: 'pi_3Test',
      message: 'Your card was declined.',
    });
    const silent = paymentIntent({ status: 'requires_payment_method', last_payment_error: null });
    expect(await parse('payment_intent.payment_failed', silent)).toMatchObject({
      type: 'payment.failed',
      message: 'Your payment could not be completed.',
    });
    const foreign = paymentIntent({ metadata: {}, status: 'requires_payment_method' });
    expect(await parse('payment_intent.payment_failed', foreign)).toMatchObject({ type: 'ignored' });
  });

  it('maps a paid subscription invoice to the end of its latest line', async () => {
    for (const type of ['invoice.paid', 'invoice.payment_succeeded']) {
      expect(await parse(type, invoice())).toEqual({
        ...base,
        type: 'subscription.paid',
        subscriptionRef: 'sub_1Test',
        // Both events name the invoice: one receipt for the two.
        invoiceRef: 'in_1Test',
        periodEnd: new Date(PERIOD_END * 1000),
      });
    }
    const expanded = invoice({
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription() } },
    });
    expect(await parse('invoice.paid', expanded)).toMatchObject({ subscriptionRef: 'sub_1Test' });
  });

  it('ignores an invoice that is not a subscription', async () => {
    expect(await parse('invoice.paid', invoice({ parent: null }))).toEqual({
      ...base,
      type: 'ignored',
      providerType: 'invoice.paid',
    });
  });

  it('maps a subscription update with the period end of its item', async () => {
    expect(
      await parse('customer.subscription.updated', subscription({ cancel_at_period_end: true })),
    ).toEqual({
      ...base,
      type: 'subscription.updated',
      subscriptionRef: 'sub_1Test',
      periodEnd: new Date(PERIOD_END * 1000),
      cancelAtPeriodEnd: true,
    });
    const noItems = subscription({ items: { object: 'list', has_more: false, data: [] } });
    expect(await parse('customer.subscription.updated', noItems)).toMatchObject({
      type: 'subscription.updated',
      periodEnd: null,
      cancelAtPeriodEnd: false,
    });
  });

  it('maps a deleted subscription to ended', async () => {
    expect(await parse('customer.subscription.deleted', subscription({ status: 'canceled' }))).toEqual({
      ...base,
      type: 'subscription.ended',
      subscriptionRef: 'sub_1Test',
    });
  });

  it('maps an account update to whether the seller can take paid orders', async () => {
    const ready = await parse('account.updated', {
      id: 'acct_1Seller',
      object: 'account',
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
    });
    expect(ready).toMatchObject({ type: 'seller.updated', accountRef: 'acct_1Seller', ready: true });
    const restricted = await parse('account.updated', {
      id: 'acct_1Seller',
      object: 'account',
      payouts_enabled: false,
      capabilities: { transfers: 'active' },
    });
    expect(restricted).toMatchObject({ type: 'seller.updated', ready: false });
  });

  const payout = (overrides: Record<string, unknown> = {}) => ({
    id: 'po_1Seller',
    object: 'payout',
    amount: 4500,
    currency: 'usd',
    status: 'paid',
    automatic: true,
    ...overrides,
  });
  /** An event of a connected account: Stripe names the account beside the object. */
  const parseConnect = (type: string, object: Record<string, unknown>, account?: string) => {
    const { body, headers } = signed({ ...eventPayload(type, object), ...(account && { account }) });
    return offline.parseWebhook(body, headers);
  };

  it("maps a connected account's payout, paid or failed, with its account, amount and currency", async () => {
    expect(await parseConnect('payout.paid', payout(), 'acct_1Seller')).toEqual({
      ...base,
      type: 'payout.paid',
      accountRef: 'acct_1Seller',
      payoutRef: 'po_1Seller',
      amountCents: 4500,
      currency: 'usd',
    });
    for (const type of ['payout.failed', 'payout.canceled']) {
      const status = type === 'payout.failed' ? 'failed' : 'canceled';
      expect(await parseConnect(type, payout({ status }), 'acct_1Seller')).toMatchObject({
        type: 'payout.failed',
        accountRef: 'acct_1Seller',
        payoutRef: 'po_1Seller',
        amountCents: 4500,
      });
    }
    const euros = await parseConnect('payout.paid', payout({ currency: 'eur' }), 'acct_1Seller');
    expect(euros).toMatchObject({ type: 'payout.paid', currency: 'eur' });
  });

  it("ignores the platform's own payouts (no connected account) and other payout events", async () => {
    expect(await parseConnect('payout.paid', payout())).toEqual({
      ...base,
      type: 'ignored',
      providerType: 'payout.paid',
    });
    expect(await parseConnect('payout.failed', payout({ status: 'failed' }))).toMatchObject({
      type: 'ignored',
    });
    expect(await parseConnect('payout.created', payout({ status: 'pending' }), 'acct_1Seller')).toMatchObject(
      {
        type: 'ignored',
        providerType: 'payout.created',
      },
    );
  });

  it('records other events as ignored', async () => {
    expect(await parse('charge.succeeded', { id: 'ch_1', object: 'charge' })).toEqual({
      ...base,
      type: 'ignored',
      providerType: 'charge.succeeded',
    });
  });

  it("accepts the Connect endpoint's events signed with its own secret, and only with a secret it was given", async () => {
    const connectSecret = 'whsec_test_streamshop_connect';
    const payload = eventPayload('account.updated', {
      id: 'acct_1Seller',
      object: 'account',
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
    });
    const { body, headers } = signed(payload, { secret: connectSecret });
    const withConnect = stripeProvider(
      { ...settings, connectWebhookSecret: connectSecret },
      { stripe: new Stripe(SECRET_KEY) },
    );
    await expect(withConnect.parseWebhook(body, headers)).resolves.toMatchObject({ type: 'seller.updated' });
    // Account events still verify with the account endpoint's secret.
    const account = signed(eventPayload('customer.subscription.deleted', subscription()));
    await expect(withConnect.parseWebhook(account.body, account.headers)).resolves.toMatchObject({
      type: 'subscription.ended',
    });
    await expect(offline.parseWebhook(body, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('rejects a payload signed with another secret', async () => {
    const { body, headers } = signed(eventPayload('payment_intent.succeeded', paymentIntent()), {
      secret: 'whsec_attacker',
    });
    await expect(offline.parseWebhook(body, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('rejects a payload changed after signing', async () => {
    const { headers } = signed(eventPayload('payment_intent.succeeded', paymentIntent()));
    const forged = Buffer.from(
      JSON.stringify(eventPayload('payment_intent.succeeded', paymentIntent({ amount: 1 }))),
    );
    await expect(offline.parseWebhook(forged, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('rejects a missing or malformed signature header', async () => {
    const { body } = signed(eventPayload('payment_intent.succeeded', paymentIntent()));
    await expect(offline.parseWebhook(body, {})).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(offline.parseWebhook(body, { 'stripe-signature': '' })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(offline.parseWebhook(body, { 'stripe-signature': 'garbage' })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(offline.parseWebhook(body, { 'stripe-signature': ['a', 'b'] })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it('rejects a signature older than the tolerance (a replay)', async () => {
    const tolerance = Stripe.webhooks.DEFAULT_TOLERANCE;
    const old = Math.floor(Date.now() / 1000) - tolerance - 60;
    const { body, headers } = signed(eventPayload('payment_intent.succeeded', paymentIntent()), {
      timestamp: old,
    });
    const error = await offline.parseWebhook(body, headers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect((error as Error).message).toMatch(/tolerance/i);
  });
});

// ---- API calls: the SDK talks to a small fake of the Stripe API on 127.0.0.1 ----

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
}
type Answer = { status?: number; body: unknown };

let requests: RecordedRequest[] = [];
let answer: (req: RecordedRequest) => Answer = () => ({ status: 500, body: {} });

const fakeApi = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(Buffer.concat(chunks).toString()),
      headers: req.headers,
    };
    requests.push(recorded);
    const { status = 200, body } = answer(recorded);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
    res.end(JSON.stringify(body));
  });
});

let api: Stripe;
beforeAll(async () => {
  fakeApi.listen(0, '127.0.0.1');
  await once(fakeApi, 'listening');
  const { port } = fakeApi.address() as AddressInfo;
  api = new Stripe(SECRET_KEY, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
});
afterAll(async () => {
  fakeApi.close();
  await once(fakeApi, 'close');
});
beforeEach(() => {
  requests = [];
});

const stripeError = (status: number, error: Record<string, unknown>): Answer => ({ status, body: { error } });
const list = (data: unknown[]) => ({ object: 'list', data, has_more: false, url: '/v1/prices' });

describe('stripe provider: API calls', () => {
  it('gives the browser the publishable key', () => {
    expect(stripeProvider(settings, { stripe: api }).clientConfig()).toEqual({
      provider: 'stripe',
      publishableKey: 'pk_test_streamshop',
      sellersOnboard: true,
    });
  });

  it('creates a PaymentIntent carrying our payment id, idempotent per payment', async () => {
    answer = () => ({ body: paymentIntent({ status: 'requires_payment_method', amount_received: 0 }) });
    const provider = stripeProvider(settings, { stripe: api });
    const session = await provider.createPayment({
      paymentId: 'pay_1',
      amountCents: 2500,
      description: 'Lamp',
    });

    expect(session).toEqual({ ref: 'pi_3Test', clientSecret: 'pi_3Test_secret_abc' });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/payment_intents');
    expect(req?.headers['idempotency-key']).toBe('payment-pay_1');
    expect(req?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(req?.form ?? [])).toEqual({
      amount: '2500',
      currency: 'usd',
      'automatic_payment_methods[enabled]': 'true',
      description: 'Lamp',
      'metadata[paymentId]': 'pay_1',
    });
  });

  it('opens a hosted Checkout Session whose PaymentIntent carries our payment id', async () => {
    answer = () => ({
      body: {
        id: 'cs_test_1',
        object: 'checkout.session',
        url: 'https://checkout.stripe.com/c/pay/cs_test_1',
      },
    });
    const hosted = await stripeProvider(settings, { stripe: api }).createHostedPayment({
      paymentId: 'pay_2',
      amountCents: 100,
      description: 'Stream Disc reservation',
      email: 'fan@example.com',
      successUrl: 'http://localhost:3000/stream-disc?preorder=success',
      cancelUrl: 'http://localhost:3000/stream-disc?preorder=cancelled',
    });
    expect(hosted).toEqual({ ref: 'cs_test_1', url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    const [req] = requests;
    expect(req?.path).toBe('/v1/checkout/sessions');
    expect(req?.headers['idempotency-key']).toBe('hosted-pay_2');
    expect(Object.fromEntries(req?.form ?? [])).toMatchObject({
      mode: 'payment',
      customer_email: 'fan@example.com',
      'line_items[0][price_data][unit_amount]': '100',
      'payment_intent_data[metadata][paymentId]': 'pay_2',
      success_url: 'http://localhost:3000/stream-disc?preorder=success',
      cancel_url: 'http://localhost:3000/stream-disc?preorder=cancelled',
    });
  });

  it('cancels an unpaid PaymentIntent', async () => {
    answer = () => ({ body: paymentIntent({ status: 'canceled', amount_received: 0 }) });
    const result = await stripeProvider(settings, { stripe: api }).cancelPayment('pi_3Test');
    expect(result).toBe('canceled');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/payment_intents/pi_3Test/cancel',
    ]);
  });

  it('answers succeeded when the buyer paid before the cancel', async () => {
    answer = (req) =>
      req.method === 'POST'
        ? stripeError(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message:
              'You cannot cancel this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.',
          })
        : { body: paymentIntent() };
    const result = await stripeProvider(settings, { stripe: api }).cancelPayment('pi_3Test');
    expect(result).toBe('succeeded');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/payment_intents/pi_3Test/cancel',
      'GET /v1/payment_intents/pi_3Test',
    ]);
  });

  it('answers canceled when it was already canceled, and fails while it cannot tell', async () => {
    const unexpectedState = stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: 'You cannot cancel this PaymentIntent because it has a status of canceled.',
    });
    let status = 'canceled';
    answer = (req) => (req.method === 'POST' ? unexpectedState : { body: paymentIntent({ status }) });
    const provider = stripeProvider(settings, { stripe: api });
    expect(await provider.cancelPayment('pi_3Test')).toBe('canceled');

    status = 'processing';
    await expect(provider.cancelPayment('pi_3Test')).rejects.toThrow(ProviderError);
  });

  it('refunds a PaymentIntent once, and takes "already refunded" as done', async () => {
    let refundAnswer: Answer = {
      body: { id: 're_1', object: 'refund', amount: 2500, payment_intent: 'pi_3Test', status: 'succeeded' },
    };
    answer = (req) =>
      req.method === 'GET' ? { body: paymentIntent({ transfer_data: null }) } : refundAnswer;
    const provider = stripeProvider(settings, { stripe: api });
    await provider.refundPayment('pi_3Test');
    expect(requests.map((req) => `${req.method} ${req.path}`)).toEqual([
      'GET /v1/payment_intents/pi_3Test',
      'POST /v1/refunds',
    ]);
    expect(Object.fromEntries(requests[1]?.form ?? [])).toEqual({ payment_intent: 'pi_3Test' });
    expect(requests[1]?.headers['idempotency-key']).toBe('refund-pi_3Test');

    refundAnswer = stripeError(400, {
      type: 'invalid_request_error',
      code: 'charge_already_refunded',
      message: 'Charge ch_3Test has already been refunded.',
    });
    await expect(provider.refundPayment('pi_3Test')).resolves.toBeUndefined();
  });

  it("refunds a destination charge from the seller's account, with the platform's fee", async () => {
    answer = (req) =>
      req.method === 'GET'
        ? {
            body: paymentIntent({
              transfer_data: { destination: 'acct_1Seller' },
              application_fee_amount: 73,
            }),
          }
        : { body: { id: 're_2', object: 'refund', payment_intent: 'pi_3Test', status: 'pending' } };
    await stripeProvider(settings, { stripe: api }).refundPayment('pi_3Test');
    expect(Object.fromEntries(requests[1]?.form ?? [])).toEqual({
      payment_intent: 'pi_3Test',
      reverse_transfer: 'true',
      refund_application_fee: 'true',
    });
  });

  it('makes a destination charge to the seller with the application fee', async () => {
    answer = () => ({ body: paymentIntent({ status: 'requires_payment_method', amount_received: 0 }) });
    await stripeProvider(settings, { stripe: api }).createPayment({
      paymentId: 'pay_2',
      amountCents: 2500,
      description: 'Lamp',
      transfer: { accountRef: 'acct_1Seller', feeCents: 73 },
    });
    expect(requests[0]?.form.get('transfer_data[destination]')).toBe('acct_1Seller');
    expect(requests[0]?.form.get('application_fee_amount')).toBe('73');
    expect(requests[0]?.form.get('amount')).toBe('2500');
  });

  it('opens an Express account once per seller, links to its onboarding, and reads whether it is ready', async () => {
    const account = (overrides: Record<string, unknown> = {}) => ({
      id: 'acct_1Seller',
      object: 'account',
      type: 'express',
      payouts_enabled: false,
      capabilities: { transfers: 'inactive' },
      ...overrides,
    });
    let current = account();
    answer = (req) => {
      if (req.path === '/v1/accounts') return { body: account() };
      if (req.path === '/v1/account_links') {
        return { body: { object: 'account_link', url: 'https://connect.stripe.com/setup/e/acct_1Seller/x' } };
      }
      return { body: current };
    };
    const accounts = stripeProvider(settings, { stripe: api }).sellerAccounts;
    if (!accounts) throw new Error('Stripe has seller accounts');

    await expect(accounts.create({ userId: 'user_7', email: 'ana@example.com' })).resolves.toBe(
      'acct_1Seller',
    );
    expect(requests[0]?.headers['idempotency-key']).toBe('seller-account-user_7');
    expect(Object.fromEntries(requests[0]?.form ?? [])).toMatchObject({
      type: 'express',
      email: 'ana@example.com',
      'capabilities[transfers][requested]': 'true',
      'metadata[userId]': 'user_7',
    });

    const url = await accounts.onboardingLink('acct_1Seller', {
      returnUrl: 'https://shop.example/dashboard?tab=earnings&onboarding=return',
      refreshUrl: 'https://shop.example/dashboard?tab=earnings&onboarding=refresh',
    });
    expect(url).toBe('https://connect.stripe.com/setup/e/acct_1Seller/x');
    expect(Object.fromEntries(requests[1]?.form ?? [])).toEqual({
      account: 'acct_1Seller',
      type: 'account_onboarding',
      return_url: 'https://shop.example/dashboard?tab=earnings&onboarding=return',
      refresh_url: 'https://shop.example/dashboard?tab=earnings&onboarding=refresh',
    });

    await expect(accounts.ready('acct_1Seller')).resolves.toBe(false);
    current = account({ payouts_enabled: true, capabilities: { transfers: 'pending' } });
    await expect(accounts.ready('acct_1Seller')).resolves.toBe(false);
    current = account({ payouts_enabled: true, capabilities: { transfers: 'active' } });
    await expect(accounts.ready('acct_1Seller')).resolves.toBe(true);
    expect(requests[2]?.path).toBe('/v1/accounts/acct_1Seller');
  });

  it("turns other Stripe errors into a ProviderError with Stripe's message and no key", async () => {
    answer = () =>
      stripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_intent',
        message: "No such payment_intent: 'pi_missing'",
      });
    const provider = stripeProvider(settings, { stripe: api });
    const error = await provider.refundPayment('pi_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain("No such payment_intent: 'pi_missing'");
    expect((error as Error).message).toContain('resource_missing');

    answer = () =>
      stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${SECRET_KEY}` });
    const auth = await provider
      .createPayment({ paymentId: 'p', amountCents: 1, description: 'x' })
      .catch((e) => e);
    expect(auth).toBeInstanceOf(ProviderError);
    expect((auth as Error).message).toContain('Invalid API Key provided');
    expect((auth as Error).message).not.toContain(SECRET_KEY);
  });

  it('opens a subscription on the Pro price, creating the price once', async () => {
    const created: string[] = [];
    answer = (req) => {
      const route = `${req.method} ${req.path}`;
      created.push(route);
      if (route === 'GET /v1/prices') return { body: list([]) };
      if (route === 'POST /v1/prices') {
        return {
          body: { id: 'price_pro', object: 'price', unit_amount: 900, lookup_key: PRO_PRICE_LOOKUP_KEY },
        };
      }
      if (route === 'POST /v1/customers') return { body: { id: 'cus_Test', object: 'customer' } };
      if (route === 'POST /v1/subscriptions') {
        return {
          body: subscription({
            status: 'incomplete',
            latest_invoice: invoice({
              status: 'open',
              confirmation_secret: { client_secret: 'pi_3Sub_secret_xyz', type: 'payment_intent' },
            }),
          }),
        };
      }
      return stripeError(404, {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${route})`,
      });
    };
    const provider = stripeProvider(settings, { stripe: api });
    const input = {
      subscriptionId: 'sub_ours',
      userId: 'user_1',
      email: 'ada@example.com',
      amountCents: 900,
    };

    expect(await provider.createSubscription(input)).toEqual({
      ref: 'sub_1Test',
      clientSecret: 'pi_3Sub_secret_xyz',
    });

    const [lookup, price, customer, sub] = requests;
    expect(lookup?.query.getAll('lookup_keys[0]')).toEqual([PRO_PRICE_LOOKUP_KEY]);
    expect(Object.fromEntries(price?.form ?? [])).toMatchObject({
      currency: 'usd',
      unit_amount: '900',
      'recurring[interval]': 'month',
      lookup_key: PRO_PRICE_LOOKUP_KEY,
      transfer_lookup_key: 'true',
      'product_data[name]': 'StreamShop Pro',
    });
    expect(Object.fromEntries(customer?.form ?? [])).toEqual({
      email: 'ada@example.com',
      'metadata[userId]': 'user_1',
    });
    expect(customer?.headers['idempotency-key']).toBe('customer-sub_ours');
    expect(Object.fromEntries(sub?.form ?? [])).toEqual({
      customer: 'cus_Test',
      'items[0][price]': 'price_pro',
      payment_behavior: 'default_incomplete',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'expand[0]': 'latest_invoice.confirmation_secret',
      'metadata[subscriptionId]': 'sub_ours',
      'metadata[userId]': 'user_1',
    });
    expect(sub?.headers['idempotency-key']).toBe('subscription-sub_ours');

    // The price is remembered: the next subscription goes straight to customer + subscription.
    created.length = 0;
    await provider.createSubscription({ ...input, subscriptionId: 'sub_two' });
    expect(created).toEqual(['POST /v1/customers', 'POST /v1/subscriptions']);
  });

  it('reuses the Pro price found by its lookup key', async () => {
    answer = (req) => {
      if (req.path === '/v1/prices') {
        return {
          body: list([
            {
              id: 'price_existing',
              object: 'price',
              currency: 'usd',
              unit_amount: 900,
              recurring: { interval: 'month', interval_count: 1 },
              lookup_key: PRO_PRICE_LOOKUP_KEY,
            },
          ]),
        };
      }
      if (req.path === '/v1/customers') return { body: { id: 'cus_Test', object: 'customer' } };
      return {
        body: subscription({
          latest_invoice: invoice({
            confirmation_secret: { client_secret: 'secret_2', type: 'payment_intent' },
          }),
        }),
      };
    };
    const provider = stripeProvider(settings, { stripe: api });
    await provider.createSubscription({
      subscriptionId: 's',
      userId: 'u',
      email: 'u@example.com',
      amountCents: 900,
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/prices',
      'POST /v1/customers',
      'POST /v1/subscriptions',
    ]);
    expect(requests[2]?.form.get('items[0][price]')).toBe('price_existing');
  });

  it('schedules the cancel at the period end', async () => {
    answer = () => ({ body: subscription({ cancel_at_period_end: true }) });
    await stripeProvider(settings, { stripe: api }).cancelSubscriptionAtPeriodEnd('sub_1Test');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.path).toBe('/v1/subscriptions/sub_1Test');
    expect(requests[0]?.form.get('cancel_at_period_end')).toBe('true');
  });

  it('refunds every paid invoice of a subscription, then ends it now', async () => {
    const paidInvoice = (id: string, intent: string) => ({
      ...invoice({ id, status: 'paid' }),
      payments: list([
        {
          id: `inpay_${id}`,
          object: 'invoice_payment',
          status: 'paid',
          payment: { type: 'payment_intent', payment_intent: intent },
        },
      ]),
    });
    answer = (req) => {
      if (req.path === '/v1/invoices')
        return { body: list([paidInvoice('in_2', 'pi_2'), paidInvoice('in_1', 'pi_1')]) };
      if (req.path === '/v1/refunds') {
        return {
          body: {
            id: 're_1',
            object: 'refund',
            payment_intent: req.form.get('payment_intent'),
            status: 'succeeded',
          },
        };
      }
      return { body: subscription({ status: 'canceled' }) };
    };
    await stripeProvider(settings, { stripe: api }).refundSubscription('sub_1Test');
    expect(requests.map((req) => `${req.method} ${req.path}`)).toEqual([
      'GET /v1/invoices',
      'POST /v1/refunds',
      'POST /v1/refunds',
      'DELETE /v1/subscriptions/sub_1Test',
    ]);
    expect(requests[0]?.query.get('subscription')).toBe('sub_1Test');
    expect(requests[0]?.query.get('status')).toBe('paid');
    expect([...(requests[0]?.query.entries() ?? [])]).toContainEqual(['expand[0]', 'data.payments']);
    expect(requests.slice(1, 3).map((req) => req.headers['idempotency-key'])).toEqual([
      'refund-pi_2',
      'refund-pi_1',
    ]);
  });

  it('takes an already ended subscription as ended, and fails while it is still running', async () => {
    let status = 'canceled';
    answer = (req) => {
      if (req.path === '/v1/invoices') return { body: list([]) };
      if (req.method === 'DELETE') {
        return stripeError(400, { type: 'invalid_request_error', message: 'This subscription is canceled.' });
      }
      return { body: subscription({ status }) };
    };
    const provider = stripeProvider(settings, { stripe: api });
    await expect(provider.refundSubscription('sub_1Test')).resolves.toBeUndefined();
    status = 'active';
    await expect(provider.refundSubscription('sub_1Test')).rejects.toThrow(
      /Stripe subscription refund failed: This subscription is canceled/,
    );
  });

  it('reports a Stripe outage as a ProviderError', async () => {
    answer = () => stripeError(500, { type: 'api_error', message: 'An unknown error occurred' });
    const provider = stripeProvider(settings, { stripe: api });
    await expect(provider.cancelSubscriptionAtPeriodEnd('sub_1Test')).rejects.toThrow(
      /Stripe subscription cancellation failed: An unknown error occurred/,
    );
  });
});

describe('stripe provider: saved cards', () => {
  const setupIntent = (overrides: Record<string, unknown> = {}) => ({
    id: 'seti_1Test',
    object: 'setup_intent',
    client_secret: 'seti_1Test_secret_abc',
    customer: 'cus_Buyer',
    status: 'requires_payment_method',
    usage: 'off_session',
    payment_method: null,
    ...overrides,
  });
  const cardMethod = {
    id: 'pm_1Card',
    object: 'payment_method',
    type: 'card',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 },
  };
  const charge = {
    paymentId: 'pay_auction_1',
    amountCents: 4200,
    description: 'Auction win',
    customerRef: 'cus_Buyer',
    methodRef: 'pm_1Card',
  };

  it('makes a customer (once per account) and an off-session SetupIntent for a first card', async () => {
    answer = (req) =>
      req.path === '/v1/customers'
        ? { body: { id: 'cus_Buyer', object: 'customer' } }
        : { body: setupIntent() };
    const provider = stripeProvider(settings, { stripe: api });
    const setup = await provider.createCardSetup({
      userId: 'user_1',
      email: 'ada@example.com',
      customerRef: null,
    });

    expect(setup).toEqual({
      customerRef: 'cus_Buyer',
      setupRef: 'seti_1Test',
      clientSecret: 'seti_1Test_secret_abc',
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/setup_intents',
    ]);
    expect(requests[0]?.headers['idempotency-key']).toBe('customer-cards-user_1');
    expect(Object.fromEntries(requests[0]?.form ?? [])).toEqual({
      email: 'ada@example.com',
      'metadata[userId]': 'user_1',
    });
    expect(Object.fromEntries(requests[1]?.form ?? [])).toEqual({
      customer: 'cus_Buyer',
      usage: 'off_session',
      'allowed_payment_method_types[0]': 'card',
      'metadata[userId]': 'user_1',
    });
  });

  it("reuses the account's customer for a later card", async () => {
    answer = () => ({ body: setupIntent() });
    const provider = stripeProvider(settings, { stripe: api });
    await provider.createCardSetup({ userId: 'user_1', email: 'ada@example.com', customerRef: 'cus_Buyer' });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/setup_intents']);
  });

  it('reads the saved card of a succeeded setup only', async () => {
    let status = 'requires_payment_method';
    answer = () => ({
      body: setupIntent({ status, payment_method: status === 'succeeded' ? cardMethod : null }),
    });
    const provider = stripeProvider(settings, { stripe: api });
    expect(await provider.savedCard('seti_1Test')).toBeNull();
    expect(requests[0]?.path).toBe('/v1/setup_intents/seti_1Test');
    expect(requests[0]?.query.get('expand[0]')).toBe('payment_method');

    status = 'succeeded';
    expect(await provider.savedCard('seti_1Test')).toEqual({
      customerRef: 'cus_Buyer',
      methodRef: 'pm_1Card',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2031,
    });
  });

  it('answers null for an unknown setup, and a ProviderError when Stripe fails', async () => {
    answer = () =>
      stripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: 'No such setupintent',
      });
    const provider = stripeProvider(settings, { stripe: api });
    expect(await provider.savedCard('seti_nope')).toBeNull();
    answer = () => stripeError(500, { type: 'api_error', message: 'An unknown error occurred' });
    await expect(provider.savedCard('seti_1Test')).rejects.toThrow(ProviderError);
  });

  it('detaches a card, and takes an already detached one as done', async () => {
    answer = () => ({ body: { ...cardMethod, customer: null } });
    const provider = stripeProvider(settings, { stripe: api });
    await provider.detachCard('pm_1Card');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/payment_methods/pm_1Card/detach',
    ]);
    answer = () =>
      stripeError(400, {
        type: 'invalid_request_error',
        message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
      });
    await expect(provider.detachCard('pm_1Card')).resolves.toBeUndefined();
    answer = () => stripeError(500, { type: 'api_error', message: 'An unknown error occurred' });
    await expect(provider.detachCard('pm_1Card')).rejects.toThrow(ProviderError);
  });

  it('charges a saved card off-session, idempotent per payment, as a destination charge when asked', async () => {
    answer = () => ({ body: paymentIntent({ id: 'pi_3Saved', amount: 4200, amount_received: 4200 }) });
    const provider = stripeProvider(settings, { stripe: api });
    const result = await provider.chargeSavedCard({
      ...charge,
      transfer: { accountRef: 'acct_1Seller', feeCents: 122 },
    });
    expect(result).toEqual({ status: 'succeeded', ref: 'pi_3Saved' });
    const [req] = requests;
    expect(req?.path).toBe('/v1/payment_intents');
    expect(req?.headers['idempotency-key']).toBe('charge-saved:pay_auction_1');
    expect(Object.fromEntries(req?.form ?? [])).toEqual({
      amount: '4200',
      currency: 'usd',
      customer: 'cus_Buyer',
      payment_method: 'pm_1Card',
      off_session: 'true',
      confirm: 'true',
      description: 'Auction win',
      'metadata[paymentId]': 'pay_auction_1',
      'transfer_data[destination]': 'acct_1Seller',
      application_fee_amount: '122',
    });
  });

  it("answers a card decline, or the bank's need for the buyer, as declined with the intent", async () => {
    const cardError = (code: string, message: string) =>
      stripeError(402, {
        type: 'card_error',
        code,
        message,
        payment_intent: paymentIntent({ id: 'pi_3Declined', status: 'requires_payment_method' }),
      });
    answer = () => cardError('card_declined', 'Your card was declined.');
    const provider = stripeProvider(settings, { stripe: api });
    expect(await provider.chargeSavedCard(charge)).toEqual({
      status: 'declined',
      ref: 'pi_3Declined',
      message: 'Your card was declined.',
    });
    answer = () => cardError('authentication_required', 'This payment requires authentication.');
    expect(await provider.chargeSavedCard(charge)).toMatchObject({
      status: 'declined',
      ref: 'pi_3Declined',
      message: expect.stringMatching(/confirm this payment/),
    });
  });

  it('throws a ProviderError for anything but a decline', async () => {
    answer = () => stripeError(500, { type: 'api_error', message: 'An unknown error occurred' });
    const provider = stripeProvider(settings, { stripe: api });
    await expect(provider.chargeSavedCard(charge)).rejects.toThrow(
      /Stripe saved card charge failed: An unknown error occurred/,
    );
  });
});
