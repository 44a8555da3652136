/**
 * Checkout under a drop (ADR 0006: stock is reserved when the payment session opens).
 *
 * 500 buyers (by default) try to buy ONE product that has 100 units, all at the same moment, on
 * 127.0.0.1. Each buyer opens checkout (POST /api/checkout/:id: 200 with a client secret, or 409
 * when every unit is sold or held) and, with a session, pays with the local provider's success
 * card 4242 4242 4242 4242 (POST /api/payments/local/confirm, which hands the signed webhook to
 * POST /api/webhooks/payments before it answers; the webhook creates the order). The run records
 * the time of each step and of the whole purchase (open checkout → payment answered), then checks
 * the invariants: exactly `stock` orders, final stock 0, no oversell, no order twice for one
 * payment or one buyer, no status other than 200/409, and a second confirm of a paid session is
 * refused with 409.
 *
 * The server is the real one (server/src/main.ts) in a child process on a free port, with a fresh
 * temp DATA_DIR (embedded PGlite), or on PostgreSQL when `--database-url=postgres://…` or the
 * DATABASE_URL environment variable names a server: then in a fresh database created on it for
 * this run and dropped at the end. The clients (plain fetch) run in this process.
 *
 * Setup, not measured: one category is inserted before the server starts (there is no API for
 * categories, and SEED_DEMO=false keeps the demo catalogue out); the seller and the buyers sign up
 * through the real route (argon2 included). Sign-up allows 20 accounts per client address per
 * hour and checkout 10 open holds per address, so the server runs with TRUST_PROXY=true and each
 * batch of 10 accounts signs up and checks out with its own X-Forwarded-For address: the limits
 * apply exactly as to 10 real clients each. The seller lists
 * the product through POST /api/products. A warm-up (20 buyers buying a second product, not
 * measured) runs the checkout code paths once before the burst.
 *
 * Baseline, measured in the same run at the same concurrency and in the same one-burst shape:
 * GET /api/products/:id of the same product (one read of the row the checkouts lock) and
 * GET /api/health (`select 1`).
 *
 * Counting, after the burst: orders through the API (the seller's analytics, and every buyer's
 * GET /api/orders), then, once the server has stopped, the database itself (orders, distinct
 * payments and buyers of the product, final stock, payments by status, webhook deliveries).
 *
 *   npm run bench -- checkout [--buyers=N] [--stock=N] [--concurrency=N] [--database-url=postgres://…]
 *                             [--reconfirm=N] [--warmup=N] [--max-seconds=S]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) The whole run stops by itself
 * after --max-seconds (default 120): the server is stopped, the temp folder and the database
 * removed, and the exit code is 3.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { percentile, type Row, report } from './report.ts';
import {
  type Account,
  type AppServer,
  type Client,
  card,
  cliFlags,
  countBy,
  cpuSeconds,
  createStorage,
  fixed,
  insertCategory,
  listProduct as listProductVia,
  runPool,
  type Storage,
  signUpAll as signUpAllVia,
  sleep,
  startAppServer,
  client as webClient,
  withDatabase,
} from './support.ts';

const DEFAULTS = { buyers: 500, stock: 100, reconfirm: 20, warmup: 20, maxSeconds: 120 };
const SIGNUP_CONCURRENCY = 8;

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface Options {
  buyers: number;
  stock: number;
  concurrency: number;
  reconfirm: number;
  warmup: number;
  maxSeconds: number;
  /** The PostgreSQL server to create the run's database on; absent: PGlite. */
  databaseUrl: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const buyers = number('buyers', DEFAULTS.buyers, 1, 5000);
  const databaseUrl = value('database-url') || process.env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  return {
    buyers,
    stock: number('stock', DEFAULTS.stock, 1, 100_000),
    concurrency: number('concurrency', buyers, 1, 5000),
    reconfirm: number('reconfirm', DEFAULTS.reconfirm, 0, 5000),
    warmup: number('warmup', DEFAULTS.warmup, 0, 1000),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 10, 3600),
    databaseUrl,
  };
}

// ---------------------------------------------------------------------------------------------
// The hard cap: every request and every wait listens to this signal
// ---------------------------------------------------------------------------------------------

const stopAll = new AbortController();

