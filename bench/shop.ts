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
import { type Row, report } from './report.ts';
import {
  type Account,
  type AppServer,
  type Client,
  card,
  client,
  cliFlags,
  closeSockets,
  countBy,
  cpuSeconds,
  createStorage,
  fixed,
  insertCategory,
  joinRoom,
  listProduct,
  type RoomFrame,
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
  withDatabase,
} from './support.ts';

const DEFAULTS = {
  viewers: 2000,
  buyers: 100,
  stock: 80,
  priceCents: 5000,
  offerUnits: 40,
  offerPriceCents: 3500,
  offerSeconds: 60,
  windowSec: 10,
  baseline: 3,
  warmup: 5,
  maxSeconds: 180,
};
const TARGET = { p95: 200 };
const VIEWER_CONCURRENCY = 64;

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface Options {
  viewers: number;
  buyers: number;
  stock: number;
  offerUnits: number;
  windowSec: number;
  baseline: number;
  warmup: number;
  maxSeconds: number;
  databaseUrl: string | undefined;
  /** Two instances fanning out through this Redis server; absent: one instance, in-memory bus. */
  redisUrl: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const redisUrl = argv.includes('--redis')
    ? process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
    : value('redis') || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    throw new Error(`--redis must be a redis:// URL, got "${redisUrl}"`);
  const databaseUrl =
    value('database-url') ||
    process.env.DATABASE_URL ||
    (redisUrl ? process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' : undefined);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  const stock = number('stock', DEFAULTS.stock, 1, 10_000);
  return {
    viewers: number('viewers', DEFAULTS.viewers, 1, 15_000),
    buyers: number('buyers', DEFAULTS.buyers, 1, 2000),
    stock,
    offerUnits: number('offer-units', Math.min(DEFAULTS.offerUnits, stock), 1, stock),
    windowSec: number('window', DEFAULTS.windowSec, 1, 120),
    baseline: number('baseline', DEFAULTS.baseline, 1, 20),
    warmup: number('warmup', DEFAULTS.warmup, 0, 50),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 3600),
    databaseUrl,
    redisUrl,
  };
}

// ---------------------------------------------------------------------------------------------
// The viewers: what each socket received, and when
// ---------------------------------------------------------------------------------------------

const stopAll = new AbortController();

interface Watch {
  productId: string;
  /** Stock values 0 … stock. */
  levels: number;
  /** First receive time (wallMs) of each stock value at each viewer: [viewer * levels + stock]. */
  stockFirst: Float64Array;
  /** The last stock value each viewer received (levels before the first). */
  lastStock: Int32Array;
  stockFrames: number;
  stockRepeats: number;
  /** Stock events with a value above the one the viewer had before (a stale event after a newer one). */
  stockBackwards: number;
  backwardsExamples: Array<{ viewer: number; from: number; to: number; at: number }>;
  /** Every stock value viewers 0 and 1 (one per instance with two) received, with its time. */
  sequences: Array<Array<[number, number]>>;
  viewersBackwards: Uint8Array;
  stockNegative: number;
  offerRemainingMin: number;
  offerRemainingNegative: number;
  lastStockAt: number;
  /** First receive time of each buyer's purchase line: [viewer * buyers + buyer]. */
  lineFirst: Float64Array;
  lineFrames: number;
  lineUnmatched: number;
  buyerByHandle: Map<string, number>;
  buyers: number;
  /** Baseline chat: first receive time of message k at each viewer: [viewer * baseline + k]; send times. */
  baselineFirst: Float64Array;
  baselineSent: number[];
  baseline: number;
  pinAt: Float64Array;
  offerAt: Float64Array;
  frames: number;
  viewerCountFrames: number;
  lastViewerCountAt: number;
  badFrames: number;
  errors: Record<string, number>;
  unexpectedCloses: number;
  closing: boolean;
}

function newWatch(options: Options, productId: string, buyers: Account[]): Watch {
  const levels = options.stock + 1;
  return {
    productId,
    levels,
    stockFirst: new Float64Array(options.viewers * levels).fill(Number.NaN),
    lastStock: new Int32Array(options.viewers).fill(levels),
    stockFrames: 0,
    stockRepeats: 0,
    stockBackwards: 0,
    backwardsExamples: [],
    sequences: [[], []],
    viewersBackwards: new Uint8Array(options.viewers),
    stockNegative: 0,
    offerRemainingMin: Number.POSITIVE_INFINITY,
    offerRemainingNegative: 0,
    lastStockAt: 0,
    lineFirst: new Float64Array(options.viewers * buyers.length).fill(Number.NaN),
    lineFrames: 0,
    lineUnmatched: 0,
    buyerByHandle: new Map(buyers.map((b, i) => [b.handle, i])),
    buyers: buyers.length,
    baselineFirst: new Float64Array(options.viewers * options.baseline).fill(Number.NaN),
    baselineSent: [],
    baseline: options.baseline,
    pinAt: new Float64Array(options.viewers).fill(Number.NaN),
    offerAt: new Float64Array(options.viewers).fill(Number.NaN),
    frames: 0,
    viewerCountFrames: 0,
    lastViewerCountAt: 0,
    badFrames: 0,
    errors: {},
    unexpectedCloses: 0,
    closing: false,
  };
}

