/**
 * Live shopping under a crowd (issue 8): 2,000 viewers in one room while the seller pins a product,
 * runs an offer on it and 100 viewers buy it within 10 s.
 *
 * The server is the real one (server/src/main.ts) in a child process on 127.0.0.1: a fresh PGlite
 * DATA_DIR by default, a fresh database on a PostgreSQL server with `--database-url` (or
 * DATABASE_URL), and with `--redis` two instances on one such database, fanning out through Redis
 * (`--redis=redis://…`, else TEST_REDIS_URL, else redis://127.0.0.1:6379; the database then
 * defaults to TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test). The clients (viewer
 * sockets and buyers' fetch) run in this process.
 *
 * Setup, not measured: a category is inserted (no API for it); the seller and the buyers sign up
 * through the real route with X-Forwarded-For under TRUST_PROXY=true (10 per address, which their
 * checkouts carry too, as the checkout bench does; a fresh 10.<octet> per run, since with Redis the
 * sign-up limit outlives the run);
 * the seller creates and starts a room and lists a product with 80 units at $50 (fewer units than
 * buyers, so an oversell would show) and lines it up; a few warm-up purchases of another lined-up
 * product run the order path once. Then, measured:
 *
 *   1. 2,000 viewer sockets join, 64 at a time, spread over the instances; the first 100 carry the
 *      buyers' sessions (the buyers watch the room they buy in), the rest are signed out.
 *   2. Baseline: the seller sends plain chat messages (3, 1 s apart) to the same 2,000 sockets:
 *      send → receive of every delivery, the floor of the room's fan-out.
 *   3. The seller pins the product, then starts an offer (40 units at $35 for 60 s): request →
 *      every viewer's `shop` event.
 *   4. Buyer i opens checkout at i × 10 s / 100 (POST /api/checkout/:id with {roomName}) and pays
 *      with 4242 (POST /api/payments/local/confirm); the order and the room's events (`stock`, then
 *      the purchase line) are normally sent before the confirm answers (not when the 1-second
 *      payment job claims the webhook first: counted as "orders written after their confirm").
 *
 * Every `stock` event is matched to the purchases by its stock value. Orders take a unit one at a
 * time under the product's row lock, so the k-th order (by its created_at, read from the database
 * after the run; ties by confirm time) leaves stock − k: a viewer has seen that purchase once it
 * received a stock value ≤ stock − k (a later event covers an earlier one). Delay per (purchase ×
 * viewer) = that receive time − the time the buyer's confirm answered (can be negative: the event
 * goes out before the answer); − the order's created_at (the start of the webhook's transaction,
 * so it includes the wait for the product's row lock; the server's clock, the same machine); and
 * − the time the confirm was sent (Pay pressed). The target (p95 ≤ 200 ms) is checked from the
 * answer and from the order. Lost = a (purchase × viewer) pair with no such event. Also reported:
 * values never announced (an announcement sends the stock it reads then, so two can send the
 * same), repeats, and stock going back up at a viewer (a stale event after a newer one).
 *
 * Counting, after the servers stopped: orders in the database (≤ stock, = units sold, = paid
 * confirms), final stock ≥ 0, offer orders ≤ offer units and each at its price, no duplicate per
 * payment. Server CPU (all threads, from /proc), CPU time per purchase, the time the processes
 * waited for a CPU (schedstat: on a busy machine, the share of the delay that is other work's),
 * RSS. The JSON has a per-purchase timeline. Exit code 1 when an invariant breaks (not the target).
 *
 *   npm run bench -- shop [--viewers=N] [--buyers=N] [--stock=N] [--offer-units=N] [--window=S]
 *                         [--baseline=N] [--warmup=N] [--database-url=postgres://…] [--redis[=url]]
 *                         [--max-seconds=S]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) The whole run stops by itself
 * after --max-seconds (default 180): sockets closed, servers stopped, temp folder and database
 * removed, exit code 3.
 */
import { availableParallelism, loadavg } from 'node:os';
import type WebSocket from 'ws';
import { checkAfter } from './shop/after.ts';
import { matchStockEvents } from './shop/figures.ts';
import { parseOptions } from './shop/options.ts';
import { pinAndOffer } from './shop/pin-offer.ts';
import { runPurchases, sampleRss } from './shop/purchase-window.ts';
import { judgeAndReport } from './shop/report.ts';
import { setUp } from './shop/setup.ts';
import { joinViewers, measureChatBaseline } from './shop/viewers.ts';
import { newWatch, type Watch } from './shop/watch.ts';
import {
  type AppServer,
  closeSockets,
  createStorage,
  finishRun,
  runBench,
  type Storage,
  startHardCap,
} from './support.ts';

// ---------------------------------------------------------------------------------------------
// The hard cap: every request and every wait listens to this signal
// ---------------------------------------------------------------------------------------------

const stopAll = new AbortController();
const signal = stopAll.signal;

// ---------------------------------------------------------------------------------------------
// Main: the phases (setup, viewers, chat baseline, pin and offer, purchases, after) are in shop/
// ---------------------------------------------------------------------------------------------

/** The run; true when every invariant held (the target aside). */
async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const servers: AppServer[] = [];
  let storage: Storage | undefined;
  let watch: Watch | undefined;
  const sockets: WebSocket[] = [];
  const clearHardCap = startHardCap('shop', options.maxSeconds, stopAll, () => ({ servers, storage }));
  const loadAverageBefore = loadavg();
  const setupLabel = options.redisUrl
    ? '2 instances, PostgreSQL + Redis'
    : `1 instance, ${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}, in-memory bus`;
  console.log(
    `shop: ${options.viewers} viewers, ${options.buyers} buyers within ${options.windowSec} s, ` +
      `${options.stock} units (offer ${options.offerUnits}); ${setupLabel}; ${availableParallelism()} CPUs, ` +
      `load ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')}; hard cap ${options.maxSeconds} s`,
  );
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');

  let passed = false;
  try {
    storage = await createStorage(options.databaseUrl, 'shop');
    const setup = await setUp(options, storage, servers, signal);
    const w = newWatch(options, setup.productId, setup.buyers);
    watch = w;
    const rss = sampleRss(servers);
    try {
      const viewers = await joinViewers(options, setup, servers, w, sockets, signal);
      const chat = await measureChatBaseline(options, w, viewers.sellerSocket);
      const shop = await pinAndOffer(options, setup, w, signal);
      const window = await runPurchases(options, setup, servers, w, rss, signal);
      const after = await checkAfter(storage, setup, shop.offerId, servers, w, sockets);
      const figures = matchStockEvents(options, w, window.purchases, after.db, {
        clockOffset: after.clockOffset,
        windowStart: window.windowStart,
        instances: setup.instances,
      });
      passed = judgeAndReport(options, {
        setupLabel,
        loadAverageBefore,
        setup,
        viewers,
        chat,
        shop,
        window,
        rss,
        after,
        figures,
        watch: w,
      });
    } finally {
      rss.stop();
    }
  } finally {
    clearHardCap();
    if (watch) watch.closing = true;
    await closeSockets(sockets);
    for (const s of servers.splice(0).reverse()) await s.stop();
    await finishRun('shop', started, storage);
  }
  return passed;
}

await runBench('shop', stopAll, main);
