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
import { randomBytes, randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type WebSocket from 'ws';
import { readDatabase } from './shop/database.ts';
import { dist, matchStockEvents, ms } from './shop/figures.ts';
import { DEFAULTS, type Options, parseOptions, VIEWER_CONCURRENCY } from './shop/options.ts';
import { purchase } from './shop/purchase.ts';
import { judgeAndReport } from './shop/report.ts';
import { newWatch, onViewerFrame, type Watch } from './shop/watch.ts';
import {
  type Account,
  type AppServer,
  type Client,
  client,
  closeSockets,
  countBy,
  cpuSeconds,
  createStorage,
  fixed,
  insertCategory,
  joinRoom,
  listProduct,
  rssMb,
  runPool,
  runQueueWaitSeconds,
  type Storage,
  signUpAll,
  sleep,
  startAppServer,
  sum,
  waitFor,
  wallMs,
} from './support.ts';

// ---------------------------------------------------------------------------------------------
// The hard cap: every request and every wait listens to this signal
// ---------------------------------------------------------------------------------------------

const stopAll = new AbortController();
const signal = stopAll.signal;

// ---------------------------------------------------------------------------------------------
// The seller through the API
// ---------------------------------------------------------------------------------------------

async function expectOk(reply: Promise<Awaited<ReturnType<Client['request']>>>, what: string, status = 200) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies read field by field
  return r.body as any;
}

const wsUrl = (server: AppServer, roomName: string) =>
  `${server.base.replace('http:', 'ws:')}/ws?room=${encodeURIComponent(roomName)}`;

/** Each server's RSS now, and its peak, sampled every 250 ms until stop(). */
function sampleRss(servers: AppServer[]) {
  const idleMb = servers.map((s) => rssMb(s.pid));
  const peakMb = [...idleMb];
  const sampler = setInterval(() => {
    servers.forEach((s, i) => {
      peakMb[i] = Math.max(peakMb[i] ?? 0, rssMb(s.pid) || 0);
    });
  }, 250);
  return { idleMb, peakMb, stop: () => clearInterval(sampler) };
}

// ---------------------------------------------------------------------------------------------
// The phases
// ---------------------------------------------------------------------------------------------

/** Setup (not measured): the servers, the accounts, the live room, its product, a warm-up. */
async function setUp(options: Options, storage: Storage, servers: AppServer[]) {
  const instances = options.redisUrl ? 2 : 1;
  const tSetup = performance.now();
  const categoryId = await insertCategory(storage, 'Bench live', 'bench-live');
  const env = options.redisUrl ? { REDIS_URL: options.redisUrl } : undefined;
  // A first: it runs the migrations; then B on the same database.
  for (let i = 0; i < instances; i++)
    servers.push(await startAppServer(storage, { signal, ...(env ? { env } : {}) }));
  const apis = servers.map((s) => client(s.base, signal));
  const api = apis[0] as Client;
  const serverStartSec = (performance.now() - tSetup) / 1000;
  console.log(
    `  ${servers.map((s) => `${s.base} (pid ${s.pid})`).join(' + ')} ready in ${fixed(serverStartSec)} s`,
  );

  const tag = randomBytes(3).toString('hex');
  const t1 = performance.now();
  const accounts = await signUpAll(
    api,
    [`shop_seller_${tag}`, ...Array.from({ length: options.buyers }, (_, i) => `shop_buyer_${tag}_${i}`)],
    { concurrency: 8, octet: 100 + randomInt(150), businessName: 'Shop Bench Records', signal },
  );
  const signUpSec = (performance.now() - t1) / 1000;
  const [seller, ...buyers] = accounts as [Account, ...Account[]];
  console.log(`  ${accounts.length} accounts signed up in ${fixed(signUpSec)} s`);

  const { roomName } = await expectOk(
    api.request('POST', '/api/rooms', { cookie: seller.cookie, body: { title: 'Shop bench' } }),
    'create room',
    201,
  );
  await expectOk(api.request('POST', `/api/streams/${roomName}/start`, { cookie: seller.cookie }), 'start');
  const title = `Bench live drop ${tag}`;
  const productId = await listProduct(api, seller, {
    categoryId,
    title,
    stock: options.stock,
    priceCents: DEFAULTS.priceCents,
  });
  const lineUp = (id: string) =>
    expectOk(
      api.request('POST', `/api/streams/${roomName}/lineup`, {
        cookie: seller.cookie,
        body: { productId: id },
      }),
      'lineup',
    );
  await lineUp(productId);
  let warmupOrders = 0;
  if (options.warmup > 0) {
    const warmId = await listProduct(api, seller, {
      categoryId,
      title: `Bench warm-up ${tag}`,
      stock: options.warmup,
      priceCents: DEFAULTS.priceCents,
    });
    await lineUp(warmId);
    const warm = await runPool(options.warmup, options.warmup, (i) =>
      purchase(apis[i % instances] as Client, buyers[i % buyers.length] as Account, i, warmId, roomName),
    );
    warmupOrders = warm.filter((p) => p.confirmedAt !== undefined).length;
    if (warmupOrders !== options.warmup)
      console.warn(`  !! warm-up: ${warmupOrders} of ${options.warmup} purchases succeeded`);
  }
  signal.throwIfAborted();
  return {
    instances,
    apis,
    api,
    serverStartSec,
    accounts,
    signUpSec,
    seller,
    buyers,
    roomName: roomName as string,
    title,
    productId,
    warmupOrders,
  };
}

