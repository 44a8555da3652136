/**
 * Checkout under a drop (ADR 0006: stock is reserved when the payment session opens).
 *
 * 500 buyers (by default) try to buy ONE product that has 100 units, all at the same moment, on
 * 127.0.0.1. The product ships ($45 + $5 shipping, ADR 0016), so each buyer opens checkout with a
 * shipping address (POST /api/checkout/:id: 200 with a client secret and the total, or 409
 * when every unit is sold or held) and, with a session, pays with the local provider's success
 * card 4242 4242 4242 4242 (POST /api/payments/local/confirm, which hands the signed webhook to
 * POST /api/webhooks/payments before it answers; the webhook creates the order). The run records
 * the time of each step and of the whole purchase (open checkout → payment answered), then checks
 * the invariants: exactly `stock` orders, final stock 0, no oversell, no order twice for one
 * payment or one buyer, no status other than 200/409, every session, order and charge is price +
 * shipping with the address on the order, and a second confirm of a paid session is refused with 409.
 *
 * Then, on the same server, the cancels-and-refunds run (bench/checkout/cancels.ts, its own
 * section of the table and of the JSON): 150 of the buyers arrive over 4 s to buy a second
 * shipped product of another seller (50 units) and try again after 409s; one in ten cancels their
 * order, the seller refunds one in ten (some after shipping, some at the moment the buyer
 * cancels), so units come back while others buy. Its invariants, through the API and in the
 * database: stock now + live orders (paid/shipped/delivered) = the initial stock, one order per
 * payment and per buyer, every cancelled or refunded order's payment `refunded` at the provider
 * (after a bounded wait for the payment job), and the seller's ledger: each order's sale, fee,
 * refund and fee_refund, Σ entries = netCents of GET /api/payouts/balance, and net + fees kept =
 * captured − refunded. The server runs with PLATFORM_FEE_PERCENT (--fee-percent, default 2.9).
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
 *                             [--reconfirm=N] [--warmup=N] [--max-seconds=S] [--fee-percent=X]
 *                             [--cancel-buyers=N (0: no cancels run)] [--cancel-stock=N]
 *                             [--cancel-attempts=N] [--cancel-spread-ms=MS]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) The whole run stops by itself
 * after --max-seconds (default 240): the server is stopped, the temp folder and the database
 * removed, and the exit code is 3.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import {
  CANCELS_PRICE_CENTS,
  CANCELS_SHIPPING_CENTS,
  type CancelsRun,
  runCancels,
} from './checkout/cancels.ts';
import { type CancelsViaApi, cancelsThroughApi } from './checkout/cancels-api.ts';
import { readCancelsDatabase, waitForRefunds } from './checkout/cancels-database.ts';
import { judgeCancels } from './checkout/cancels-report.ts';
import { readDatabase } from './checkout/database.ts';
import { getBurst } from './checkout/floor.ts';
import { type Options, parseOptions } from './checkout/options.ts';
import { type Purchase, purchase } from './checkout/purchase.ts';
import { judgeAndReport } from './checkout/report.ts';
import { percentile } from './report.ts';
import {
  type Account,
  type AppServer,
  type Client,
  card,
  countBy,
  cpuSeconds,
  createStorage,
  finishRun,
  fixed,
  insertCategory,
  listProduct as listProductVia,
  runBench,
  runPool,
  type Storage,
  signUpAll as signUpAllVia,
  sleep,
  startAppServer,
  startHardCap,
  warnFailedPurchases,
  client as webClient,
} from './support.ts';

const SIGNUP_CONCURRENCY = 8;

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
// The platform keeps PLATFORM_FEE_PERCENT of every sale: the ledger's arithmetic is part of the run.
const startServer = (storage: Storage, options: Options): Promise<AppServer> =>
  startAppServer(storage, {
    signal: stopAll.signal,
    env: { PLATFORM_FEE_PERCENT: String(options.feePercent) },
  });
const signUpAll = (api: Client, handles: string[], octet?: number): Promise<Account[]> =>
  signUpAllVia(api, handles, {
    concurrency: SIGNUP_CONCURRENCY,
    businessName: 'Checkout Bench Records',
    signal: stopAll.signal,
    ...(octet === undefined ? {} : { octet }),
  });

/** What a drop buyer pays: the price and a flat shipping (the product ships, ADR 0016). */
export const DROP_CHARGE = { priceCents: 4500, shippingCents: 500, amountCents: 5000 };

const listProduct = (
  api: Client,
  seller: Account,
  categoryId: number,
  title: string,
  stock: number,
  charge: { priceCents: number; shippingCents: number } = DROP_CHARGE,
) =>
  // Shipped, with a flat shipping price: every checkout carries an address (ADR 0016).
  listProductVia(api, seller, {
    categoryId,
    title,
    stock,
    priceCents: charge.priceCents,
    fulfillment: 'ship',
    shippingCents: charge.shippingCents,
  });

