import { AUCTION_HISTORY_LENGTH, type PlacedBid } from '@streamshop/contract/auctions.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The auctions' queries: the auction row (one truth per auction, ADR 0022), its bids, blocks. */

type Executor = Pick<Db, 'execute'>;

export type AuctionRow = {
  id: string;
  stream_id: string;
  product_id: string;
  seller_id: string;
  status: 'running' | 'ended' | 'cancelled';
  starting_bid_cents: number;
  current_bid_cents: number | null;
  leader_id: string | null;
  leader_max_cents: number | null;
  sudden_death: boolean;
  extend_sec: number;
  ends_at: Date | string;
  bid_count: number;
  version: number;
  winner_id: string | null;
  price_cents: number | null;
  payment_state: 'pending' | 'paid' | 'declined' | null;
  payment_id: string | null;
  order_id: string | null;
  pay_by: Date | string | null;
};

const COLUMNS = sql.raw(`id, stream_id, product_id, seller_id, status, starting_bid_cents, current_bid_cents,
  leader_id, leader_max_cents, sudden_death, extend_sec, ends_at, bid_count, version, winner_id, price_cents,
  payment_state, payment_id, order_id, pay_by`);

/** The auction, locked until the transaction ends, with the database's clock read under the lock. */
export async function lockAuction(
  tx: Tx,
  id: string,
): Promise<(AuctionRow & { now: Date | string; stream_ended: boolean }) | undefined> {
  const found = await tx.execute<AuctionRow & { now: Date | string; stream_ended: boolean }>(sql`
    select ${COLUMNS}, clock_timestamp() as now,
      exists (select 1 from streams s where s.id = auctions.stream_id and s.ended_at is not null) as stream_ended
    from auctions where id = ${id} for update`);
  return found.rows[0];
}

export async function insertAuction(
  tx: Tx,
  auction: {
    streamId: string;
    productId: string;
    sellerId: string;
    startingBidCents: number;
    durationSec: number;
    suddenDeath: boolean;
    extendSec: number;
  },
): Promise<string> {
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into auctions (stream_id, product_id, seller_id, starting_bid_cents, sudden_death, extend_sec,
      started_at, ends_at)
    values (${auction.streamId}, ${auction.productId}, ${auction.sellerId}, ${auction.startingBidCents},
      ${auction.suddenDeath}, ${auction.extendSec}, clock_timestamp(),
      clock_timestamp() + make_interval(secs => ${auction.durationSec}))
    returning id`);
  const id = inserted.rows[0]?.id;
  if (!id) throw new Error('the auction was not inserted');
  return id;
}

export async function runningAuctionOf(tx: Executor, streamId: string): Promise<string | undefined> {
  const found = await tx.execute<{ id: string }>(sql`
    select id from auctions where stream_id = ${streamId} and status = 'running'`);
  return found.rows[0]?.id;
}

export async function isInLineup(tx: Executor, streamId: string, productId: string): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from stream_products where stream_id = ${streamId} and product_id = ${productId}`);
  return found.rows.length > 0;
}

