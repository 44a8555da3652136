/**
 * Takeover after a crash (issue 18): how long buyers who were charged when an instance died wait
 * for their order, now that outbox claims are short leases (server/src/platform/leases.ts).
 *
 * Two real server processes (server/src/main.ts) on a fresh database of the PostgreSQL server at
 * --database-url (or DATABASE_URL / TEST_DATABASE_URL), with Redis at --redis-url (or REDIS_URL)
 * when given. Each round: a product with as many units as buyers; fresh buyers (signed up on the
 * survivor, each from its own X-Forwarded-For address) open checkout on the victim instance and pay
 * with 4242 4242 4242 4242 all at once; once --stranded buyers are charged without their order the
 * victim gets SIGKILL (the drill of server/src/test/checkout-drill.ts, shared with the fault test
 * server/src/modules/checkout/instance-crash.test.ts). Measured: from the kill until every charged
 * payment has its order, which only the survivor's payment job (every second) can write once the
 * dead instance's leases lapse. A new victim starts for the next round.
 *
 * Baseline, in the same run and the same shape: a burst on the survivor with no crash, where each
 * payment's answer comes once its order exists (the request delivers its own webhook): how long a
 * buyer of the same burst waits when nothing fails.
 *
 * Invariants checked each round (exit code 1 when one breaks): one order per payment and per buyer,
 * stock + orders = the initial stock, every charged payment ordered within 60 s.
 *
 *   npm run bench -- takeover [--rounds=5] [--buyers=16] [--stranded=3] [--database-url=postgres://…]
 *                             [--redis-url=redis://…] [--max-seconds=300]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) Stops by itself after
 * --max-seconds: every server is stopped, the database dropped, and the exit code is 3.
 */
import { loadavg } from 'node:os';
import type { ServerProcess } from '../server/src/test/support.ts';
import {
  chargedWithoutOrder,
  LEASE_SEC,
  listProduct,
  openCheckout,
  type Pair,
  payInBurstAndKill,
  payWithCard,
  type Shopper,
  signUpShopper,
  startPair,
  within,
} from '../server/src/test/support.ts';
import { percentile, report } from './report.ts';
import { cliFlags, fixed } from './support.ts';

const { value, number } = cliFlags(process.argv.slice(2));
const rounds = number('rounds', 5, 1, 50);
const buyerCount = number('buyers', 16, 2, 200);
const strandedAtLeast = number('stranded', 3, 1, 50);
const maxSeconds = number('max-seconds', 300, 30, 3600);
const databaseUrl = value('database-url') || process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
const redisUrl = value('redis-url') || process.env.REDIS_URL || undefined;
if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error('takeover needs PostgreSQL: --database-url=postgres://… (two instances share it)');
  process.exit(2);
}

let pair: Pair | undefined;
const hardCap = setTimeout(() => {
  console.error(`takeover: stopped after ${maxSeconds} s`);
  void (pair?.close() ?? Promise.resolve()).finally(() => process.exit(3));
}, maxSeconds * 1000);
hardCap.unref();

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};

async function freshBuyers(on: ServerProcess): Promise<Shopper[]> {
  const buyers: Shopper[] = [];
  for (let i = 0; i < buyerCount; i++) buyers.push(await signUpShopper(on));
  return buyers;
}

/** Opens a session for each buyer on `server`; answers their client secrets. */
async function sessions(server: ServerProcess, buyers: Shopper[], productId: string): Promise<string[]> {
  const secrets: string[] = [];
  for (const buyer of buyers) {
    const opened = await openCheckout(server, buyer, productId);
    if (opened.status !== 200) throw new Error(`checkout: ${opened.status} ${JSON.stringify(opened.body)}`);
    secrets.push(opened.body.clientSecret);
  }
  return secrets;
}

