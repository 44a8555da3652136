import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The address snapshot as stored in a jsonb column (payments, orders): the API's shape. */
export type ShippingAddress = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string;
  country: string;
};

const jsonb = (value: ShippingAddress | null) =>
  value === null ? null : sql`${JSON.stringify(value)}::jsonb`;

/** Checkout's queries: products locked for a hold, the holds themselves (pending checkout payments). */

export type RoomStreamRow = {
  id: string;
  owner_id: string;
  is_active: boolean;
  ended_at: unknown;
};

export async function streamOfRoom(tx: Tx, roomName: string): Promise<RoomStreamRow | undefined> {
  const found = await tx.execute<RoomStreamRow>(
    sql`select id, owner_id, is_active, ended_at from streams where room_name = ${roomName}`,
  );
  return found.rows[0];
}

export type LockedProduct = {
  seller_id: string;
  price_cents: number;
  stock: number;
  title: string;
  fulfillment: 'ship' | 'digital' | 'pickup';
  shipping_cents: number;
};

/** The product's row, locked until the transaction ends: holds of one product are counted one at a time. */
export async function lockProduct(tx: Tx, productId: string): Promise<LockedProduct | undefined> {
  const found = await tx.execute<LockedProduct>(
    sql`select seller_id, price_cents, stock, title, fulfillment, shipping_cents from products
        where id = ${productId} for update`,
  );
  return found.rows[0];
}

/** Who a hold limit counts by: the buying account or the client address. */
export type HoldOwner = { column: 'user_id' | 'client_address'; value: string };

/**
 * Serialises counting the holds of these owners with other checkouts of the same owners (advisory
 * locks, taken after the product row; other products' rows are not locked by this transaction).
 */
