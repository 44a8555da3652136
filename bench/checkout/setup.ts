/**
 * The checkout bench's setup (not measured): the server, the accounts through the API, the
 * products, a warm-up and the floor. The helpers are in ../support.ts; every request listens to the
 * hard cap.
 */
import { randomBytes } from 'node:crypto';
import { percentile } from '../report.ts';
import {
  type Account,
  type AppServer,
  type Client,
  fixed,
  insertCategory,
  listProduct as listProductVia,
  runPool,
  type Storage,
  signUpAll as signUpAllVia,
  sleep,
  startAppServer,
  client as webClient,
} from '../support.ts';
import { CANCELS_PRICE_CENTS, CANCELS_SHIPPING_CENTS } from './cancels.ts';
import { getBurst } from './floor.ts';
import type { Options } from './options.ts';
import { purchase } from './purchase.ts';
import { checkNotStopped, stopAll } from './stop.ts';

const SIGNUP_CONCURRENCY = 8;

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

/** Setup (not measured): the server, the accounts, the product, a warm-up and the floor. */
export async function setUp(options: Options, storage: Storage, onServer: (server: AppServer) => void) {
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

export type Setup = Awaited<ReturnType<typeof setUp>>;
