import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small Stripe API on 127.0.0.1 that keeps state, for tests that run the whole app on the Stripe
 * provider: Connect accounts and their onboarding links, PaymentIntents (destination charges
 * included) and refunds. The official SDK talks to it over HTTP exactly as to Stripe; what it
 * answers follows Stripe's documented shapes for the fields the provider reads.
 */
export interface StripeApi {
  /** The SDK, pointed at this server. */
  client: Stripe;
  accounts: Map<string, { id: string; email: string; ready: boolean; userId: string }>;
  intents: Map<string, Record<string, string>>;
  refunds: Array<Record<string, string>>;
  /** Each request as `METHOD /path`. */
  calls: string[];
  /** Answer 503 to every call (a Stripe outage) while true. */
  down: boolean;
  /** The account finished onboarding (or was restricted again). */
  setReady(accountId: string, ready: boolean): void;
  close(): Promise<void>;
}

export const STRIPE_TEST_SETTINGS = {
  secretKey: 'sk_test_51StreamShopApiFake',
  publishableKey: 'pk_test_streamshop',
  webhookSecret: 'whsec_test_streamshop_api',
  /** The Connect endpoint's secret: events of sellers' connected accounts are signed with it. */
  connectWebhookSecret: 'whsec_test_streamshop_api_connect',
};

export async function startStripeApi(): Promise<StripeApi> {
  const byIdempotencyKey = new Map<string, unknown>();
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}_${(++sequence).toString().padStart(6, '0')}`;

  const account = (id: string) => {
    const found = api.accounts.get(id);
    if (!found) return undefined;
    return {
      id,
      object: 'account',
      type: 'express',
      email: found.email,
      metadata: { userId: found.userId },
      payouts_enabled: found.ready,
      charges_enabled: found.ready,
      details_submitted: found.ready,
      capabilities: { transfers: found.ready ? 'active' : 'inactive' },
    };
  };
  const intent = (fields: Record<string, string>) => ({
    id: fields.id,
    object: 'payment_intent',
    amount: Number(fields.amount),
    amount_received: fields.status === 'succeeded' ? Number(fields.amount) : 0,
    currency: fields.currency,
    status: fields.status,
    client_secret: `${fields.id}_secret_test`,
    description: fields.description ?? null,
    metadata: { paymentId: fields['metadata[paymentId]'] },
    application_fee_amount: fields.application_fee_amount ? Number(fields.application_fee_amount) : null,
    transfer_data: fields['transfer_data[destination]']
      ? { destination: fields['transfer_data[destination]'] }
      : null,
  });

  function route(method: string, path: string, form: Record<string, string>): [number, unknown] {
    if (method === 'POST' && path === '/v1/accounts') {
      const id = nextId('acct');
      api.accounts.set(id, {
        id,
        email: form.email ?? '',
        userId: form['metadata[userId]'] ?? '',
        ready: false,
      });
      return [200, account(id)];
    }
    const accountMatch = path.match(/^\/v1\/accounts\/(acct_\w+)$/);
    if (method === 'GET' && accountMatch) {
      const found = account(accountMatch[1] ?? '');
      return found ? [200, found] : notFound('account');
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!api.accounts.has(form.account ?? '')) return notFound('account');
      return [
        200,
        {
          object: 'account_link',
          url: `https://connect.stripe.test/setup/${form.account}/${nextId('link')}`,
          expires_at: Math.floor(Date.now() / 1000) + 300,
        },
      ];
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = nextId('pi');
      const fields = { ...form, id, status: 'requires_payment_method' };
      api.intents.set(id, fields);
      return [200, intent(fields)];
    }
    const intentMatch = path.match(/^\/v1\/payment_intents\/(pi_\w+)(\/cancel)?$/);
    if (intentMatch) {
      const fields = api.intents.get(intentMatch[1] ?? '');
      if (!fields) return notFound('payment_intent');
      if (method === 'POST' && intentMatch[2]) fields.status = 'canceled';
      return [200, intent(fields)];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      api.refunds.push(form);
      return [
        200,
        { id: nextId('re'), object: 'refund', payment_intent: form.payment_intent, status: 'succeeded' },
      ];
    }
    return notFound(path);
  }

  const notFound = (what: string): [number, unknown] => [
    404,
    { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  ];

  function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    api.calls.push(`${method} ${path}`);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${sequence}` });
      res.end(JSON.stringify(payload));
    };
    if (api.down) {
      send(503, { error: { type: 'api_error', message: 'Stripe is unavailable (test outage)' } });
      return;
    }
    const key = req.headers['idempotency-key'];
    const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
    if (replay) {
      send(200, replay);
      return;
    }
    const [status, payload] = route(method, path, Object.fromEntries(new URLSearchParams(body)));
    if (typeof key === 'string' && status === 200) byIdempotencyKey.set(key, payload);
    send(status, payload);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const api: StripeApi = {
    client: new Stripe(STRIPE_TEST_SETTINGS.secretKey, {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    }),
    accounts: new Map(),
    intents: new Map(),
    refunds: [],
    calls: [],
    down: false,
    setReady(accountId, ready) {
      const found = api.accounts.get(accountId);
      if (!found) throw new Error(`no account ${accountId}`);
      found.ready = ready;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  return api;
}

/**
 * A Stripe event signed with the test webhook secret, ready to POST to the app's webhook. With
 * `account`, an event of that connected account, signed as the Connect endpoint signs it.
 */
export function signedStripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; account?: string } = {},
) {
  const body = JSON.stringify({
    id: options.id ?? `evt_${Math.random().toString(36).slice(2)}`,
    ...(options.account && { account: options.account }),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.account ? STRIPE_TEST_SETTINGS.connectWebhookSecret : STRIPE_TEST_SETTINGS.webhookSecret,
  });
  return { payload: body, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } };
}