export async function lockHoldOwners(tx: Tx, owners: HoldOwner[]): Promise<void> {
  for (const owner of owners) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`checkout-holds:${owner.value}`}))`);
  }
}

/** How many holds the owner has open, and the seconds until the oldest lapses. */
export async function openHoldsOf(tx: Tx, owner: HoldOwner): Promise<{ count: number; wait: number | null }> {
  const open = await tx.execute<{ n: number | string; wait: number | string | null }>(sql`
    select count(*) as n, ceil(extract(epoch from min(reserved_until) - now())) as wait
    from payments
    where ${sql.identifier(owner.column)} = ${owner.value} and kind = 'checkout' and status = 'pending'
      and reserved_until > now()`);
  const row = open.rows[0];
  return { count: Number(row?.n ?? 0), wait: row?.wait == null ? null : Number(row.wait) };
}

export type HoldRow = {
  id: string;
  user_id: string;
  client_secret: string | null;
  amount_cents: number;
  reserved_until: Date | string;
  offer_id: string | null;
  provider_ref: string | null;
  shipping_cents: number;
  shipping_address: ShippingAddress | null;
};

/** The product's live holds (pending checkout payments not yet lapsed). */
export async function liveHoldsOf(tx: Tx, productId: string): Promise<HoldRow[]> {
  const held = await tx.execute<HoldRow>(sql`
    select id, user_id, client_secret, amount_cents, reserved_until, offer_id, provider_ref, shipping_cents,
      shipping_address
    from payments
    where product_id = ${productId} and kind = 'checkout' and status = 'pending' and reserved_until > now()`);
  return held.rows;
}

/**
 * Units of the product an auction has (ADR 0022): one while its auction runs, and one while its
 * winner is being charged or, declined, may still pay with another card. The auctions module
 * owns those rows; the stock they keep out of checkout is counted here, with the holds.
 */
/** Units given away in a running giveaway (its winner's order takes the unit at the draw). */
export async function giveawayUnitsOf(tx: Tx, productId: string): Promise<number> {
  const found = await tx.execute<{ n: number | string }>(sql`
    select count(*) as n from giveaways where product_id = ${productId} and status = 'running'`);
  return Number(found.rows[0]?.n ?? 0);
}

export async function auctionUnitsOf(tx: Tx, productId: string): Promise<number> {
  const found = await tx.execute<{ n: number | string }>(sql`
    select count(*) as n from auctions
    where product_id = ${productId} and (status = 'running'
      or (status = 'ended' and (payment_state = 'pending' or (payment_state = 'declined' and pay_by > now()))))`);
  return Number(found.rows[0]?.n ?? 0);
}

/**
 * The buyer's order of the product placed in the last `withinSec` seconds and still theirs (not
 * cancelled or refunded), the newest; undefined when there is none.
 */
export async function recentOrderOf(
  tx: Tx,
  buyerId: string,
  productId: string,
  withinSec: number,
): Promise<string | undefined> {
  const found = await tx.execute<{ id: string }>(sql`
    select id from orders
    where buyer_id = ${buyerId} and product_id = ${productId} and status in ('paid', 'shipped', 'delivered')
      and created_at > now() - make_interval(secs => ${withinSec})
    order by created_at desc limit 1`);
  return found.rows[0]?.id;
}

export async function expirePayment(tx: Tx, paymentId: string): Promise<void> {
  await tx.execute(sql`update payments set status = 'expired', updated_at = now() where id = ${paymentId}`);
}

/**
 * Takes over a hold whose payment session was never attached, if its setup started (or was last
 * taken over) at least `afterSec` ago: answers whether this caller got it. Under the product's row
 * lock, so two requests never both take it over.
 */
export async function claimInterruptedSetup(tx: Tx, paymentId: string, afterSec: number): Promise<boolean> {
  const claimed = await tx.execute(sql`
    update payments set updated_at = now()
    where id = ${paymentId} and status = 'pending' and client_secret is null
      and updated_at <= now() - make_interval(secs => ${afterSec})
    returning id`);
  return claimed.rows.length > 0;
}

/**
 * Where a hold was (re)opened from, whether the buyer's handle shows in the room, and where it
 * ships (the latest address given: a buyer who corrects it keeps the hold and its session).
 */
export async function retargetHold(
  tx: Tx,
  paymentId: string,
  where: {
    streamId: string | null;
    live: boolean;
    showBuyer: boolean;
    shippingAddress: ShippingAddress | null;
  },
): Promise<void> {
  await tx.execute(sql`
    update payments set stream_id = ${where.streamId}, during_live = ${where.live},
      show_buyer = ${where.showBuyer}, shipping_address = ${jsonb(where.shippingAddress)}, updated_at = now()
    where id = ${paymentId}`);
}

export interface NewHold {
  buyerId: string;
  provider: string;
  productId: string;
  amountCents: number;
  holdSeconds: number;
  streamId: string | null;
  offerId: string | null;
  clientAddress: string | null;
  showBuyer: boolean;
  live: boolean;
  /** Part of amountCents. */
  shippingCents: number;
  shippingAddress: ShippingAddress | null;
}

/** A pending checkout payment holding one unit for `holdSeconds`. */
export async function insertHold(tx: Tx, hold: NewHold): Promise<{ id: string; reservedUntil: Date }> {
  const inserted = await tx.execute<{ id: string; reserved_until: Date | string }>(sql`
    insert into payments (user_id, kind, provider, product_id, amount_cents, reserved_until, stream_id,
      offer_id, client_address, show_buyer, during_live, shipping_cents, shipping_address)
    values (${hold.buyerId}, 'checkout', ${hold.provider}, ${hold.productId}, ${hold.amountCents},
      now() + make_interval(secs => ${hold.holdSeconds}), ${hold.streamId}, ${hold.offerId},
      ${hold.clientAddress}, ${hold.showBuyer}, ${hold.live}, ${hold.shippingCents},
      ${jsonb(hold.shippingAddress)})
    returning id, reserved_until`);
  const row = inserted.rows[0];
  if (!row) throw new Error('the payment row was not written');
  return { id: row.id, reservedUntil: new Date(row.reserved_until) };
}

/**
 * The payment of a charge made without the buyer present (an auction's winner, charged with their
 * saved card): pending until the charge answers; it holds no unit (the auction has it).
 */
export async function insertChargePayment(
  tx: Tx,
  charge: {
    buyerId: string;
    provider: string;
    productId: string;
    amountCents: number;
    streamId: string;
    shippingCents: number;
    shippingAddress: ShippingAddress | null;
  },
): Promise<string> {
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into payments (user_id, kind, provider, product_id, amount_cents, stream_id, show_buyer, during_live,
      shipping_cents, shipping_address)
    values (${charge.buyerId}, 'auction', ${charge.provider}, ${charge.productId}, ${charge.amountCents},
      ${charge.streamId}, true, true, ${charge.shippingCents}, ${jsonb(charge.shippingAddress)})
    returning id`);
  const id = inserted.rows[0]?.id;
  if (!id) throw new Error('the payment row was not written');
  return id;
}