function checkNotStopped(): void {
  if (stopAll.signal.aborted) throw stopAll.signal.reason;
}

// ---------------------------------------------------------------------------------------------
// Setup through the API (the helpers are in support.ts; every request listens to the hard cap)
// ---------------------------------------------------------------------------------------------

const client = (base: string): Client => webClient(base, stopAll.signal);
const startServer = (storage: Storage): Promise<AppServer> =>
  startAppServer(storage, { signal: stopAll.signal });
const signUpAll = (api: Client, handles: string[]): Promise<Account[]> =>
  signUpAllVia(api, handles, {
    concurrency: SIGNUP_CONCURRENCY,
    businessName: 'Checkout Bench Records',
    signal: stopAll.signal,
  });
const listProduct = (api: Client, seller: Account, categoryId: number, title: string, stock: number) =>
  listProductVia(api, seller, { categoryId, title, stock });

// ---------------------------------------------------------------------------------------------
// The purchase
// ---------------------------------------------------------------------------------------------

interface Purchase {
  buyer: number;
  /** performance.now() at the start of the purchase. */
  startedAt: number;
  checkout: { status: number; ms: number; endedAt: number; error?: string; code?: string };
  clientSecret?: string;
  confirm?: { status: number; ms: number; endedAt: number; outcome?: string; error?: string };
  /** Open checkout → payment answered, for purchases whose payment succeeded. */
  totalMs?: number;
}

async function purchase(api: Client, buyer: Account, index: number, productId: string): Promise<Purchase> {
  const startedAt = performance.now();
  // From the buyer's own address, as a real client: open holds are capped per address.
  const opened = await api.request('POST', `/api/checkout/${productId}`, {
    cookie: buyer.cookie,
    forwardedFor: buyer.address,
  });
  const result: Purchase = {
    buyer: index,
    startedAt,
    checkout: {
      status: opened.status,
      ms: opened.ms,
      endedAt: performance.now(),
      ...(opened.error ? { error: opened.error } : {}),
      ...(typeof opened.body?.code === 'string' ? { code: opened.body.code } : {}),
    },
  };
  if (opened.status !== 200 || typeof opened.body?.clientSecret !== 'string') return result;
  result.clientSecret = opened.body.clientSecret;
  const paid = await api.request('POST', '/api/payments/local/confirm', {
    cookie: buyer.cookie,
    body: { clientSecret: opened.body.clientSecret, card: card() },
  });
  const endedAt = performance.now();
  result.confirm = {
    status: paid.status,
    ms: paid.ms,
    endedAt,
    ...(typeof paid.body?.status === 'string' ? { outcome: paid.body.status } : {}),
    ...(paid.error ? { error: paid.error } : {}),
  };
  if (paid.status === 200 && paid.body?.status === 'succeeded') result.totalMs = endedAt - startedAt;
  return result;
}

