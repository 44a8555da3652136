/**
 * Waiting for the auction's close and its winner's charge. An instance settles (charges the winner)
 * right after it closes an auction; should that one try not finish, the bench says where the row
 * was stuck and nudges the instances with a second auction of another product, without bids, in the
 * same room: its close runs the settlement again (which claims every closed auction still pending).
 * The run then reports the charge as not made on its own.
 */
import { eventually, listProduct, NotWithinError } from '../../server/src/test/support.ts';
import { fixed } from '../support.ts';
import type { Setup } from './setup.ts';

export interface Settlement {
  // biome-ignore lint/suspicious/noExplicitAny: the auction view as the API answers it
  auction: any;
  /** Settled (paid) without the nudge, and how long after the last bid's answer. */
  onItsOwn: boolean;
  settleMs: number;
  /** Where the auction's settlement stood when it had not settled on its own. */
  stuck?: Record<string, unknown>;
}

const paid = (setup: Setup, auctionId: string, timeoutMs: number) =>
  eventually(
    'the auction closed and its winner charged',
    async () => (await setup.apis[1].request('GET', `/api/auctions/${auctionId}`)).body,
    // biome-ignore lint/suspicious/noExplicitAny: the auction view as the API answers it
    (a: any) => a?.status === 'ended' && a.result?.payment === 'paid',
    { timeoutMs, intervalMs: 100 },
  );

async function whereStuck(setup: Setup, auctionId: string): Promise<Record<string, unknown>> {
  const { pool } = setup.pair;
  const [auction] = (
    await pool.query(
      `select status, payment_state, payment_id, last_error, lease_token,
         extract(epoch from leased_until - clock_timestamp()) * 1000 as lease_left_ms,
         extract(epoch from clock_timestamp() - closed_at) * 1000 as since_close_ms
       from auctions where id = $1`,
      [auctionId],
    )
  ).rows;
  const payment = auction?.payment_id
    ? (await pool.query('select status, last_error from payments where id = $1', [auction.payment_id]))
        .rows[0]
    : undefined;
  const intents = auction?.payment_id
    ? (
        await pool.query('select status, last_error from local_payment_intents where payment_id = $1', [
          String(auction.payment_id),
        ])
      ).rows
    : [];
  return { auction, payment, intents };
}

export async function waitForSettlement(
  setup: Setup,
  auctionId: string,
  withinMs: number,
): Promise<Settlement> {
  const started = performance.now();
  try {
    const auction = await paid(setup, auctionId, withinMs);
    return { auction, onItsOwn: true, settleMs: performance.now() - started };
  } catch (error) {
    if (!(error instanceof NotWithinError)) throw error;
  }
  const stuck = await whereStuck(setup, auctionId);
  console.warn(
    `  !! not charged within ${fixed(withinMs / 1000, 0)} s of the last bid: ${JSON.stringify(stuck)}`,
  );
  console.warn('  !! nudging: a second auction without bids in the same room, whose close settles again');
  const productId = await listProduct(setup.pair, setup.pair.a, setup.seller, 1);
  const as = { cookie: setup.seller.cookie, forwardedFor: setup.seller.address };
  await setup.apis[0].request('POST', `/api/streams/${setup.room}/lineup`, { ...as, body: { productId } });
  const nudge = await setup.apis[0].request('POST', `/api/streams/${setup.room}/auctions`, {
    ...as,
    body: { productId, startingBidCents: 100, durationSec: 5, suddenDeath: true },
  });
  if (nudge.status !== 201)
    throw new Error(`the nudge auction: ${nudge.status} ${JSON.stringify(nudge.body)}`);
  const auction = await paid(setup, auctionId, 30_000);
  console.warn(
    `  !! charged after the nudge, ${fixed((performance.now() - started) / 1000)} s after the last bid`,
  );
  return { auction, onItsOwn: false, settleMs: performance.now() - started, stuck };
}