async function checkInvariants(productId: string, round: string) {
  if (!pair) return;
  const orders = await pair.pool.query<{ payment_id: string; buyer_id: string }>(
    'select payment_id, buyer_id from orders where product_id = $1',
    [productId],
  );
  const payments = new Set(orders.rows.map((row) => row.payment_id)).size;
  const buyers = new Set(orders.rows.map((row) => row.buyer_id)).size;
  check(payments === orders.rows.length, `${round}: ${orders.rows.length} orders for ${payments} payments`);
  check(buyers === orders.rows.length, `${round}: ${orders.rows.length} orders for ${buyers} buyers`);
  const stock = await pair.pool.query<{ stock: number }>('select stock from products where id = $1', [
    productId,
  ]);
  const left = stock.rows[0]?.stock ?? -1;
  check(left + orders.rows.length === buyerCount, `${round}: stock ${left} + orders ${orders.rows.length}`);
}

try {
  console.log(`takeover: ${rounds} rounds of ${buyerCount} buyers, kill at ${strandedAtLeast} stranded`);
  pair = await startPair({ serverUrl: databaseUrl, redisUrl, label: 'takeover', stdio: 'ignore' });
  const survivor = pair.b;
  const pool = pair.pool;
  const seller = await signUpShopper(survivor);

  // Baseline: the same burst on the survivor, nothing killed.
  const controlProduct = await listProduct(pair, survivor, seller, buyerCount);
  const controlSecrets = await sessions(survivor, await freshBuyers(survivor), controlProduct);
  const controlStart = performance.now();
  const controlTimes = await Promise.all(
    controlSecrets.map(async (secret) => {
      const paid = await payWithCard(survivor, secret);
      check(paid.status === 200, `control: payment answered ${paid.status}`);
      return performance.now() - controlStart;
    }),
  );
  check((await chargedWithoutOrder(pool)) === 0, 'control: a payment answered before its order');
  await checkInvariants(controlProduct, 'control');
  console.log(`  control: every order within ${fixed(Math.max(...controlTimes))} ms of the burst`);

  let victim = pair.a;
  const takeovers: number[] = [];
  const stranded: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const productId = await listProduct(pair, survivor, seller, buyerCount);
    const secrets = await sessions(victim, await freshBuyers(survivor), productId);
    const drill = await payInBurstAndKill(victim, pool, secrets, strandedAtLeast);
    const settled = await within(60_000, async () => (await chargedWithoutOrder(pool)) === 0);
    const takeoverMs = performance.now() - drill.killedAt;
    check(settled !== undefined, `round ${round}: charged payments without an order 60 s after the kill`);
    await checkInvariants(productId, `round ${round}`);
    takeovers.push(takeoverMs);
    stranded.push(drill.stranded);
    console.log(
      `  round ${round}: ${drill.stranded} stranded, all ordered ${fixed(takeoverMs)} ms after the kill`,
    );
    if (round < rounds) victim = await pair.another();
  }

  report(
    'takeover',
    [
      {
        metric: 'kill -9 → every charged payment ordered, p50',
        value: percentile(takeovers, 50),
        unit: 'ms',
        baseline: percentile(controlTimes, 50),
        note: 'baseline: order after payment in the same burst, no crash',
      },
      {
        metric: 'kill -9 → every charged payment ordered, max',
        value: Math.max(...takeovers),
        unit: 'ms',
        baseline: Math.max(...controlTimes),
      },
      {
        metric: 'charged without an order at the kill, mean',
        value: stranded.reduce((a, b) => a + b, 0) / rounds,
        unit: 'payments',
      },
      {
        metric: 'lease on a claimed event',
        value: LEASE_SEC * 1000,
        unit: 'ms',
        note: 'renewed every 1.5 s while working',
      },
    ],
    {
      rounds,
      buyers: buyerCount,
      strandedAtLeast,
      loadavg: loadavg(),
      takeovers,
      stranded,
      redis: Boolean(redisUrl),
    },
  );
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await pair?.close().catch((error) => console.error('cleanup failed', error));
  clearTimeout(hardCap);
}
if (failures.length > 0) {
  console.error(`takeover: ${failures.length} invariant(s) broken:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}
