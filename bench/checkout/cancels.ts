/**
 * The cancels-and-refunds run (ADR 0016): while buyers keep buying one shipped product, about one
 * buyer in ten cancels their order and the seller refunds about one order in ten; both give the
 * unit back to stock (which later buyers then take) and write the ledger's reversing entries.
 *
 * Buyer i of the run arrives at i × spread / buyers and buys as the drop's buyers do (open
 * checkout with an address, pay with 4242); on a 409 (sold out, or every unit held) they try again
 * 400 ms later, at most `attempts` times. Once paid they find their order (GET /api/orders) and,
 * by i mod 20 (PLANS), keep it, cancel it, have it refunded by the seller, have it shipped and then
 * refunded, have it shipped and then try to cancel it (409 expected), or cancel it at the very
 * moment the seller refunds it (exactly one of the two must win, the other 409).
 */
import { type Account, type Client, runPool, sleep } from '../support.ts';
import { type Floor, getBurst } from './floor.ts';
import { type Purchase, purchase } from './purchase.ts';

/** The run's product: prices that make the fee round (2.9 % of $50.98 is 147.84 cents → 148). */
export const CANCELS_PRICE_CENTS = 4599;
export const CANCELS_SHIPPING_CENTS = 499;
const RETRY_AFTER_409_MS = 400;
/** How long a paid buyer looks for their order (its webhook may be delivered a little later). */
const ORDER_LOOKUP_MAX_MS = 10_000;

export type Plan =
  | 'keep'
  | 'cancel'
  | 'refund'
  | 'ship-then-refund'
  | 'ship-then-cancel'
  | 'cancel-during-refund';

/** What buyer i does once paid: 2 in 20 cancel (one of them while the seller refunds), 2 in 20 are refunded. */
export function planOf(i: number): Plan {
  const plans: Record<number, Plan> = {
    3: 'cancel',
    13: 'cancel-during-refund',
    7: 'refund',
    17: 'ship-then-refund',
    5: 'ship-then-cancel',
  };
  return plans[i % 20] ?? 'keep';
}

export type Action = 'cancel' | 'refund' | 'ship';

export interface Move {
  action: Action;
  status: number;
  ms: number;
  endedAt: number;
  error?: string;
}

export interface BuyerRun {
  buyer: number;
  plan: Plan;
  /** Every purchase attempt, 409s included. */
  attempts: Purchase[];
  /** The attempt that paid. */
  bought?: Purchase;
  orderId?: string;
  orderLookupMs?: number;
  moves: Move[];
  /** The order's status the bench expects after its moves (undefined: no order). */
  expected?: 'paid' | 'shipped' | 'cancelled' | 'refunded';
  /** Something answered what its plan did not allow (a 500, a timeout, a 200 where 409 was due…). */
  unexpected: string[];
}

export interface CancelsRunInput {
  api: Client;
  seller: Account;
  buyers: Account[];
  productId: string;
  attempts: number;
  spreadMs: number;
  signal: AbortSignal;
}

/** The buyer's order of the product, looked for until it shows (bounded). */
async function findOrder(api: Client, buyer: Account, productId: string, signal: AbortSignal) {
  const t0 = performance.now();
  while (performance.now() - t0 < ORDER_LOOKUP_MAX_MS) {
    signal.throwIfAborted();
    const reply = await api.request('GET', '/api/orders?role=buyer', { cookie: buyer.cookie });
    const found = Array.isArray(reply.body?.orders)
      ? (reply.body.orders as Array<{ id: string; item: { productId: string | null } }>).find(
          (o) => o.item.productId === productId,
        )
      : undefined;
    if (found) return { orderId: found.id, ms: performance.now() - t0 };
    await sleep(100);
  }
  return undefined;
}

async function move(
  api: Client,
  action: Action,
  orderId: string,
  who: Account,
  index: number,
): Promise<Move> {
  const reply = await api.request('POST', `/api/orders/${orderId}/${action}`, {
    cookie: who.cookie,
    ...(action === 'ship' ? { body: { carrier: 'royal_mail', trackingNumber: `BENCH-${index}-GB` } } : {}),
  });
  return {
    action,
    status: reply.status,
    ms: reply.ms,
    endedAt: performance.now(),
    ...(reply.error ? { error: reply.error } : {}),
    ...(reply.status >= 400 && reply.status !== 409 ? { error: JSON.stringify(reply.body) } : {}),
  };
}