/** The seller's socket, then the viewers' (spread over the instances; the first carry the buyers' sessions). */
async function joinViewers(
  options: Options,
  { instances, seller, buyers, roomName }: Setup,
  servers: AppServer[],
  w: Watch,
  sockets: WebSocket[],
) {
  const sellerErrors: Record<string, number> = {};
  const sellerSocket = await joinRoom(wsUrl(servers[0] as AppServer, roomName), {
    cookie: seller.cookie,
    onFrame: (frame) => {
      if (frame?.type === 'error') {
        const code = String(frame.code ?? 'UNKNOWN');
        sellerErrors[code] = (sellerErrors[code] ?? 0) + 1;
      }
    },
  });
  sockets.push(sellerSocket);
  const tConnect = performance.now();
  const viewerSockets = await runPool(options.viewers, VIEWER_CONCURRENCY, async (i) => {
    signal.throwIfAborted();
    const socket = await joinRoom(wsUrl(servers[i % instances] as AppServer, roomName), {
      cookie: i < buyers.length ? buyers[i]?.cookie : undefined,
      onFrame: (frame, at) => onViewerFrame(w, i, frame, at),
      onClose: () => {
        if (!w.closing) w.unexpectedCloses += 1;
      },
    });
    sockets.push(socket);
    return socket;
  });
  const connectSec = (performance.now() - tConnect) / 1000;
  const tSettle = performance.now();
  await waitFor(() => performance.now() - w.lastViewerCountAt > 1000, 60_000, 50);
  const settleSec = (performance.now() - tSettle) / 1000;
  console.log(
    `  ${viewerSockets.length} viewers in ${fixed(connectSec)} s (${w.viewerCountFrames.toLocaleString('en')} viewer_count frames; settled in ${fixed(settleSec)} s)`,
  );
  signal.throwIfAborted();
  return { sellerSocket, sellerErrors, connectSec, settleSec };
}

/** Baseline: plain chat fan-out from the seller to the same sockets. */
async function measureChatBaseline(options: Options, w: Watch, sellerSocket: WebSocket) {
  sellerSocket.send(JSON.stringify({ type: 'chat_message', message: `warm:${wallMs()}` }));
  await sleep(1000);
  for (let k = 0; k < options.baseline; k++) {
    if (k > 0) await sleep(1000);
    const sentAt = wallMs();
    w.baselineSent[k] = sentAt;
    sellerSocket.send(JSON.stringify({ type: 'chat_message', message: `b:${k}:${sentAt.toFixed(3)}` }));
  }
  const baselineTotal = options.viewers * options.baseline;
  const baselineCount = () => w.baselineFirst.reduce((n, t) => (Number.isNaN(t) ? n : n + 1), 0);
  await waitFor(() => baselineCount() >= baselineTotal, 10_000, 50);
  const baselineSamples: number[] = [];
  for (let v = 0; v < options.viewers; v++)
    for (let k = 0; k < options.baseline; k++) {
      const t = w.baselineFirst[v * options.baseline + k] as number;
      if (!Number.isNaN(t)) baselineSamples.push(t - (w.baselineSent[k] as number));
    }
  const baseline = dist(baselineSamples);
  const baselineLost = baselineTotal - baselineSamples.length;
  console.log(`  baseline chat fan-out: ${ms(baseline)}; lost ${baselineLost}`);
  return { baseline, baselineLost };
}

