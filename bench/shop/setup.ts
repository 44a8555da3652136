/** The shop bench's setup (not measured): the servers, the accounts, the live room, its product, a warm-up. */
import { randomBytes, randomInt } from 'node:crypto';
import {
  type Account,
  type AppServer,
  type Client,
  client,
  fixed,
  insertCategory,
  listProduct,
  runPool,
  type Storage,
  signUpAll,
  startAppServer,
} from '../support.ts';
import { DEFAULTS, type Options } from './options.ts';
import { purchase } from './purchase.ts';

/** The seller's requests through the API: the answer's body, or an error naming `what` on another status. */
export async function expectOk(
  reply: Promise<Awaited<ReturnType<Client['request']>>>,
  what: string,
  status = 200,
) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies read field by field
  return r.body as any;
}

/** Setup (not measured): the servers, the accounts, the live room, its product, a warm-up. */
export async function setUp(options: Options, storage: Storage, servers: AppServer[], signal: AbortSignal) {
  const instances = options.redisUrl ? 2 : 1;
  const tSetup = performance.now();
  const categoryId = await insertCategory(storage, 'Bench live', 'bench-live');
  // Both instances run on the run's one DATA_DIR (storage.dataDir): their media folder is shared.
  const env = options.redisUrl ? { REDIS_URL: options.redisUrl, MEDIA_DIR_SHARED: 'true' } : undefined;
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
    // The shop bench measures the room, not shipping: its checkouts need no address.
    fulfillment: 'digital',
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
      fulfillment: 'digital',
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

export type Setup = Awaited<ReturnType<typeof setUp>>;