export async function isBlocked(tx: Executor, sellerId: string, userId: string): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from auction_blocks where seller_id = ${sellerId} and user_id = ${userId}`);
  return found.rows.length > 0;
}

export type BidderChecks = {
  seller_id: string;
  fulfillment: 'ship' | 'digital' | 'pickup';
  status: AuctionRow['status'];
  starting_bid_cents: number;
  current_bid_cents: number | null;
};

/**
 * What a bid is checked against before it is placed, without the lock: the seller, what the
 * product needs, and the committed price and status (a price only rises, a close never reopens).
 */
export async function bidderChecks(db: Executor, auctionId: string): Promise<BidderChecks | undefined> {
  const found = await db.execute<BidderChecks>(sql`
    select a.seller_id, p.fulfillment, a.status, a.starting_bid_cents, a.current_bid_cents
    from auctions a join products p on p.id = a.product_id
    where a.id = ${auctionId}`);
  return found.rows[0];
}

/** What a bid request with this client id was answered before, if it was taken. */
export async function answeredBefore(
  tx: Executor,
  auctionId: string,
  bidderId: string,
  clientBidId: string,
): Promise<'leading' | 'outbid' | undefined> {
  const found = await tx.execute<{ outcome: 'leading' | 'outbid' }>(sql`
    select outcome from auction_bid_requests
    where auction_id = ${auctionId} and bidder_id = ${bidderId} and client_bid_id = ${clientBidId}`);
  return found.rows[0]?.outcome;
}

/**
 * Writes a taken bid: its placed bids in order after the auction's last, the request's answer, and
 * the auction's new price, leader and (extended) end. Answers the auction's new version and end.
 */
export async function recordBid(
  tx: Tx,
  auction: AuctionRow,
  bid: {
    bidderId: string;
    clientBidId: string;
    /** The maximum the request named. */
    maxCents: number;
    outcome: 'leading' | 'outbid';
    placed: Array<PlacedBid & { maxCents: number }>;
    currentBidCents: number | null;
    leader: { bidderId: string; maxCents: number } | null;
    endsAt: Date;
    /** The database's clock when the bid was decided, under the lock: the bid's time. */
    decidedAt: Date;
  },
): Promise<void> {
  let seq = auction.bid_count;
  for (const placed of bid.placed) {
    seq += 1;
    await tx.execute(sql`
      insert into auction_bids (auction_id, seq, bidder_id, amount_cents, proxy, max_cents, created_at)
      values (${auction.id}, ${seq}, ${placed.bidderId}, ${placed.amountCents}, ${placed.proxy},
        ${placed.maxCents}, ${bid.decidedAt})`);
  }
  await tx.execute(sql`
    insert into auction_bid_requests (auction_id, bidder_id, client_bid_id, outcome, max_cents, version)
    values (${auction.id}, ${bid.bidderId}, ${bid.clientBidId}, ${bid.outcome}, ${bid.maxCents},
      ${auction.version + 1})`);
  await tx.execute(sql`
    update auctions set current_bid_cents = ${bid.currentBidCents}, leader_id = ${bid.leader?.bidderId ?? null},
      leader_max_cents = ${bid.leader?.maxCents ?? null}, bid_count = ${seq}, ends_at = ${bid.endsAt},
      version = version + 1
    where id = ${auction.id}`);
}

export async function markCancelled(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`
    update auctions set status = 'cancelled', closed_at = clock_timestamp(), version = version + 1
    where id = ${id}`);
}

/**
 * Closes auctions whose time is up by the database's clock (or whose stream ended), exactly once: whichever instance's
 * update gets a row writes its result (the leader wins at the current price; nobody when no bid).
 * `id` narrows it to one auction. Answers the closed auctions.
 */
export async function closeDue(db: Executor, id?: string): Promise<Array<{ id: string; room_name: string }>> {
  const closed = await db.execute<{ id: string; room_name: string }>(sql`
    update auctions a set status = 'ended', closed_at = clock_timestamp(), version = version + 1,
      winner_id = leader_id, price_cents = current_bid_cents,
      payment_state = case when leader_id is null then null else 'pending' end
    from streams s
    where s.id = a.stream_id and a.status = 'running'
      and (a.ends_at <= clock_timestamp() or s.ended_at is not null)
      ${id ? sql`and a.id = ${id}` : sql``}
    returning a.id, s.room_name`);
  return closed.rows;
}

/** The running auctions and when each ends (for this instance's timers after a start). */
export async function runningAuctions(db: Executor): Promise<Array<{ id: string; ends_in_ms: number }>> {
  const found = await db.execute<{ id: string; ends_in_ms: number | string }>(sql`
    select id, extract(epoch from ends_at - clock_timestamp()) * 1000 as ends_in_ms
    from auctions where status = 'running'`);
  return found.rows.map((row) => ({ id: row.id, ends_in_ms: Number(row.ends_in_ms) }));
}

export async function endsInMs(db: Executor, id: string): Promise<number | undefined> {
  const found = await db.execute<{ ends_in_ms: number | string }>(sql`
    select extract(epoch from ends_at - clock_timestamp()) * 1000 as ends_in_ms
    from auctions where id = ${id} and status = 'running'`);
  const row = found.rows[0];
  return row ? Number(row.ends_in_ms) : undefined;
}

export type ViewRow = AuctionRow & {
  room_name: string;
  now: Date | string;
  leader_handle: string | null;
  winner_handle: string | null;
  p_title: string;
  p_image_url: string | null;
  p_price_cents: number;
  p_stock: number;
  p_condition: string;
  p_fulfillment: 'ship' | 'digital' | 'pickup';
  p_shipping_cents: number;
};

export type BidRow = { handle: string; amount_cents: number; created_at: Date | string };

/** The auction as the room shows it: its row, product, room, handles, and the latest bids. */
export async function auctionForView(
  db: Executor,
  where: { id: string } | { streamId: string },
): Promise<{ row: ViewRow; bids: BidRow[] } | undefined> {
  const found = await db.execute<ViewRow>(sql`
    select a.id, a.stream_id, a.product_id, a.seller_id, a.status, a.starting_bid_cents, a.current_bid_cents,
      a.leader_id, a.leader_max_cents, a.sudden_death, a.extend_sec, a.ends_at, a.bid_count, a.version,
      a.winner_id, a.price_cents, a.payment_state, a.payment_id, a.order_id, a.pay_by,
      s.room_name, clock_timestamp() as now, l.handle as leader_handle, w.handle as winner_handle,
      p.title as p_title, p.image_url as p_image_url, p.price_cents as p_price_cents, p.stock as p_stock,
      p.condition as p_condition, p.fulfillment as p_fulfillment, p.shipping_cents as p_shipping_cents
    from auctions a
    join streams s on s.id = a.stream_id
    join products p on p.id = a.product_id
    left join users l on l.id = a.leader_id
    left join users w on w.id = a.winner_id
    where ${
      'id' in where
        ? sql`a.id = ${where.id}`
        : // The room's running auction, or its last one for a minute after it closed (the result stays up).
          sql`a.stream_id = ${where.streamId} and (a.status = 'running'
            or coalesce(a.closed_at, a.ends_at) > clock_timestamp() - interval '60 seconds')`
    }
    order by a.started_at desc limit 1`);
  const row = found.rows[0];
  if (!row) return undefined;
  const bids = await db.execute<BidRow>(sql`
    select u.handle, b.amount_cents, b.created_at from auction_bids b join users u on u.id = b.bidder_id
    where b.auction_id = ${row.id} order by b.seq desc limit ${AUCTION_HISTORY_LENGTH}`);
  return { row, bids: bids.rows };
}

/** Every bid request the auction took, in the order taken (tests and the bench replay them). */
export async function takenRequests(
  db: Executor,
  auctionId: string,
): Promise<Array<{ bidder_id: string; client_bid_id: string; max_cents: number; outcome: string }>> {
  const found = await db.execute<{
    bidder_id: string;
    client_bid_id: string;
    max_cents: number;
    outcome: string;
  }>(
    sql`
    select bidder_id, client_bid_id, max_cents, outcome from auction_bid_requests
    where auction_id = ${auctionId} order by version`,
  );
  return found.rows;
}

/** Blocks the account from the seller's auctions (again is the same block). */
export async function insertBlock(db: Executor, sellerId: string, userId: string): Promise<void> {
  await db.execute(sql`
    insert into auction_blocks (seller_id, user_id) values (${sellerId}, ${userId}) on conflict do nothing`);
}

export async function deleteBlock(db: Executor, sellerId: string, userId: string): Promise<boolean> {
  const deleted = await db.execute(sql`
    delete from auction_blocks where seller_id = ${sellerId} and user_id = ${userId} returning user_id`);
  return deleted.rows.length > 0;
}

export async function blocksOf(
  db: Executor,
  sellerId: string,
): Promise<Array<{ handle: string; created_at: Date | string }>> {
  const found = await db.execute<{ handle: string; created_at: Date | string }>(sql`
    select u.handle, b.created_at from auction_blocks b join users u on u.id = b.user_id
    where b.seller_id = ${sellerId} order by b.created_at desc`);
  return found.rows;
}

export async function userByHandle(db: Executor, handle: string): Promise<string | undefined> {
  const found = await db.execute<{ id: string }>(
    sql`select id from users where handle = ${handle.toLowerCase()}`,
  );
  return found.rows[0]?.id;
}

export type StreamAuctionRow = ViewRow & {
  start_sec: number | string;
  end_sec: number | string | null;
  bidders: number | string;
};

/** Every auction of the stream, oldest first, with its offsets into the recording and its bidders. */
export async function auctionsOfStream(db: Executor, streamId: string): Promise<StreamAuctionRow[]> {
  const found = await db.execute<StreamAuctionRow>(sql`
    select a.id, a.product_id, a.status, a.starting_bid_cents, a.price_cents, a.bid_count, w.handle as winner_handle,
      p.title as p_title, p.image_url as p_image_url, p.price_cents as p_price_cents, p.stock as p_stock,
      p.condition as p_condition, p.fulfillment as p_fulfillment, p.shipping_cents as p_shipping_cents,
      greatest(0, extract(epoch from a.started_at - coalesce(s.started_at, s.created_at)))::float8 as start_sec,
      case when a.closed_at is null then null
        else greatest(0, extract(epoch from a.closed_at - coalesce(s.started_at, s.created_at)))::float8 end as end_sec,
      (select count(distinct b.bidder_id) from auction_bids b where b.auction_id = a.id) as bidders
    from auctions a join streams s on s.id = a.stream_id join products p on p.id = a.product_id
      left join users w on w.id = a.winner_id
    where a.stream_id = ${streamId}
    order by a.started_at`);
  return found.rows;
}

/** How many accounts bid in any auction of the stream. */
export async function uniqueBiddersOfStream(db: Executor, streamId: string): Promise<number> {
  const found = await db.execute<{ n: number | string }>(sql`
    select count(distinct b.bidder_id) as n from auction_bids b join auctions a on a.id = b.auction_id
    where a.stream_id = ${streamId}`);
  return Number(found.rows[0]?.n ?? 0);
}