/** One buyer of the run: buy (trying again after 409s), then the plan's moves; what each answered. */
async function buyerRun(input: CancelsRunInput, i: number, t0: number): Promise<BuyerRun> {
  const { api, seller, productId, signal } = input;
  const buyer = input.buyers[i] as Account;
  const run: BuyerRun = { buyer: i, plan: planOf(i), attempts: [], moves: [], unexpected: [] };
  const startAt = t0 + (input.buyers.length > 1 ? (i * input.spreadMs) / input.buyers.length : 0);
  await sleep(Math.max(0, startAt - performance.now()));
  for (let attempt = 0; attempt < input.attempts; attempt++) {
    signal.throwIfAborted();
    const p = await purchase(api, buyer, i, productId);
    run.attempts.push(p);
    if (p.totalMs !== undefined) {
      run.bought = p;
      break;
    }
    if (p.checkout.status !== 409) {
      run.unexpected.push(
        p.checkout.status === 200
          ? `confirm ${p.confirm?.status} ${p.confirm?.outcome ?? p.confirm?.error ?? ''}`
          : `checkout ${p.checkout.status} ${p.checkout.error ?? p.checkout.code ?? ''}`,
      );
      break;
    }
    await sleep(RETRY_AFTER_409_MS);
  }
  if (!run.bought) return run;

  const found = await findOrder(api, buyer, productId, signal);
  if (!found) {
    run.unexpected.push('paid, but no order showed in GET /api/orders within 10 s');
    return run;
  }
  run.orderId = found.orderId;
  run.orderLookupMs = found.ms;
  const orderId = found.orderId;
  // A moment to think, different per buyer, while other buyers keep buying.
  await sleep((i * 37) % 300);
  const expect = (m: Move, status: number) => {
    run.moves.push(m);
    if (m.status !== status)
      run.unexpected.push(`${m.action} answered ${m.status} (expected ${status}) ${m.error ?? ''}`);
    return m.status === status;
  };
  switch (run.plan) {
    case 'keep':
      run.expected = 'paid';
      break;
    case 'cancel':
      run.expected = expect(await move(api, 'cancel', orderId, buyer, i), 200) ? 'cancelled' : undefined;
      break;
    case 'refund':
      run.expected = expect(await move(api, 'refund', orderId, seller, i), 200) ? 'refunded' : undefined;
      break;
    case 'ship-then-refund':
      expect(await move(api, 'ship', orderId, seller, i), 200);
      run.expected = expect(await move(api, 'refund', orderId, seller, i), 200) ? 'refunded' : undefined;
      break;
    case 'ship-then-cancel':
      expect(await move(api, 'ship', orderId, seller, i), 200);
      run.expected = expect(await move(api, 'cancel', orderId, buyer, i), 409) ? 'shipped' : undefined;
      break;
    case 'cancel-during-refund': {
      const [cancelled, refunded] = await Promise.all([
        move(api, 'cancel', orderId, buyer, i),
        move(api, 'refund', orderId, seller, i),
      ]);
      run.moves.push(cancelled, refunded);
      const statuses = [cancelled.status, refunded.status].sort().join('+');
      if (statuses !== '200+409')
        run.unexpected.push(
          `cancel ${cancelled.status} and refund ${refunded.status} at once (expected one 200, one 409)`,
        );
      else run.expected = cancelled.status === 200 ? 'cancelled' : 'refunded';
      break;
    }
  }
  return run;
}

/**
 * The run (measured): the floor first (one GET of the product per buyer, arriving as the buyers
 * will), then every buyer's purchase and moves.
 */
export async function runCancels(input: CancelsRunInput) {
  const count = input.buyers.length;
  const path = `/api/products/${input.productId}`;
  await getBurst(input.api, path, count, count);
  const floor: Floor = await getBurst(input.api, path, count, count, input.spreadMs);
  await sleep(300);
  const t0 = performance.now();
  const runs = await runPool(count, count, (i) => buyerRun(input, i, t0));
  const endedAt = performance.now();
  input.signal.throwIfAborted();
  return { runs, floor, t0, endedAt, durationSec: (endedAt - t0) / 1000 };
}

export type CancelsRun = Awaited<ReturnType<typeof runCancels>>;
