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
import { availableParallelism, loadavg } from 'node:os';
import { checkThroughApi, runBurst } from './checkout/burst.ts';
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
import { type Options, parseOptions } from './checkout/options.ts';
import { judgeAndReport } from './checkout/report.ts';
import { DROP_CHARGE, type Setup, setUp } from './checkout/setup.ts';
import { checkNotStopped, stopAll } from './checkout/stop.ts';
import {
  type AppServer,
  createStorage,
  finishRun,
  fixed,
  runBench,
  type Storage,
  startHardCap,
} from './support.ts';

// ---------------------------------------------------------------------------------------------
// The phases: setup (checkout/setup.ts), the burst and the API's view of it (checkout/burst.ts),
// then the cancels-and-refunds run
// ---------------------------------------------------------------------------------------------

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