/** The seller pins the product, then starts the offer: request → every viewer's `shop` event. */
async function pinAndOffer(options: Options, { api, seller, roomName, productId }: Setup, w: Watch) {
  const shopStep = async (kind: 'pin' | 'offer', at: Float64Array, call: () => Promise<unknown>) => {
    const sentAt = wallMs();
    await call();
    const answeredAt = wallMs();
    await waitFor(() => at.every((t) => !Number.isNaN(t)), 10_000, 20);
    const got = Array.from(at).filter((t) => !Number.isNaN(t));
    const d = dist(got.map((t) => t - sentAt));
    console.log(`  ${kind}: request → every viewer ${ms(d)}; ${got.length} of ${options.viewers}`);
    return { ...d, answeredMs: answeredAt - sentAt, missing: options.viewers - got.length };
  };
  const pinFig = await shopStep('pin', w.pinAt, () =>
    expectOk(
      api.request('POST', `/api/streams/${roomName}/pins`, {
        cookie: seller.cookie,
        body: { productId },
      }),
      'pin',
    ),
  );
  let offerId = '';
  const offerFig = await shopStep('offer', w.offerAt, async () => {
    const shop = await expectOk(
      api.request('POST', `/api/streams/${roomName}/offers`, {
        cookie: seller.cookie,
        body: {
          productId,
          priceCents: DEFAULTS.offerPriceCents,
          quantity: options.offerUnits,
          durationSec: DEFAULTS.offerSeconds,
        },
      }),
      'start offer',
    );
    offerId = shop.offer?.id ?? '';
  });
  await sleep(500);
  signal.throwIfAborted();
  return { pinFig, offerFig, offerId };
}

/**
 * The purchases (measured): buyer i starts at i × window / buyers; the window ends when every
 * viewer has the final stock and every purchase line. Server and client CPU over the window.
 */
async function runPurchases(
  options: Options,
  { instances, apis, buyers, productId, roomName }: Setup,
  servers: AppServer[],
  w: Watch,
  rss: Rss,
) {
  const framesBefore = w.frames;
  const cpuBefore = servers.map((s) => cpuSeconds(s.pid));
  const waitBefore = servers.map((s) => runQueueWaitSeconds(s.pid));
  const selfWaitBefore = runQueueWaitSeconds(process.pid);
  const selfBefore = process.cpuUsage();
  const windowStart = wallMs();
  const t0 = performance.now();
  const spacing = (options.windowSec * 1000) / options.buyers;
  const purchases = await Promise.all(
    buyers.map(async (buyer, i) => {
      await sleep(Math.max(0, t0 + i * spacing - performance.now()));
      signal.throwIfAborted();
      return purchase(apis[i % instances] as Client, buyer, i, productId, roomName);
    }),
  );
  const lastAnswer = wallMs();
  const confirmed = purchases.filter((p) => p.confirmedAt !== undefined);
  const expectedFinal = options.stock - confirmed.length;
  // Every viewer has the final stock, and every purchase line (10 s bound after the last answer).
  const minStockOf = (v: number) => {
    for (let s = 0; s < w.levels; s++) if (!Number.isNaN(w.stockFirst[v * w.levels + s] ?? 0)) return s;
    return w.levels;
  };
  const linesExpected = confirmed.length * options.viewers;
  const linesCount = () => {
    let n = 0;
    for (const p of confirmed)
      for (let v = 0; v < options.viewers; v++)
        if (!Number.isNaN(w.lineFirst[v * w.buyers + p.buyer] ?? 0)) n += 1;
    return n;
  };
  const drained = await waitFor(
    () => {
      for (let v = 0; v < options.viewers; v++) if (minStockOf(v) > expectedFinal) return false;
      return linesCount() >= linesExpected;
    },
    10_000,
    50,
  );
  const windowEnd = wallMs();
  const windowSec = (windowEnd - windowStart) / 1000;
  const serverCpuPct = servers.map((s, i) => ((cpuSeconds(s.pid) - (cpuBefore[i] ?? 0)) / windowSec) * 100);
  const serverWaitPct = servers.map(
    (s, i) => ((runQueueWaitSeconds(s.pid) - (waitBefore[i] ?? 0)) / windowSec) * 100,
  );
  const clientsWaitPct = ((runQueueWaitSeconds(process.pid) - selfWaitBefore) / windowSec) * 100;
  const selfCpu = process.cpuUsage(selfBefore);
  const clientsCpuPct = ((selfCpu.user + selfCpu.system) / 1e6 / windowSec) * 100;
  const framesInWindow = w.frames - framesBefore;
  const serverCpuMs = (sum(serverCpuPct) / 100) * windowSec * 1000;
  if (!drained) console.warn('  !! not every viewer had the final stock and every purchase line within 10 s');
  // Late repeats and stale events, if any, still arrive.
  await sleep(1000);
  rss.stop();

  const statuses = countBy(purchases.map((p) => p.checkout.status));
  const checkoutOther = purchases.filter((p) => p.checkout.status !== 200 && p.checkout.status !== 409);
  const confirmOther = purchases.filter((p) => p.clientSecret && p.confirmedAt === undefined);
  console.log(
    `  purchases: checkout ${JSON.stringify(statuses)}, ${confirmed.length} paid, last answer ` +
      `${fixed((lastAnswer - windowStart) / 1000, 2)} s into the window`,
  );
  for (const p of [...checkoutOther, ...confirmOther].slice(0, 3))
    console.warn(`  !! buyer ${p.buyer}: ${JSON.stringify({ checkout: p.checkout, confirm: p.confirm })}`);
  return {
    purchases,
    confirmed,
    statuses,
    checkoutOther,
    confirmOther,
    windowStart,
    windowSec,
    serverCpuPct,
    serverWaitPct,
    clientsWaitPct,
    clientsCpuPct,
    framesInWindow,
    serverCpuMs,
  };
}