export async function failPayment(db: Db, paymentId: string, error: string): Promise<void> {
  await db.execute(
    sql`update payments set status = 'failed', last_error = ${error}, updated_at = now() where id = ${paymentId}`,
  );
}

/** The provider's session for a still-pending payment. */
export async function attachProviderSession(
  db: Db,
  paymentId: string,
  session: { ref: string; clientSecret: string },
): Promise<void> {
  await db.execute(sql`
    update payments set provider_ref = ${session.ref}, client_secret = ${session.clientSecret},
      updated_at = now()
    where id = ${paymentId} and status = 'pending'`);
}

// ---------------------------------------------------------------------------------------------
// The payment jobs

/** Payments to give back at this provider, oldest first. */
export async function refundsDue(
  db: Db,
  provider: string,
  limit: number,
  only?: string,
): Promise<Array<{ id: string; ref: string }>> {
  const due = await db.execute<{ id: string; provider_ref: string }>(sql`
    select id, provider_ref from payments
    where status = 'refunding' and provider = ${provider} and provider_ref is not null
      ${only ? sql`and id = ${only}` : sql``}
    order by updated_at limit ${limit}`);
  return due.rows.map((row) => ({ id: row.id, ref: row.provider_ref }));
}

export async function markRefunded(db: Db, paymentId: string): Promise<void> {
  await db.execute(sql`update payments set status = 'refunded', updated_at = now() where id = ${paymentId}`);
}

/** Holds at this provider whose time ran out, the longest lapsed first. */
export async function lapsedHolds(
  db: Db,
  provider: string,
  limit: number,
): Promise<Array<{ id: string; ref: string | null }>> {
  const due = await db.execute<{ id: string; provider_ref: string | null }>(sql`
    select id, provider_ref from payments
    where status = 'pending' and provider = ${provider} and reserved_until <= now()
    order by reserved_until limit ${limit}`);
  return due.rows.map((row) => ({ id: row.id, ref: row.provider_ref }));
}

/** The buyer's pending checkout payments of the product (live or lapsed holds). */
export async function pendingHoldsOf(
  db: Db,
  buyerId: string,
  productId: string,
): Promise<Array<{ id: string; ref: string | null }>> {
  const held = await db.execute<{ id: string; provider_ref: string | null }>(sql`
    select id, provider_ref from payments
    where user_id = ${buyerId} and product_id = ${productId} and kind = 'checkout' and status = 'pending'`);
  return held.rows.map((row) => ({ id: row.id, ref: row.provider_ref }));
}

/** Paid at the last moment: the hold lasts a minute more, for the webhook. */
export async function extendHoldForWebhook(db: Db, paymentId: string): Promise<void> {
  await db.execute(sql`
    update payments set reserved_until = now() + interval '1 minute', updated_at = now()
    where id = ${paymentId} and status = 'pending'`);
}

/** The hold ends and its unit is free; false when the payment was no longer pending. */
export async function expireHold(db: Db, paymentId: string): Promise<boolean> {
  const result = await db.execute(sql`
    update payments set status = 'expired', updated_at = now()
    where id = ${paymentId} and status = 'pending' returning id`);
  return result.rows.length > 0;
}