/** One burst of `count` GETs, `concurrency` at a time: the floor in the same shape as the checkouts. */
async function getBurst(api: Client, path: string, count: number, concurrency: number) {
  const t0 = performance.now();
  const replies = await runPool(count, concurrency, () => api.request('GET', path));
  const durationSec = (performance.now() - t0) / 1000;
  return {
    samples: replies.map((r) => r.ms),
    statuses: countBy(replies.map((r) => r.status)),
    ok: replies.filter((r) => r.status === 200).length,
    durationSec,
    perSec: count / durationSec,
  };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

/** Setup (not measured): the server, the accounts, the product, a warm-up and the floor. */
async function setUp(options: Options, storage: Storage, onServer: (server: AppServer) => void) {
  const tSetup = performance.now();
  const categoryId = await insertCategory(storage, 'Bench drops', 'bench-drops');
  checkNotStopped();
  const server = await startServer(storage);
  onServer(server);
  const serverStartSec = (performance.now() - tSetup) / 1000;
  const api = client(server.base);
  console.log(`  server on ${server.base} (pid ${server.pid}), ready in ${fixed(serverStartSec)} s`);

  const tag = randomBytes(2).toString('hex');
  const warmupBuyers = Math.min(options.warmup, options.buyers);
  const t1 = performance.now();
  const accounts = await signUpAll(api, [
    `bench_seller_${tag}`,
    ...Array.from({ length: options.buyers }, (_, i) => `bench_buyer_${tag}_${i}`),
  ]);
  const signUpSec = (performance.now() - t1) / 1000;
  const [seller, ...buyers] = accounts as [Account, ...Account[]];
  console.log(`  ${accounts.length} accounts signed up in ${fixed(signUpSec)} s`);
  checkNotStopped();

  const title = `Bench drop ${tag}`;
  const productId = await listProduct(api, seller, categoryId, title, options.stock);
  let warmupOrders = 0;
  if (warmupBuyers > 0) {
    const warmupId = await listProduct(api, seller, categoryId, `Bench warm-up ${tag}`, warmupBuyers);
    const warm = await runPool(warmupBuyers, warmupBuyers, (i) =>
      purchase(api, buyers[i] as Account, i, warmupId),
    );
    warmupOrders = warm.filter((p) => p.totalMs !== undefined).length;
    if (warmupOrders !== warmupBuyers)
      console.warn(
        `  !! warm-up: ${warmupOrders} of ${warmupBuyers} purchases succeeded; first: ` +
          JSON.stringify(warm.find((p) => p.totalMs === undefined)),
      );
  }
  // The floor, warm-up burst first (it also opens the keep-alive connections the burst reuses).
  await getBurst(api, `/api/products/${productId}`, options.buyers, options.concurrency);
  const floorProduct = await getBurst(api, `/api/products/${productId}`, options.buyers, options.concurrency);
  const floorHealth = await getBurst(api, '/api/health', options.buyers, options.concurrency);
  console.log(
    `  floor: GET product p50 ${fixed(percentile(floorProduct.samples, 50))} ms, ` +
      `p95 ${fixed(percentile(floorProduct.samples, 95))} ms; ` +
      `GET health p50 ${fixed(percentile(floorHealth.samples, 50))} ms, p95 ${fixed(percentile(floorHealth.samples, 95))} ms`,
  );
  checkNotStopped();
  await sleep(500);
  return {
    server,
    api,
    accounts,
    seller,
    buyers,
    title,
    productId,
    warmupOrders,
    floorProduct,
    floorHealth,
    signUpSec,
    serverStartSec,
  };
}

/** The burst (measured): every buyer opens checkout on the product at once and pays. */
async function runBurst(options: Options, { server, api, buyers, productId }: Setup) {
  const cpuBefore = cpuSeconds(server.pid);
  const t0 = performance.now();
  const purchases = await runPool(options.buyers, options.concurrency, (i) =>
    purchase(api, buyers[i] as Account, i, productId),
  );
  const burstEnd = performance.now();
  const burstSec = (burstEnd - t0) / 1000;
  const serverCpuPct = ((cpuSeconds(server.pid) - cpuBefore) / burstSec) * 100;
  checkNotStopped();

  const sessions = purchases.filter((p) => p.checkout.status === 200);
  const refused = purchases.filter((p) => p.checkout.status === 409);
  const checkoutOther = purchases.filter((p) => p.checkout.status !== 200 && p.checkout.status !== 409);
  const confirmed = sessions.filter((p) => p.totalMs !== undefined);
  const confirmOther = sessions.filter((p) => p.totalMs === undefined);
  const lastCheckoutAt = Math.max(...purchases.map((p) => p.checkout.endedAt));
  const lastConfirmAt = Math.max(t0, ...sessions.map((p) => p.confirm?.endedAt ?? t0));
  const checkoutsPerSec = purchases.length / ((lastCheckoutAt - t0) / 1000);
  const purchasesPerSec = confirmed.length / ((lastConfirmAt - t0) / 1000);
  const checkoutMs = purchases.map((p) => p.checkout.ms);
  const sessionMs = sessions.map((p) => p.checkout.ms);
  const refusedMs = refused.map((p) => p.checkout.ms);
  const confirmMs = sessions.flatMap((p) => (p.confirm ? [p.confirm.ms] : []));
  const totalMs = confirmed.map((p) => p.totalMs as number);
  console.log(
    `  burst: ${sessions.length} sessions, ${refused.length} × 409, ${checkoutOther.length} other; ` +
      `${confirmed.length} paid; ${fixed(burstSec, 2)} s; purchase p50 ${fixed(percentile(totalMs, 50))} ms, ` +
      `p95 ${fixed(percentile(totalMs, 95))} ms`,
  );

  for (const p of [...checkoutOther, ...confirmOther].slice(0, 3))
    console.warn(`  !! buyer ${p.buyer}: ${JSON.stringify({ checkout: p.checkout, confirm: p.confirm })}`);
  return {
    purchases,
    t0,
    burstEnd,
    burstSec,
    serverCpuPct,
    sessions,
    refused,
    checkoutOther,
    confirmed,
    confirmOther,
    lastCheckoutAt,
    lastConfirmAt,
    checkoutsPerSec,
    purchasesPerSec,
    checkoutMs,
    sessionMs,
    refusedMs,
    confirmMs,
    totalMs,
  };
}

/** After the burst, through the API: the orders, a second confirm of paid sessions, the stock. */
async function checkThroughApi(
  options: Options,
  { api, seller, buyers, title, productId, warmupOrders }: Setup,
  { burstEnd, confirmed }: Burst,
) {
  // The webhook of one payment may be delivered by another request's delivery (or the 1-second
  // retry job), so the order can land a little after its confirm answered: wait for it (≤ 30 s).
  const expectedSellerOrders = warmupOrders + confirmed.length;
  let sellerOrders = Number.NaN;
  const tWait = performance.now();
  for (;;) {
    checkNotStopped();
    const analytics = await api.request('GET', '/api/analytics', { cookie: seller.cookie });
    sellerOrders = Number(analytics.body?.totalOrders);
    if (sellerOrders >= expectedSellerOrders || performance.now() - tWait > 30_000) break;
    await sleep(100);
  }
  const ordersSettledMs = performance.now() - burstEnd;
  // Allow late extras (a duplicate) to show up too before counting.
  await sleep(1500);
  const analyticsAfter = await api.request('GET', '/api/analytics', { cookie: seller.cookie });
  sellerOrders = Number(analyticsAfter.body?.totalOrders) - warmupOrders;

  // A paid session confirmed a second time must be refused (409), and must not charge again.
  const again = await runPool(Math.min(options.reconfirm, confirmed.length), options.concurrency, (i) => {
    const p = confirmed[i] as Purchase;
    return api.request('POST', '/api/payments/local/confirm', {
      cookie: buyers[p.buyer]?.cookie ?? '',
      body: { clientSecret: p.clientSecret, card: card() },
    });
  });
  const againStatuses = countBy(again.map((r) => r.status));
  const againRefused = again.filter((r) => r.status === 409).length;

  // Every buyer's own order list: how many of this product's orders each one holds.
  const perBuyer = await runPool(buyers.length, 50, async (i) => {
    const reply = await api.request('GET', '/api/orders', { cookie: (buyers[i] as Account).cookie });
    if (reply.status !== 200 || !Array.isArray(reply.body)) return -1;
    return (reply.body as Array<{ productTitle: string | null; role: string }>).filter(
      (o) => o.role === 'buyer' && o.productTitle === title,
    ).length;
  });
  const buyerListFailures = perBuyer.filter((n) => n < 0).length;
  const buyerOrdersViaApi = perBuyer.reduce((a, n) => a + Math.max(0, n), 0);
  const buyersWithTwoViaApi = perBuyer.filter((n) => n > 1).length;
  const productAfter = await api.request('GET', `/api/products/${productId}`);
  const stockViaApi = Number(productAfter.body?.stock);
  checkNotStopped();
  return {
    sellerOrders,
    ordersSettledMs,
    again,
    againStatuses,
    againRefused,
    buyerListFailures,
    buyerOrdersViaApi,
    buyersWithTwoViaApi,
    stockViaApi,
  };
}

/** What the database holds for the product (read once the server has stopped: PGlite is one process's). */
function readDatabase(storage: Storage, productId: string) {
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

type Setup = Awaited<ReturnType<typeof setUp>>;
type Burst = Awaited<ReturnType<typeof runBurst>>;
type ViaApi = Awaited<ReturnType<typeof checkThroughApi>>;
type DatabaseCounts = Awaited<ReturnType<typeof readDatabase>>;

/** Figures, verdicts and the report; true when every check held. */
function judgeAndReport(
  options: Options,
  storage: Storage,
  setup: Setup,
  burst: Burst,
  viaApi: ViaApi,
  db: DatabaseCounts,
  machine: { loadAverageBefore: number[]; exitCode: number | null },
): boolean {
  const { accounts, floorProduct, floorHealth, signUpSec, serverStartSec, warmupOrders } = setup;
  const {
    purchases,
    t0,
    burstSec,
    serverCpuPct,
    sessions,
    refused,
    checkoutOther,
    confirmed,
    confirmOther,
    lastCheckoutAt,
    lastConfirmAt,
    checkoutsPerSec,
    purchasesPerSec,
    checkoutMs,
    sessionMs,
    refusedMs,
    confirmMs,
    totalMs,
  } = burst;
  const {
    sellerOrders,
    ordersSettledMs,
    again,
    againStatuses,
    againRefused,
    buyerListFailures,
    buyerOrdersViaApi,
    buyersWithTwoViaApi,
    stockViaApi,
  } = viaApi;
  const { loadAverageBefore, exitCode } = machine;
  const oversells = Math.max(0, db.orders - options.stock);
  const duplicates = db.orders - db.distinctPayments;
  const buyersWithTwo = db.orders - db.distinctBuyers;
  const otherStatuses = checkoutOther.length + confirmOther.length;
  const expectedSold = Math.min(options.stock, options.buyers);
  const checks = {
    oversell: oversells === 0,
    duplicates: duplicates === 0 && buyersWithTwo === 0 && buyersWithTwoViaApi === 0,
    errors: otherStatuses === 0 && buyerListFailures === 0,
    sold: db.orders === expectedSold && sessions.length === expectedSold && confirmed.length === expectedSold,
    stock: db.stock === options.stock - expectedSold && stockViaApi === db.stock,
    api: sellerOrders === db.orders && buyerOrdersViaApi === db.orders,
    charges: db.chargedIntents === db.orders,
    reconfirm: againRefused === again.length,
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  const verdicts = [
    `${mark(checks.oversell)}: oversells ${oversells} (orders ${db.orders} of ${options.stock} units)`,
    `${mark(checks.duplicates)}: duplicates ${duplicates} (orders ${db.orders}, distinct payments ${db.distinctPayments}); ` +
      `buyers with two orders ${buyersWithTwo} (API: ${buyersWithTwoViaApi})`,
    `${mark(checks.errors)}: statuses other than 200/409 ${otherStatuses} ` +
      `(checkout ${JSON.stringify(countBy(checkoutOther.map((p) => p.checkout.status)))}, ` +
      `confirm ${JSON.stringify(countBy(confirmOther.map((p) => p.confirm?.status ?? 'none')))})`,
    `${mark(checks.sold)}: sold exactly ${expectedSold}: ${sessions.length} sessions → ${confirmed.length} paid → ${db.orders} orders`,
    `${mark(checks.stock)}: final stock ${db.stock} (API ${stockViaApi}), expected ${options.stock - expectedSold}`,
    `${mark(checks.api)}: the API agrees: seller's analytics ${sellerOrders} orders, buyers' lists ${buyerOrdersViaApi}`,
    `${mark(checks.charges)}: charged at the provider ${db.chargedIntents} = orders ${db.orders}`,
    `${mark(checks.reconfirm)}: a paid session confirmed again: ${againRefused} of ${again.length} refused with 409`,
  ];

  const floorP = (p: number) => percentile(floorProduct.samples, p);
  const rows: Row[] = [
    {
      metric: 'checkout sessions opened/s (200 + 409)',
      value: checkoutsPerSec,
      unit: '/s',
      baseline: floorProduct.perSec,
      note: `${purchases.length} in ${fixed((lastCheckoutAt - t0) / 1000, 2)} s; baseline GET product/s`,
    },
    {
      metric: 'purchases/s (paid, order created)',
      value: purchasesPerSec,
      unit: '/s',
      note: `${confirmed.length} in ${fixed((lastConfirmAt - t0) / 1000, 2)} s from the first request`,
    },
  ];
  for (const p of [50, 95, 99]) {
    rows.push({
      metric: `open checkout p${p} (all ${checkoutMs.length})`,
      value: percentile(checkoutMs, p),
      unit: 'ms',
      baseline: floorP(p),
      note:
        p === 50
          ? `200s p50 ${fixed(percentile(sessionMs, 50))} ms, 409s p50 ${fixed(percentile(refusedMs, 50))} ms`
          : p === 95
            ? `200s p95 ${fixed(percentile(sessionMs, 95))} ms, 409s p95 ${fixed(percentile(refusedMs, 95))} ms`
            : '',
    });
  }
  for (const p of [50, 95, 99])
    rows.push({
      metric: `confirm payment p${p} (${confirmMs.length})`,
      value: percentile(confirmMs, p),
      unit: 'ms',
      baseline: floorP(p),
      note: p === 50 ? 'includes handing the webhook over (the order is written before it answers)' : '',
    });
  for (const p of [50, 95, 99])
    rows.push({
      metric: `whole purchase p${p} (${totalMs.length})`,
      value: percentile(totalMs, p),
      unit: 'ms',
      baseline: floorP(p),
      note: p === 50 ? 'open checkout → payment answered' : '',
    });
  rows.push(
    {
      metric: 'floor: GET /api/products/:id p50 / p95 / p99',
      value: floorP(50),
      unit: 'ms',
      note: `p95 ${fixed(floorP(95))}, p99 ${fixed(floorP(99))} ms; ${Math.round(floorProduct.perSec)}/s; statuses ${JSON.stringify(floorProduct.statuses)}`,
    },
    {
      metric: 'floor: GET /api/health p50 / p95 / p99',
      value: percentile(floorHealth.samples, 50),
      unit: 'ms',
      note: `p95 ${fixed(percentile(floorHealth.samples, 95))}, p99 ${fixed(percentile(floorHealth.samples, 99))} ms; ${Math.round(floorHealth.perSec)}/s; statuses ${JSON.stringify(floorHealth.statuses)}`,
    },
    {
      metric: 'checkout 200 (sessions)',
      value: sessions.length,
      unit: '',
      note: `expected ${expectedSold}`,
    },
    {
      metric: 'checkout 409 (sold out / all held)',
      value: refused.length,
      unit: '',
      note: JSON.stringify(countBy(refused.map((p) => p.checkout.code ?? '?'))),
    },
    {
      metric: 'other statuses and errors (checkout + confirm)',
      value: otherStatuses,
      unit: '',
      note: 'must be 0',
    },
    { metric: 'payments succeeded (confirm answered succeeded)', value: confirmed.length, unit: '' },
    {
      metric: 'orders created (database)',
      value: db.orders,
      unit: '',
      note: `must be ${expectedSold}; API: seller ${sellerOrders}, buyers' lists ${buyerOrdersViaApi}; all there ${fixed(ordersSettledMs, 0)} ms after the burst`,
    },
    { metric: 'final stock', value: db.stock, unit: '', note: `must be ${options.stock - expectedSold}` },
    { metric: 'oversells = max(0, orders − stock)', value: oversells, unit: '', note: 'must be 0' },
    {
      metric: 'duplicates = orders − distinct payments',
      value: duplicates,
      unit: '',
      note:
        `must be 0; buyers with two orders ${buyersWithTwo}; webhook outbox (warm-up included): ` +
        `${db.outbox?.events} events, ${db.outbox?.retried} retried, ${db.outbox?.undelivered} undelivered`,
    },
    {
      metric: 'second confirm of a paid session refused (409)',
      value: againRefused,
      unit: '',
      note: `of ${again.length}; statuses ${JSON.stringify(againStatuses)}`,
    },
    {
      metric: 'server CPU during the burst',
      value: serverCpuPct,
      unit: '%',
      note: `of one core, all threads${storage.databaseUrl ? '; the PostgreSQL server not included' : ' (PGlite worker included)'}`,
    },
  );

  const defaults =
    options.buyers === DEFAULTS.buyers &&
    options.stock === DEFAULTS.stock &&
    options.concurrency === options.buyers;
  const name = `checkout${storage.databaseUrl ? '-pg' : ''}${defaults ? '' : `-${options.buyers}b-${options.stock}u-c${options.concurrency}`}`;
  report(name, rows, {
    database: storage.label,
    options: {
      ...options,
      databaseUrl: options.databaseUrl ? new URL(options.databaseUrl).host : undefined,
    },
    machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter: loadavg() },
    latency:
      'client-side wall time per request (fetch, keep-alive, this process), exact percentiles over every request of the burst',
    setup: { serverStartSec, signUpSec, accounts: accounts.length, warmupPurchases: warmupOrders },
    burst: {
      durationSec: burstSec,
      checkoutStatuses: countBy(purchases.map((p) => p.checkout.status)),
      confirmStatuses: countBy(sessions.map((p) => `${p.confirm?.status}:${p.confirm?.outcome ?? ''}`)),
      errors: [...checkoutOther, ...confirmOther]
        .slice(0, 20)
        .map((p) => ({ checkout: p.checkout, confirm: p.confirm })),
      checkoutsPerSec,
      purchasesPerSec,
      openCheckout: {
        p50: percentile(checkoutMs, 50),
        p95: percentile(checkoutMs, 95),
        p99: percentile(checkoutMs, 99),
      },
      sessionsOnly: {
        p50: percentile(sessionMs, 50),
        p95: percentile(sessionMs, 95),
        p99: percentile(sessionMs, 99),
      },
      refusedOnly: {
        p50: percentile(refusedMs, 50),
        p95: percentile(refusedMs, 95),
        p99: percentile(refusedMs, 99),
      },
      confirm: {
        p50: percentile(confirmMs, 50),
        p95: percentile(confirmMs, 95),
        p99: percentile(confirmMs, 99),
      },
      purchase: {
        p50: percentile(totalMs, 50),
        p95: percentile(totalMs, 95),
        p99: percentile(totalMs, 99),
      },
      serverCpuPct,
      ordersSettledMs,
    },
    floor: {
      product: { ...floorProduct, samples: undefined, p50: floorP(50), p95: floorP(95), p99: floorP(99) },
      health: {
        ...floorHealth,
        samples: undefined,
        p50: percentile(floorHealth.samples, 50),
        p95: percentile(floorHealth.samples, 95),
        p99: percentile(floorHealth.samples, 99),
      },
    },
    reconfirm: { sent: again.length, refused409: againRefused, statuses: againStatuses },
    counts: db,
    api: { sellerOrders, buyerOrdersViaApi, buyersWithTwoViaApi, buyerListFailures, stockViaApi },
    serverExitCode: exitCode,
    checks,
    verdicts,
  });
  console.log(`\nverdicts:\n  ${verdicts.join('\n  ')}`);
  return Object.values(checks).every((ok) => ok);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  let server: AppServer | undefined;
  let storage: Storage | undefined;
  const hardCap = setTimeout(() => {
    console.error(`!! checkout: the hard cap of ${options.maxSeconds} s is reached; stopping`);
    stopAll.abort(new Error(`hard cap of ${options.maxSeconds} s reached`));
    // Should the orderly stop hang, end for sure a little later.
    setTimeout(() => {
      server?.proc.kill('SIGKILL');
      if (storage) rmSync(storage.dataDir, { recursive: true, force: true });
      process.exit(3);
    }, 30_000).unref();
  }, options.maxSeconds * 1000);
  hardCap.unref();

  const loadAverageBefore = loadavg();
  console.log(
    `checkout: ${options.buyers} buyers, ${options.stock} units of one product, concurrency ${options.concurrency}, ` +
      `${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${availableParallelism()} CPUs, load ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')}; ` +
      `hard cap ${options.maxSeconds} s`,
  );
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');

  let failed = false;
  try {
    storage = await createStorage(options.databaseUrl, 'checkout');
    const setup = await setUp(options, storage, (started) => {
      server = started;
    });
    const burst = await runBurst(options, setup);
    const viaApi = await checkThroughApi(options, setup, burst);
    const exitCode = await setup.server.stop();
    server = undefined;
    checkNotStopped();
    const db = await readDatabase(storage, setup.productId);
    failed = !judgeAndReport(options, storage, setup, burst, viaApi, db, { loadAverageBefore, exitCode });
  } finally {
    clearTimeout(hardCap);
    await server?.stop();
    await storage?.drop().catch((error) => console.error(`could not drop the run's database: ${error}`));
    console.log(`checkout: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
  if (failed) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(stopAll.signal.aborted ? `checkout: stopped: ${stopAll.signal.reason}` : error);
  process.exitCode = stopAll.signal.aborted ? 3 : 1;
}