/** After the window: the API's view, then the database's once the sockets closed and the servers stopped. */
async function checkAfter(
  storage: Storage,
  { api, roomName, productId, title }: Setup,
  offerId: string,
  servers: AppServer[],
  w: Watch,
  sockets: WebSocket[],
) {
  const productAfter = await api.request('GET', `/api/products/${productId}`);
  const shopAfter = await api.request('GET', `/api/streams/${roomName}/shop`);
  const stockViaApi = Number(productAfter.body?.stock);
  const offerRemainingViaApi = shopAfter.body?.offer ? Number(shopAfter.body.offer.remaining) : Number.NaN;
  w.closing = true;
  await closeSockets(sockets);
  const exitCodes: Array<number | null> = [];
  for (const s of servers.splice(0).reverse()) exitCodes.unshift(await s.stop());
  const clockOffset = Date.now() - wallMs();
  const db = await readDatabase(storage, productId, offerId, title);
  return { stockViaApi, offerRemainingViaApi, exitCodes, clockOffset, db };
}

export type Setup = Awaited<ReturnType<typeof setUp>>;
export type Viewers = Awaited<ReturnType<typeof joinViewers>>;
export type ChatBaseline = Awaited<ReturnType<typeof measureChatBaseline>>;
export type ShopSteps = Awaited<ReturnType<typeof pinAndOffer>>;
export type PurchaseWindow = Awaited<ReturnType<typeof runPurchases>>;
export type After = Awaited<ReturnType<typeof checkAfter>>;
export type Rss = ReturnType<typeof sampleRss>;

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const servers: AppServer[] = [];
  let storage: Storage | undefined;
  let watch: Watch | undefined;
  const sockets: WebSocket[] = [];
  const hardCap = setTimeout(() => {
    console.error(`!! shop: the hard cap of ${options.maxSeconds} s is reached; stopping`);
    stopAll.abort(new Error(`hard cap of ${options.maxSeconds} s reached`));
    setTimeout(() => {
      for (const s of servers) s.proc.kill('SIGKILL');
      if (storage) rmSync(storage.dataDir, { recursive: true, force: true });
      process.exit(3);
    }, 30_000).unref();
  }, options.maxSeconds * 1000);
  hardCap.unref();
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

  let failed = false;
  try {
    storage = await createStorage(options.databaseUrl, 'shop');
    const setup = await setUp(options, storage, servers);
    const w = newWatch(options, setup.productId, setup.buyers);
    watch = w;
    const rss = sampleRss(servers);
    try {
      const viewers = await joinViewers(options, setup, servers, w, sockets);
      const chat = await measureChatBaseline(options, w, viewers.sellerSocket);
      const shop = await pinAndOffer(options, setup, w);
      const window = await runPurchases(options, setup, servers, w, rss);
      const after = await checkAfter(storage, setup, shop.offerId, servers, w, sockets);
      const figures = matchStockEvents(options, w, window.purchases, after.db, {
        clockOffset: after.clockOffset,
        windowStart: window.windowStart,
        instances: setup.instances,
      });
      failed = !judgeAndReport(options, {
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
    clearTimeout(hardCap);
    if (watch) watch.closing = true;
    await closeSockets(sockets);
    for (const s of servers.splice(0).reverse()) await s.stop();
    await storage?.drop().catch((error) => console.error(`could not drop the run's database: ${error}`));
    console.log(`shop: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
  if (failed) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(stopAll.signal.aborted ? `shop: stopped: ${stopAll.signal.reason}` : error);
  process.exitCode = stopAll.signal.aborted ? 3 : 1;
}