function onViewerFrame(w: Watch, viewer: number, frame: RoomFrame | undefined, at: number): void {
  w.frames += 1;
  if (!frame) {
    w.badFrames += 1;
    return;
  }
  switch (frame.type) {
    case 'stock': {
      if (frame.productId !== w.productId) return;
      const stock = Number(frame.stock);
      w.stockFrames += 1;
      w.lastStockAt = Math.max(w.lastStockAt, at);
      if (typeof frame.offerRemaining === 'number') {
        w.offerRemainingMin = Math.min(w.offerRemainingMin, frame.offerRemaining);
        if (frame.offerRemaining < 0) w.offerRemainingNegative += 1;
      }
      if (!Number.isInteger(stock) || stock < 0 || stock >= w.levels) {
        w.stockNegative += 1;
        return;
      }
      if (stock > (w.lastStock[viewer] ?? w.levels) && (w.lastStock[viewer] ?? w.levels) < w.levels) {
        w.stockBackwards += 1;
        w.viewersBackwards[viewer] = 1;
        if (w.backwardsExamples.length < 10)
          w.backwardsExamples.push({ viewer, from: w.lastStock[viewer] ?? -1, to: stock, at });
      }
      if (viewer < 2) w.sequences[viewer]?.push([stock, at]);
      w.lastStock[viewer] = stock;
      const i = viewer * w.levels + stock;
      if (Number.isNaN(w.stockFirst[i] ?? 0)) w.stockFirst[i] = at;
      else w.stockRepeats += 1;
      return;
    }
    case 'chat_message': {
      const text = typeof frame.message === 'string' ? frame.message : '';
      if (frame.kind === 'purchase') {
        w.lineFrames += 1;
        const buyer = w.buyerByHandle.get(/^@(\S+) just bought /.exec(text)?.[1] ?? '');
        if (buyer === undefined) {
          w.lineUnmatched += 1;
          return;
        }
        const i = viewer * w.buyers + buyer;
        if (Number.isNaN(w.lineFirst[i] ?? 0)) w.lineFirst[i] = at;
        return;
      }
      const [tag, seqText] = text.split(':');
      const seq = Number(seqText);
      if (tag !== 'b' || !(seq >= 0 && seq < w.baseline)) return;
      const i = viewer * w.baseline + seq;
      if (Number.isNaN(w.baselineFirst[i] ?? 0)) w.baselineFirst[i] = at;
      return;
    }
    case 'shop': {
      const shop = frame.shop as { pinned?: string[]; offer?: { productId?: string } | null } | undefined;
      if (shop?.offer?.productId === w.productId) {
        if (Number.isNaN(w.offerAt[viewer] ?? 0)) w.offerAt[viewer] = at;
      } else if (shop?.pinned?.includes(w.productId) && Number.isNaN(w.pinAt[viewer] ?? 0)) {
        w.pinAt[viewer] = at;
      }
      return;
    }
    case 'viewer_count':
      w.viewerCountFrames += 1;
      w.lastViewerCountAt = performance.now();
      return;
    case 'error': {
      const code = typeof frame.code === 'string' ? frame.code : 'UNKNOWN';
      w.errors[code] = (w.errors[code] ?? 0) + 1;
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Seller and buyers through the API
// ---------------------------------------------------------------------------------------------

async function expectOk(reply: Promise<Awaited<ReturnType<Client['request']>>>, what: string, status = 200) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies read field by field
  return r.body as any;
}

interface Purchase {
  buyer: number;
  startedAt: number;
  checkout: { status: number; ms: number; code?: string; amountCents?: number; error?: string };
  clientSecret?: string;
  confirm?: { status: number; ms: number; outcome?: string; error?: string };
  /** wallMs when the confirm was sent (the buyer pressed Pay). */
  confirmSentAt?: number;
  /** wallMs when the confirm answered 'succeeded'. */
  confirmedAt?: number;
}

async function purchase(api: Client, buyer: Account, index: number, productId: string, roomName: string) {
  const result: Purchase = { buyer: index, startedAt: wallMs(), checkout: { status: 0, ms: 0 } };
  // From the buyer's own address, as a real client: open holds are capped per address.
  const opened = await api.request('POST', `/api/checkout/${productId}`, {
    cookie: buyer.cookie,
    body: { roomName },
    forwardedFor: buyer.address,
  });
  result.checkout = {
    status: opened.status,
    ms: opened.ms,
    ...(typeof opened.body?.code === 'string' ? { code: opened.body.code } : {}),
    ...(typeof opened.body?.amountCents === 'number' ? { amountCents: opened.body.amountCents } : {}),
    ...(opened.error ? { error: opened.error } : {}),
  };
  if (opened.status !== 200 || typeof opened.body?.clientSecret !== 'string') return result;
  result.clientSecret = opened.body.clientSecret;
  result.confirmSentAt = wallMs();
  const paid = await api.request('POST', '/api/payments/local/confirm', {
    cookie: buyer.cookie,
    body: { clientSecret: opened.body.clientSecret, card: card() },
  });
  const answeredAt = wallMs();
  result.confirm = {
    status: paid.status,
    ms: paid.ms,
    ...(typeof paid.body?.status === 'string' ? { outcome: paid.body.status } : {}),
    ...(paid.error ? { error: paid.error } : {}),
  };
  if (paid.status === 200 && paid.body?.status === 'succeeded') result.confirmedAt = answeredAt;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

interface Dist {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  min: number;
}

function dist(samples: number[] | Float64Array): Dist {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) =>
    sorted.length ? (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number) : Number.NaN;
  return {
    n: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    min: sorted.length ? (sorted[0] as number) : Number.NaN,
  };
}

const ms = (d: Dist) => `${fixed(d.p50)} / ${fixed(d.p95)} / ${fixed(d.p99)} ms, max ${fixed(d.max)}`;

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
  const signal = stopAll.signal;
  const instances = options.redisUrl ? 2 : 1;
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
    // --- setup (not measured) ----------------------------------------------------------------------
    storage = await createStorage(options.databaseUrl, 'shop');
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

    // --- the viewers join ----------------------------------------------------------------------------
    const w = newWatch(options, productId, buyers);
    watch = w;
    const wsUrl = (server: AppServer) =>
      `${server.base.replace('http:', 'ws:')}/ws?room=${encodeURIComponent(roomName)}`;
    const instanceOf = (i: number) => i % instances;
    const serverRssIdleMb = servers.map((s) => rssMb(s.pid));
    const rssPeak = [...serverRssIdleMb];
    const sampler = setInterval(() => {
      servers.forEach((s, i) => {
        rssPeak[i] = Math.max(rssPeak[i] ?? 0, rssMb(s.pid) || 0);
      });
    }, 250);
    try {
      const sellerErrors: Record<string, number> = {};
      const sellerSocket = await joinRoom(wsUrl(servers[0] as AppServer), {
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
        const socket = await joinRoom(wsUrl(servers[instanceOf(i)] as AppServer), {
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

      // --- baseline: plain chat fan-out to the same sockets -------------------------------------------
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

      // --- the seller pins, then starts the offer ------------------------------------------------------
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

      // --- the purchases (measured) --------------------------------------------------------------------
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
          return purchase(apis[instanceOf(i)] as Client, buyer, i, productId, roomName);
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
      const serverCpuPct = servers.map(
        (s, i) => ((cpuSeconds(s.pid) - (cpuBefore[i] ?? 0)) / windowSec) * 100,
      );
      const serverWaitPct = servers.map(
        (s, i) => ((runQueueWaitSeconds(s.pid) - (waitBefore[i] ?? 0)) / windowSec) * 100,
      );
      const clientsWaitPct = ((runQueueWaitSeconds(process.pid) - selfWaitBefore) / windowSec) * 100;
      const selfCpu = process.cpuUsage(selfBefore);
      const clientsCpuPct = ((selfCpu.user + selfCpu.system) / 1e6 / windowSec) * 100;
      const framesInWindow = w.frames - framesBefore;
      const serverCpuMs = (sum(serverCpuPct) / 100) * windowSec * 1000;
      if (!drained)
        console.warn('  !! not every viewer had the final stock and every purchase line within 10 s');
      // Late repeats and stale events, if any, still arrive.
      await sleep(1000);
      clearInterval(sampler);

      const statuses = countBy(purchases.map((p) => p.checkout.status));
      const checkoutOther = purchases.filter((p) => p.checkout.status !== 200 && p.checkout.status !== 409);
      const confirmOther = purchases.filter((p) => p.clientSecret && p.confirmedAt === undefined);
      console.log(
        `  purchases: checkout ${JSON.stringify(statuses)}, ${confirmed.length} paid, last answer ` +
          `${fixed((lastAnswer - windowStart) / 1000, 2)} s into the window`,
      );
      for (const p of [...checkoutOther, ...confirmOther].slice(0, 3))
        console.warn(
          `  !! buyer ${p.buyer}: ${JSON.stringify({ checkout: p.checkout, confirm: p.confirm })}`,
        );

      // --- the API's view, then the database once the servers stopped ---------------------------------
      const productAfter = await api.request('GET', `/api/products/${productId}`);
      const shopAfter = await api.request('GET', `/api/streams/${roomName}/shop`);
      const stockViaApi = Number(productAfter.body?.stock);
      const offerRemainingViaApi = shopAfter.body?.offer
        ? Number(shopAfter.body.offer.remaining)
        : Number.NaN;
      w.closing = true;
      await closeSockets(sockets);
      const exitCodes: Array<number | null> = [];
      for (const s of servers.splice(0).reverse()) exitCodes.unshift(await s.stop());
      const clockOffset = Date.now() - wallMs();
      const db = await withDatabase(storage, async (query) => {
        const orders = await query<{
          payment_id: string;
          created_ms: number;
          amount_cents: number;
          offer_id: string | null;
          client_secret: string | null;
          during_live: boolean;
        }>(
          `select o.payment_id::text, (extract(epoch from o.created_at) * 1000)::float8 as created_ms,
                  o.amount_cents, p.offer_id::text as offer_id, p.client_secret, o.during_live
           from orders o join payments p on p.id = o.payment_id
           where o.product_id = $1 order by o.created_at`,
          [productId],
        );
        const [product] = await query<{ stock: number }>('select stock from products where id = $1', [
          productId,
        ]);
        const paymentRows = await query<{ status: string; n: number }>(
          'select status, count(*)::int as n from payments where product_id = $1 group by status order by status',
          [productId],
        );
        const [offer] = await query<{ quantity: number; price_cents: number }>(
          'select quantity, price_cents from stream_offers where id::text = $1',
          [offerId],
        );
        const webhooks = await query<{ payload: string; attempts: number; lag_ms: number | null }>(
          `select payload, attempts,
                  (extract(epoch from delivered_at - created_at) * 1000)::float8 as lag_ms
           from local_webhook_events`,
        );
        const [lines] = await query<{ n: number }>(
          `select count(*)::int as n from chat_messages where kind = 'purchase' and message like $1`,
          [`% just bought ${title}`],
        );
        return {
          orders,
          stock: product?.stock ?? Number.NaN,
          payments: Object.fromEntries(paymentRows.map((r) => [r.status, r.n])),
          offer,
          webhooks,
          purchaseLines: lines?.n ?? Number.NaN,
        };
      });

      // --- match the stock events to the purchases -----------------------------------------------------
      const bySecret = new Map(purchases.filter((p) => p.clientSecret).map((p) => [p.clientSecret, p]));
      const ordered = db.orders
        .map((o) => ({ ...o, purchase: bySecret.get(o.client_secret ?? '') }))
        .sort(
          (a, b) =>
            a.created_ms - b.created_ms || (a.purchase?.confirmedAt ?? 0) - (b.purchase?.confirmedAt ?? 0),
        );
      const toConfirm: number[] = [];
      const toOrder: number[] = [];
      const toPay: number[] = [];
      /** Per purchase: its last viewer, from the confirm's answer and from the order. */
      const lastViewer = ordered.map(() => ({
        confirm: Number.NEGATIVE_INFINITY,
        order: Number.NEGATIVE_INFINITY,
      }));
      const toConfirmByInstance: number[][] = Array.from({ length: instances }, () => []);
      const toLine: number[] = [];
      let lostStock = 0;
      let lostLines = 0;
      let beforeAnswer = 0;
      const prefix = new Float64Array(w.levels);
      for (let v = 0; v < options.viewers; v++) {
        // prefix[s] = first time this viewer had a stock value ≤ s.
        let best = Number.POSITIVE_INFINITY;
        for (let s = 0; s < w.levels; s++) {
          const t = w.stockFirst[v * w.levels + s] as number;
          if (!Number.isNaN(t) && t < best) best = t;
          prefix[s] = best;
        }
        ordered.forEach((o, k) => {
          const left = options.stock - (k + 1);
          if (left < 0) return;
          const seen = prefix[left] as number;
          if (!Number.isFinite(seen)) {
            lostStock += 1;
            return;
          }
          const fromOrder = seen - (o.created_ms - clockOffset);
          toOrder.push(fromOrder);
          const last = lastViewer[k] as { confirm: number; order: number };
          last.order = Math.max(last.order, fromOrder);
          if (o.purchase?.confirmSentAt !== undefined) toPay.push(seen - o.purchase.confirmSentAt);
          const confirmedAt = o.purchase?.confirmedAt;
          if (confirmedAt !== undefined) {
            toConfirm.push(seen - confirmedAt);
            last.confirm = Math.max(last.confirm, seen - confirmedAt);
            toConfirmByInstance[instanceOf(v)]?.push(seen - confirmedAt);
            if (seen < confirmedAt) beforeAnswer += 1;
          }
          if (o.purchase) {
            const line = w.lineFirst[v * w.buyers + o.purchase.buyer] as number;
            if (Number.isNaN(line)) lostLines += 1;
            else if (confirmedAt !== undefined) toLine.push(line - confirmedAt);
          }
        });
      }
      const stockDelay = dist(toConfirm);
      const stockFromOrder = dist(toOrder);
      const stockFromPay = dist(toPay);
      const allViewersFromConfirm = dist(lastViewer.map((l) => l.confirm).filter(Number.isFinite));
      const allViewersFromOrder = dist(lastViewer.map((l) => l.order).filter(Number.isFinite));
      const lineDelay = dist(toLine);
      const byInstance = toConfirmByInstance.map((s) => dist(s).p95);
      // Which values were announced at all (by any viewer), against one per order.
      const announced = new Set<number>();
      for (let v = 0; v < options.viewers; v++)
        for (let s = 0; s < w.levels; s++)
          if (!Number.isNaN(w.stockFirst[v * w.levels + s] ?? 0)) announced.add(s);
      const expectedValues = ordered.map((_, k) => options.stock - (k + 1)).filter((s) => s >= 0);
      const neverAnnounced = expectedValues.filter((s) => !announced.has(s));
      // Per purchase: when its order was written against its confirm, and its webhook's delivery.
      const rel = (t: number | undefined) =>
        t === undefined ? null : Math.round((t - windowStart) * 10) / 10;
      const timeline = ordered.map((o, k) => {
        const left = options.stock - (k + 1);
        let first = Number.POSITIVE_INFINITY;
        let last = Number.NEGATIVE_INFINITY;
        for (let v = 0; v < options.viewers; v++) {
          let seen = Number.POSITIVE_INFINITY;
          for (let s = 0; s <= left; s++) {
            const t = w.stockFirst[v * w.levels + s] as number;
            if (!Number.isNaN(t) && t < seen) seen = t;
          }
          first = Math.min(first, seen);
          last = Math.max(last, seen);
        }
        const webhook = db.webhooks.find((e) => e.payload.includes(o.payment_id));
        const p = o.purchase;
        return {
          buyer: p?.buyer ?? null,
          stockLeft: left,
          announcedExactly: announced.has(left),
          amountCents: o.amount_cents,
          started: rel(p?.startedAt),
          checkoutMs: p ? Math.round(p.checkout.ms) : null,
          confirmSent: rel(p?.confirmSentAt),
          confirmAnswered: rel(p?.confirmedAt),
          orderCreated: rel(o.created_ms - clockOffset),
          firstViewer: rel(Number.isFinite(first) ? first : undefined),
          lastViewer: rel(Number.isFinite(last) ? last : undefined),
          webhookAttempts: webhook?.attempts ?? null,
          webhookLagMs:
            webhook?.lag_ms === null || webhook?.lag_ms === undefined ? null : Math.round(webhook.lag_ms),
        };
      });
      const orderAfterAnswer = timeline.filter(
        (t) => t.orderCreated !== null && t.confirmAnswered !== null && t.orderCreated > t.confirmAnswered,
      );
      const orderAfterAnswerMax = Math.max(
        0,
        ...orderAfterAnswer.map((t) => (t.orderCreated ?? 0) - (t.confirmAnswered ?? 0)),
      );
      const webhookLag = dist(timeline.flatMap((t) => (t.webhookLagMs === null ? [] : [t.webhookLagMs])));
      const webhookRetried = timeline.filter((t) => (t.webhookAttempts ?? 0) > 1).length;
      const stockDeliveries = w.stockFrames;
      const serverCpuMsPerPurchase = serverCpuMs / Math.max(1, db.orders.length);
      const serverCpuMsPer1kFrames = serverCpuMs / Math.max(1, framesInWindow / 1000);
      const stockSec = (w.lastStockAt - windowStart) / 1000;

      // --- invariants ---------------------------------------------------------------------------------------
      const orders = db.orders.length;
      const offerOrders = db.orders.filter((o) => offerId !== '' && o.offer_id === offerId).length;
      const offerQuantity = db.offer?.quantity ?? Number.NaN;
      const offerPriceOk = db.orders.every((o) =>
        o.offer_id ? o.amount_cents === DEFAULTS.offerPriceCents : o.amount_cents === DEFAULTS.priceCents,
      );
      const distinctPayments = new Set(db.orders.map((o) => o.payment_id)).size;
      const oversells = Math.max(0, orders - options.stock) + Math.max(0, -db.stock);
      const expectedSold = Math.min(options.stock, options.buyers);
      const checks = {
        oversell: oversells === 0 && db.stock >= 0 && orders === options.stock - db.stock,
        offer: offerOrders <= offerQuantity && offerPriceOk && w.offerRemainingNegative === 0,
        duplicates: distinctPayments === orders,
        sold: orders === confirmed.length && orders === expectedSold,
        statuses: checkoutOther.length === 0 && confirmOther.length === 0,
        lostStock: lostStock === 0 && w.stockNegative === 0,
        api: stockViaApi === db.stock,
        target: stockDelay.p95 <= TARGET.p95 && stockFromOrder.p95 <= TARGET.p95,
      };
      const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
      const verdicts = [
        `${mark(checks.target)}: stock seen by every viewer: p95 ≤ ${TARGET.p95} ms from the confirm's answer ` +
          `(${fixed(stockDelay.p95)} ms; p99 ${fixed(stockDelay.p99)}, max ${fixed(stockDelay.max)}) and from the order ` +
          `(${fixed(stockFromOrder.p95)} ms; p99 ${fixed(stockFromOrder.p99)}, max ${fixed(stockFromOrder.max)}); ` +
          `from pressing Pay p95 ${fixed(stockFromPay.p95)} ms`,
        `${mark(checks.oversell)}: oversells ${oversells}: ${orders} orders of ${options.stock} units, final stock ${db.stock}, units sold ${options.stock - db.stock}`,
        `${mark(checks.offer)}: offer orders ${offerOrders} ≤ offer units ${offerQuantity}, every order at its price ${offerPriceOk}, offerRemaining never negative (min ${w.offerRemainingMin})`,
        `${mark(checks.duplicates)}: orders ${orders} = distinct payments ${distinctPayments}`,
        `${mark(checks.sold)}: sold ${expectedSold}: ${confirmed.length} confirms succeeded → ${orders} orders`,
        `${mark(checks.statuses)}: checkout ${JSON.stringify(statuses)}; other statuses ${checkoutOther.length}, unpaid sessions ${confirmOther.length}`,
        `${mark(checks.lostStock)}: lost stock events ${lostStock} of ${toOrder.length + lostStock} (purchase × viewer); invalid stock values ${w.stockNegative}`,
        `${mark(checks.api)}: the API's stock ${stockViaApi} = the database's ${db.stock}`,
      ];
      failed = Object.entries(checks).some(([key, ok]) => key !== 'target' && !ok);

      const label = setupLabel;
      const rows: Row[] = [
        {
          metric: `${label}: confirm answered → every viewer has the stock, p50`,
          value: stockDelay.p50,
          unit: 'ms',
          baseline: baseline.p50,
          note: `${stockDelay.n.toLocaleString('en')} (purchase × viewer); ${fixed((beforeAnswer / Math.max(1, stockDelay.n)) * 100)}% before the confirm answered; baseline: chat send → receive`,
        },
        {
          metric: `${label}: confirm answered → viewer, p95`,
          value: stockDelay.p95,
          unit: 'ms',
          baseline: baseline.p95,
          note:
            `target ≤ ${TARGET.p95} ms` +
            (instances > 1 ? `; by instance ${byInstance.map((p) => fixed(p)).join(' / ')} ms` : ''),
        },
        {
          metric: `${label}: confirm answered → viewer, p99`,
          value: stockDelay.p99,
          unit: 'ms',
          baseline: baseline.p99,
        },
        {
          metric: `${label}: confirm answered → viewer, max`,
          value: stockDelay.max,
          unit: 'ms',
          baseline: baseline.max,
        },
        {
          metric: `${label}: order created → viewer, p50 / p95 / p99`,
          value: stockFromOrder.p50,
          unit: 'ms',
          note: `p95 ${fixed(stockFromOrder.p95)}, p99 ${fixed(stockFromOrder.p99)}, max ${fixed(stockFromOrder.max)} ms; orders.created_at (the webhook transaction's start), the server's clock; target p95 ≤ ${TARGET.p95} ms`,
        },
        {
          metric: `${label}: confirm sent (Pay pressed) → viewer, p50 / p95 / p99`,
          value: stockFromPay.p50,
          unit: 'ms',
          note: `p95 ${fixed(stockFromPay.p95)}, p99 ${fixed(stockFromPay.p99)}, max ${fixed(stockFromPay.max)} ms; includes the payment and the order`,
        },
        {
          metric: `${label}: last viewer of each purchase, from the answer, p50 / p95`,
          value: allViewersFromConfirm.p50,
          unit: 'ms',
          note: `p95 ${fixed(allViewersFromConfirm.p95)}, max ${fixed(allViewersFromConfirm.max)} ms; from the order p50 ${fixed(allViewersFromOrder.p50)}, p95 ${fixed(allViewersFromOrder.p95)}, max ${fixed(allViewersFromOrder.max)} ms (${allViewersFromOrder.n} purchases)`,
        },
        {
          metric: `${label}: orders written after their confirm answered`,
          value: orderAfterAnswer.length,
          unit: '',
          note: `of ${timeline.length}, up to ${fixed(orderAfterAnswerMax, 0)} ms later; webhook created → delivered p50 ${fixed(webhookLag.p50, 0)}, p95 ${fixed(webhookLag.p95, 0)}, max ${fixed(webhookLag.max, 0)} ms; ${webhookRetried} delivered on a 2nd attempt`,
        },
        {
          metric: `${label}: confirm answered → purchase line, p50 / p95 / p99`,
          value: lineDelay.p50,
          unit: 'ms',
          note: `p95 ${fixed(lineDelay.p95)}, p99 ${fixed(lineDelay.p99)}, max ${fixed(lineDelay.max)} ms; lost ${lostLines}; ${db.purchaseLines} lines stored`,
        },
        {
          metric: `${label}: baseline chat send → viewer, p50 / p95 / p99`,
          value: baseline.p50,
          unit: 'ms',
          note: `p95 ${fixed(baseline.p95)}, p99 ${fixed(baseline.p99)}, max ${fixed(baseline.max)} ms; ${options.baseline} messages × ${options.viewers} viewers, lost ${baselineLost}`,
        },
        {
          metric: `${label}: pin request → viewer, p50 / p95`,
          value: pinFig.p50,
          unit: 'ms',
          note: `p95 ${fixed(pinFig.p95)}, max ${fixed(pinFig.max)} ms; answered after ${fixed(pinFig.answeredMs)} ms; missing ${pinFig.missing}`,
        },
        {
          metric: `${label}: offer request → viewer, p50 / p95`,
          value: offerFig.p50,
          unit: 'ms',
          note: `p95 ${fixed(offerFig.p95)}, max ${fixed(offerFig.max)} ms; answered after ${fixed(offerFig.answeredMs)} ms; missing ${offerFig.missing}`,
        },
        {
          metric: `${label}: stock deliveries/s`,
          value: stockDeliveries / Math.max(0.001, stockSec),
          unit: '/s',
          note: `${stockDeliveries.toLocaleString('en')} stock frames in ${fixed(stockSec, 2)} s; all frames in the window ${Math.round(framesInWindow / windowSec).toLocaleString('en')}/s`,
        },
        {
          metric: `${label}: lost stock events`,
          value: lostStock,
          unit: '',
          note: 'purchase × viewer pairs never covered; must be 0',
        },
        {
          metric: `${label}: stock values never announced`,
          value: neverAnnounced.length,
          unit: '',
          note: `of ${expectedValues.length} (${neverAnnounced.slice(0, 8).join(', ')}); repeats ${w.stockRepeats}, stock going back up ${w.stockBackwards} events at ${w.viewersBackwards.reduce((a, b) => a + b, 0)} viewers`,
        },
        {
          metric: `${label}: orders`,
          value: orders,
          unit: '',
          note: `must be ${expectedSold} (≤ ${options.stock} units); confirms succeeded ${confirmed.length}; offer orders ${offerOrders} of ${offerQuantity}`,
        },
        {
          metric: `${label}: final stock`,
          value: db.stock,
          unit: '',
          note: `API ${stockViaApi}; must be ${options.stock - expectedSold}`,
        },
        { metric: `${label}: oversells`, value: oversells, unit: '', note: 'must be 0' },
        {
          metric: `${label}: server CPU in the window`,
          value: sum(serverCpuPct),
          unit: '%',
          note: `${instances > 1 ? `A ${fixed(serverCpuPct[0] ?? 0, 0)}% + B ${fixed(serverCpuPct[1] ?? 0, 0)}%; ` : ''}of one core over ${fixed(windowSec)} s; clients ${fixed(clientsCpuPct, 0)}%; waiting for a CPU: server ${serverWaitPct.map((x) => `${fixed(x, 0)}%`).join(' + ')}, clients ${fixed(clientsWaitPct, 0)}%`,
        },
        {
          metric: `${label}: server CPU time per purchase`,
          value: serverCpuMsPerPurchase,
          unit: 'ms',
          note: `CPU time, not wall time (the figure least skewed by other load): checkout, payment, order, announcements and fan-out; ${fixed(serverCpuMsPer1kFrames, 2)} ms per 1,000 frames delivered`,
        },
        {
          metric: `${label}: server RSS peak`,
          value: sum(rssPeak),
          unit: 'MB',
          note: `before the viewers joined ${serverRssIdleMb.map((m) => fixed(m, 0)).join(' + ')} MB`,
        },
        {
          metric: `${label}: connect ${options.viewers} viewers`,
          value: connectSec,
          unit: 's',
          note: `to chat_history, ${VIEWER_CONCURRENCY} at a time; quiet after ${fixed(settleSec)} s more`,
        },
      ];

      const loadAverageAfter = loadavg();
      const defaults =
        options.viewers === DEFAULTS.viewers &&
        options.buyers === DEFAULTS.buyers &&
        options.stock === DEFAULTS.stock &&
        options.windowSec === DEFAULTS.windowSec;
      const name = `shop${options.redisUrl ? '-redis' : options.databaseUrl ? '-pg' : ''}${defaults ? '' : `-${options.viewers}v-${options.buyers}b-${options.stock}u`}`;
      report(name, rows, {
        setup: setupLabel,
        options: {
          ...options,
          databaseUrl: options.databaseUrl ? new URL(options.databaseUrl).host : undefined,
          redisUrl: options.redisUrl ? new URL(options.redisUrl).host : undefined,
        },
        machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter },
        target: TARGET,
        latency:
          'stock: first receive (wallMs in this process) of a stock value ≤ what the purchase left − the time its confirm answered (and − orders.created_at); every (purchase × viewer) pair',
        cpu: 'server CPU from /proc/<pid>/stat over the purchase window (first checkout → every viewer has the final stock), % of one core, all threads; Redis and PostgreSQL not included',
        setupFigures: {
          serverStartSec,
          signUpSec,
          accounts: accounts.length,
          warmupOrders,
          connectSec,
          settleSec,
        },
        stockDelay,
        stockFromOrder,
        stockFromPay,
        lastViewerPerPurchase: { fromConfirm: allViewersFromConfirm, fromOrder: allViewersFromOrder },
        stockDelayP95ByInstance: byInstance,
        purchaseLine: { ...lineDelay, lost: lostLines },
        baseline: { ...baseline, lost: baselineLost },
        pin: pinFig,
        offer: offerFig,
        events: {
          stockFrames: w.stockFrames,
          stockRepeats: w.stockRepeats,
          stockBackwards: w.stockBackwards,
          backwardsExamples: w.backwardsExamples.map((e) => ({ ...e, at: rel(e.at) })),
          sequences: w.sequences.map((seq) => seq.map(([stock, at]) => [stock, rel(at)])),
          viewersBackwards: w.viewersBackwards.reduce((a, b) => a + b, 0),
          neverAnnounced,
          offerRemainingMin: w.offerRemainingMin,
          lineFrames: w.lineFrames,
          lineUnmatched: w.lineUnmatched,
          framesInWindow,
          badFrames: w.badFrames,
          errors: w.errors,
          sellerErrors,
          unexpectedCloses: w.unexpectedCloses,
        },
        purchases: {
          checkoutStatuses: statuses,
          confirmed: confirmed.length,
          checkoutMs: dist(purchases.map((p) => p.checkout.ms)),
          confirmMs: dist(purchases.flatMap((p) => (p.confirm ? [p.confirm.ms] : []))),
          amounts: countBy(purchases.flatMap((p) => (p.confirmedAt ? [p.checkout.amountCents ?? 0] : []))),
          errors: [...checkoutOther, ...confirmOther].slice(0, 10),
        },
        counts: {
          orders,
          offerOrders,
          offerQuantity,
          distinctPayments,
          finalStock: db.stock,
          stockViaApi,
          offerRemainingViaApi,
          payments: db.payments,
          purchaseLines: db.purchaseLines,
        },
        serverCpuPct,
        serverCpuMsPerPurchase,
        serverCpuMsPer1kFrames,
        clientsCpuPct,
        runQueueWait: {
          serverPct: serverWaitPct,
          clientsPct: clientsWaitPct,
          note: 'time runnable but waiting for a CPU (schedstat, all threads), % of the window',
        },
        ordersAfterConfirmAnswered: { count: orderAfterAnswer.length, maxMs: orderAfterAnswerMax },
        webhookLag,
        webhookRetried,
        timeline,
        serverRssPeakMb: rssPeak,
        serverRssIdleMb,
        serverExitCodes: exitCodes,
        checks,
        verdicts,
      });
      console.log(
        `\nload average ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')} → ${loadAverageAfter.map((n) => n.toFixed(1)).join(' ')}`,
      );
      console.log(`verdicts:\n  ${verdicts.join('\n  ')}`);
    } finally {
      clearInterval(sampler);
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