// ---------------------------------------------------------------------------------------------
// The phases
// ---------------------------------------------------------------------------------------------

/** Setup (not measured): the server, the accounts, the product, a warm-up and the floor. */
async function setUp(options: Options, storage: Storage, onServer: (server: AppServer) => void) {
  const tSetup = performance.now();
  const categoryId = await insertCategory(storage, 'Bench drops', 'bench-drops');
  checkNotStopped();
  const server = await startServer(storage, options);
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
  // The cancels-and-refunds run sells through its own seller, so that seller's ledger is that run's.
  let cancels: { seller: Account; productId: string } | undefined;
  if (options.cancelBuyers > 0) {
    const [cancelsSeller] = (await signUpAll(api, [`bench_seller2_${tag}`], 78)) as [Account];
    cancels = {
      seller: cancelsSeller,
      productId: await listProduct(
        api,
        cancelsSeller,
        categoryId,
        `Bench returns ${tag}`,
        options.cancelStock,
        {
          priceCents: CANCELS_PRICE_CENTS,
          shippingCents: CANCELS_SHIPPING_CENTS,
        },
      ),
    };
  }
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
    cancels,
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

  warnFailedPurchases([...checkoutOther, ...confirmOther]);
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

/**
 * The cancels-and-refunds run (measured; bench/checkout/cancels.ts), after the drop on the same
 * server, then what the API says once the refunds at the provider are through (bounded wait).
 */
async function runCancelsPhase(options: Options, storage: Storage, { api, buyers, cancels }: Setup) {
  if (!cancels) return undefined;
  const run: CancelsRun = await runCancels({
    api,
    seller: cancels.seller,
    buyers: buyers.slice(0, options.cancelBuyers),
    productId: cancels.productId,
    attempts: options.cancelAttempts,
    spreadMs: options.cancelSpreadMs,
    signal: stopAll.signal,
  });
  const bought = run.runs.filter((r) => r.bought).length;
  const givenBack = run.runs
    .flatMap((r) => r.moves)
    .filter((m) => m.action !== 'ship' && m.status === 200).length;
  console.log(
    `  cancels run: ${run.runs.length} buyers, ${bought} paid, ${givenBack} given back in ${fixed(run.durationSec, 2)} s`,
  );
  const refunds = await waitForRefunds(storage, cancels.productId, 30_000, stopAll.signal);
  const viaApi: CancelsViaApi = await cancelsThroughApi(api, cancels.seller, cancels.productId);
  checkNotStopped();
  return { run, refunds, viaApi, ...cancels };
}

export type Setup = Awaited<ReturnType<typeof setUp>>;
export type Burst = Awaited<ReturnType<typeof runBurst>>;
export type ViaApi = Awaited<ReturnType<typeof checkThroughApi>>;

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

/** The run; true when every check held. */
async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  let server: AppServer | undefined;
  let storage: Storage | undefined;
  const clearHardCap = startHardCap('checkout', options.maxSeconds, stopAll, () => ({
    servers: server ? [server] : [],
    storage,
  }));

  const loadAverageBefore = loadavg();
  console.log(
    `checkout: ${options.buyers} buyers, ${options.stock} units of one product, concurrency ${options.concurrency}, ` +
      `${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${availableParallelism()} CPUs, load ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')}; ` +
      `hard cap ${options.maxSeconds} s`,
  );
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');

  let passed = false;
  try {
    storage = await createStorage(options.databaseUrl, 'checkout');
    const setup = await setUp(options, storage, (started) => {
      server = started;
    });
    const burst = await runBurst(options, setup);
    const viaApi = await checkThroughApi(options, setup, burst);
    const cancels = await runCancelsPhase(options, storage, setup);
    const exitCode = await setup.server.stop();
    server = undefined;
    checkNotStopped();
    const db = await readDatabase(storage, setup.productId, DROP_CHARGE);
    const cancelsJudged =
      cancels &&
      judgeCancels(
        {
          initialStock: options.cancelStock,
          priceCents: CANCELS_PRICE_CENTS,
          shippingCents: CANCELS_SHIPPING_CENTS,
          feePercent: options.feePercent,
          attemptsPerBuyer: options.cancelAttempts,
          spreadMs: options.cancelSpreadMs,
          refunds: cancels.refunds,
        },
        cancels.run,
        cancels.viaApi,
        await readCancelsDatabase(storage, cancels.productId, cancels.seller.handle),
      );
    passed = judgeAndReport(options, storage, setup, burst, viaApi, db, {
      loadAverageBefore,
      exitCode,
      cancels: cancelsJudged,
    });
  } finally {
    clearHardCap();
    await server?.stop();
    await finishRun('checkout', started, storage);
  }
  return passed;
}

await runBench('checkout', stopAll, main);
