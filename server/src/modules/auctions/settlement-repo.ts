import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Claim } from '../../platform/leases.ts';

/** The settlement's queries: the leases on closed auctions whose winner is to be charged. */

type Executor = Pick<Db, 'execute'>;

/** How long a declined winner has to pay with another card. */
export const PAY_AGAIN_MINUTES = 5;

/**
 * Claims closed auctions whose winner is still to be charged and whose lease is free (never
 * claimed, or its holder died): each claim's token is the row's lease count after this claim.
 */
export async function claimSettlements(db: Executor, leaseSec: number, id?: string): Promise<Claim[]> {
  const claimed = await db.execute<{ id: string; lease_token: number }>(sql`
    update auctions set lease_token = lease_token + 1,
      leased_until = clock_timestamp() + make_interval(secs => ${leaseSec})
    where id in (
      select id from auctions
      where payment_state = 'pending' and status = 'ended'
        and (leased_until is null or leased_until < clock_timestamp())
        ${id ? sql`and id = ${id}` : sql``}
      order by closed_at limit 20
      for update skip locked)
    returning id, lease_token`);
  return claimed.rows.map((row) => ({ id: row.id, token: Number(row.lease_token) }));
}

export async function renewSettlements(db: Executor, claims: Claim[], leaseSec: number): Promise<string[]> {
  const renewed: string[] = [];
  for (const claim of claims) {
    const done = await db.execute<{ id: string }>(sql`
      update auctions set leased_until = clock_timestamp() + make_interval(secs => ${leaseSec})
      where id = ${claim.id} and lease_token = ${claim.token} and payment_state = 'pending'
      returning id`);
    if (done.rows[0]) renewed.push(claim.id);
  }
  return renewed;
}

/** A lapsed try (the provider did not answer): tried again after `afterSec`. */
export async function retryLater(db: Executor, id: string, afterSec: number, error: string): Promise<void> {
  await db.execute(sql`
    update auctions set leased_until = clock_timestamp() + make_interval(secs => ${afterSec}),
      last_error = ${error}
    where id = ${id} and payment_state = 'pending'`);
}

export type ToSettle = {
  id: string;
  stream_id: string;
  room_name: string;
  product_id: string;
  seller_id: string;
  winner_id: string | null;
  price_cents: number | null;
  payment_id: string | null;
  payment_state: string | null;
  title: string;
  fulfillment: 'ship' | 'digital' | 'pickup';
  shipping_cents: number;
  amount_cents: number | null;
  /** A declined winner may still pay (payBy has not passed, by the database's clock). */
  pay_open: boolean;
};

export async function auctionToSettle(tx: Executor, id: string, lock = false): Promise<ToSettle | undefined> {
  const found = await tx.execute<ToSettle>(sql`
    select a.id, a.stream_id, s.room_name, a.product_id, a.seller_id, a.winner_id, a.price_cents, a.payment_id,
      a.payment_state, p.title, p.fulfillment, p.shipping_cents, pay.amount_cents,
      coalesce(a.pay_by > clock_timestamp(), false) as pay_open
    from auctions a join streams s on s.id = a.stream_id join products p on p.id = a.product_id
      left join payments pay on pay.id = a.payment_id
    where a.id = ${id} ${lock ? sql`for update of a` : sql``}`);
  return found.rows[0];
}

export async function attachPayment(tx: Tx, id: string, paymentId: string): Promise<void> {
  await tx.execute(sql`update auctions set payment_id = ${paymentId} where id = ${id}`);
}

export async function markPaid(tx: Tx, id: string, orderId: string | undefined): Promise<void> {
  await tx.execute(sql`
    update auctions set payment_state = 'paid', order_id = ${orderId ?? null}, last_error = null,
      leased_until = null, version = version + 1
    where id = ${id} and payment_state = 'pending'`);
}

export async function markDeclined(tx: Executor, id: string, message: string): Promise<void> {
  await tx.execute(sql`
    update auctions set payment_state = 'declined', last_error = ${message}, leased_until = null,
      pay_by = clock_timestamp() + make_interval(mins => ${PAY_AGAIN_MINUTES}), version = version + 1
    where id = ${id} and payment_state = 'pending'`);
}

/** The declined winner pays again (with the card they saved since): a new payment is charged. */
export async function chargeAgain(tx: Tx, id: string, winnerId: string): Promise<boolean> {
  const done = await tx.execute<{ id: string }>(sql`
    update auctions set payment_state = 'pending', payment_id = null, pay_by = null, leased_until = null,
      version = version + 1
    where id = ${id} and winner_id = ${winnerId} and payment_state = 'declined' and pay_by > clock_timestamp()
    returning id`);
  return done.rows.length > 0;
}

/** The highest bidder after the winner: their highest bid. */
export async function runnerUpOf(
  db: Executor,
  auctionId: string,
  winnerId: string,
): Promise<{ bidder_id: string; amount_cents: number } | undefined> {
  const found = await db.execute<{ bidder_id: string; amount_cents: number }>(sql`
    select bidder_id, max(amount_cents) as amount_cents from auction_bids
    where auction_id = ${auctionId} and bidder_id <> ${winnerId}
    group by bidder_id order by max(amount_cents) desc, min(seq) limit 1`);
  return found.rows[0];
}

/** The declined winner's time is up: the runner-up wins at their highest bid, and is charged. */
export async function passToRunnerUp(
  tx: Tx,
  auctionId: string,
  runnerUp: { bidder_id: string; amount_cents: number },
): Promise<boolean> {
  const done = await tx.execute<{ id: string }>(sql`
    update auctions set winner_id = ${runnerUp.bidder_id}, price_cents = ${runnerUp.amount_cents},
      payment_state = 'pending', payment_id = null, pay_by = null, leased_until = null, last_error = null,
      version = version + 1
    where id = ${auctionId} and payment_state = 'declined' and pay_by <= clock_timestamp()
    returning id`);
  return done.rows.length > 0;
}
