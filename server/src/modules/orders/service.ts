import { trackingUrl } from '@streamshop/contract/carriers.ts';
import type { Order } from '@streamshop/contract/catalog.ts';
import {
  AUTO_DELIVERY_DAYS,
  ORDERS_PAGE_SIZE,
  type OrderAddress,
  type OrderDetail,
  type OrderListQuery,
  type OrderRole,
  type OrdersPage,
  orderAddressSchema,
  type ShipOrderBody,
} from '@streamshop/contract/orders.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import { startIntervalJob } from '../../platform/interval-job.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { MailBody } from '../../platform/mail/render.ts';
import { decodeCursor, pageOf } from '../../platform/page-cursor.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { recordRefund, recordSale } from '../payouts/service.ts';
import {
  type OrderMailFacts,
  orderCancelledForSellerMail,
  orderCancelledMail,
  orderConfirmationMail,
  orderReference,
  orderRefundedMail,
  orderShippedMail,
  orderSoldMail,
} from './mail.ts';
import {
  deliverShippedBefore,
  type MovedOrder,
  markCancelled,
  markDelivered,
  markRefunded,
  markShipped,
  type OrderRow,
  orderById,
  orderOf,
  ordersOfEitherRole,
  ordersPage,
  partiesOf,
} from './repo.ts';

/** Orders after the payment (ADR 0016): who sees them, who may move them, and what that sends. */

/** What an order's moves need besides the database: mail, the provider for refunds, the fee. */
export interface OrdersContext {
  mailer: Mailer;
  publicUrl: string;
  provider: PaymentProvider;
  log?: FastifyBaseLogger;
  /** A cancel or refund put a unit of the product back (after the commit): the rooms showing it hear. */
  onStockReturned?: StockListener;
  /**
   * How the payment is given back (checkout's, given by the plugin: checkout writes orders through
   * this module's orderPlaced, so this module does not import checkout back).
   */
  refunds: OrderRefunds;
}

export interface OrderRefunds {
  /** Marks the order's payment to be refunded and puts its unit back, in the order's transaction. */
  giveOrderBack(
    tx: Tx,
    order: { paymentId: string | null; productId: string | null },
    reason: string,
  ): Promise<void>;
  /** Asks the provider for the refund now (the payment job retries until it agrees). */
  completeRefunds(db: Db, provider: PaymentProvider, log?: FastifyBaseLogger, only?: string): Promise<number>;
}

/** Told the product whose stock changed, after the commit. */
export type StockListener = (productId: string) => Promise<void>;

/** What placing an order needs (the checkout's webhook transaction): mail and the platform's fee. */
export interface OrderPlacing {
  mailer: Mailer;
  publicUrl: string;
  /** PLATFORM_FEE_PERCENT; 0 when absent. */
  platformFeePercent?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function addressOf(value: unknown): OrderAddress | null {
  const parsed = orderAddressSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toDetail(row: OrderRow, viewerId: string): OrderDetail {
  return {
    id: row.id,
    role: row.seller_id === viewerId ? 'seller' : 'buyer',
    status: row.status,
    amountCents: row.amount_cents,
    shippingCents: row.shipping_cents,
    item: {
      productId: row.product_id,
      title: row.product_title,
      imageUrl: row.product_image_url,
      fulfillment: row.fulfillment ?? 'ship',
    },
    buyerHandle: row.buyer_handle,
    sellerHandle: row.seller_handle,
    shippingAddress: addressOf(row.shipping_address),
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    trackingUrl: trackingUrl(row.carrier, row.tracking_number),
    createdAt: iso(row.created_at),
    shippedAt: isoOrNull(row.shipped_at),
    deliveredAt: isoOrNull(row.delivered_at),
    cancelledAt: isoOrNull(row.cancelled_at),
    refundedAt: isoOrNull(row.refunded_at),
  };
}

/** A page of the user's sales (role seller) or purchases (role buyer), newest first. */
export async function listOrders(
  db: Db,
  userId: string,
  query: OrderListQuery & { role: OrderRole },
): Promise<OrdersPage> {
  const { rows, nextCursor } = pageOf(
    await ordersPage(db, userId, query.role, {
      status: query.status,
      after: decodeCursor(query.cursor),
      limit: ORDERS_PAGE_SIZE + 1,
    }),
    ORDERS_PAGE_SIZE,
  );
  return { orders: rows.map((row) => toDetail(row, userId)), nextCursor };
}

/** GET /api/orders without a role: the newest 50 of both roles, as before ADR 0016. */
export async function listRecentOrders(db: Db, userId: string, limit = 50): Promise<Order[]> {
  const rows = await ordersOfEitherRole(db, userId, limit);
  return rows.map((row) => ({
    id: row.id,
    amountCents: row.amount_cents,
    createdAt: iso(row.created_at),
    status: row.status,
    productTitle: row.product_title,
    role: row.seller_id === userId ? 'seller' : 'buyer',
  }));
}

export async function getOrder(db: Db, userId: string, orderId: string): Promise<OrderDetail> {
  const row = await orderOf(db, orderId, userId);
  if (!row) throw notFound('Order not found');
  return toDetail(row, userId);
}

type Party = Awaited<ReturnType<typeof partiesOf>>['buyer'];

function factsFor(row: OrderRow, to: NonNullable<Party>): OrderMailFacts {
  return {
    firstName: to.firstName,
    reference: orderReference(row.id),
    title: row.product_title ?? 'your item',
    amountCents: row.amount_cents,
    shippingCents: row.shipping_cents,
    buyerHandle: row.buyer_handle,
    sellerHandle: row.seller_handle,
    shippingAddress: addressOf(row.shipping_address),
  };
}

/** Queues one message per recipient of the order's event, keyed `order-<event>-<who>:<order id>`. */
async function queueOrderMail(
  tx: Tx,
  mailer: Mailer,
  orderId: string,
  event: string,
  messages: { buyer?: (facts: OrderMailFacts) => MailBody; seller?: (facts: OrderMailFacts) => MailBody },
): Promise<void> {
  const row = await orderById(tx, orderId);
  if (!row) return;
  const parties = await partiesOf(tx, row);
  for (const who of ['buyer', 'seller'] as const) {
    const template = messages[who];
    const party = parties[who];
    if (!template || !party) continue;
    await mailer.queue(tx, `order-${event}-${who}:${orderId}`, party.email, template(factsFor(row, party)));
  }
}

/**
 * A checkout's order was just inserted (the provider's webhook transaction): its ledger entries,
 * the buyer's confirmation and the seller's "you sold", all committed with the order or not at all.
 */
export async function orderPlaced(tx: Tx, placing: OrderPlacing, orderId: string): Promise<void> {
  const row = await orderById(tx, orderId);
  if (!row) return;
  await recordSale(
    tx,
    { id: row.id, sellerId: row.seller_id, amountCents: row.amount_cents },
    placing.platformFeePercent ?? 0,
  );
  const url = placing.publicUrl;
  await queueOrderMail(tx, placing.mailer, orderId, 'placed', {
    buyer: (facts) => orderConfirmationMail(url, facts),
    seller: (facts) => orderSoldMail(url, facts),
  });
}

/**
 * The order is the caller's but the move was refused: why (409), or 403 when it is the other
 * party's move. An order that is not theirs at all is 404, so nobody learns it exists.
 */
async function refusal(
  db: Db,
  orderId: string,
  userId: string,
  reason: (row: OrderRow, role: OrderRole) => AppError,
): Promise<AppError> {
  const row = await orderOf(db, orderId, userId);
  if (!row) return notFound('Order not found');
  return reason(row, row.seller_id === userId ? 'seller' : 'buyer');
}

const forbiddenMove = (message: string) => new AppError(403, 'FORBIDDEN', message);
const conflictMove = (message: string) => conflict('CONFLICT', message);

function alreadyClosed(row: OrderRow): AppError | undefined {
  if (row.status === 'refunded') return conflictMove('This order was refunded.');
  if (row.status === 'cancelled') return conflictMove('This order was cancelled.');
  return undefined;
}

/** The seller ships a paid order of a shipped product. */
export async function shipOrder(
  db: Db,
  context: OrdersContext,
  sellerId: string,
  orderId: string,
  shipment: ShipOrderBody,
): Promise<OrderDetail> {
  const moved = await db.transaction(async (tx) => {
    const order = await markShipped(tx, orderId, sellerId, shipment);
    if (!order) return undefined;
    await queueOrderMail(tx, context.mailer, order.id, 'shipped', {
      buyer: (facts) => orderShippedMail(context.publicUrl, { ...facts, ...shipment }),
    });
    return order;
  });
  if (!moved) {
    throw await refusal(db, orderId, sellerId, (row, role) => {
      if (role !== 'seller') return forbiddenMove('Only the seller ships an order.');
      const closed = alreadyClosed(row);
      if (closed) return closed;
      if (row.status !== 'paid') return conflictMove('This order has already shipped.');
      return conflictMove(`A ${row.fulfillment} product is not shipped: mark it delivered instead.`);
    });
  }
  return getOrder(db, sellerId, orderId);
}

/** The buyer once it shipped, or the seller of a digital or pickup product from paid. */
export async function deliverOrder(db: Db, userId: string, orderId: string): Promise<OrderDetail> {
  const moved = await db.transaction((tx) => markDelivered(tx, orderId, userId));
  if (!moved) {
    throw await refusal(db, orderId, userId, (row, role) => {
      const closed = alreadyClosed(row);
      if (closed) return closed;
      if (row.status === 'delivered') return conflictMove('This order was already delivered.');
      const shipped = (row.fulfillment ?? 'ship') === 'ship';
      if (role === 'buyer') {
        return shipped
          ? conflictMove('This order has not shipped yet.')
          : forbiddenMove('The seller marks this order delivered.');
      }
      return shipped
        ? forbiddenMove('The buyer marks a shipped order delivered.')
        : conflictMove('This order cannot be marked delivered now.');
    });
  }
  return getOrder(db, userId, orderId);
}

/**
 * Gives the order's money and unit back after `move` (refund or cancel), with the ledger's
 * reversal and the messages, in one transaction; then tells the rooms showing the product its
 * stock, and asks the provider at once (the payment job retries until it agrees).
 */
async function giveBack(
  db: Db,
  context: OrdersContext,
  move: (tx: Tx) => Promise<MovedOrder | undefined>,
  event: 'refunded' | 'cancelled',
): Promise<MovedOrder | undefined> {
  const moved = await db.transaction(async (tx) => {
    const order = await move(tx);
    if (!order) return undefined;
    await context.refunds.giveOrderBack(
      tx,
      { paymentId: order.payment_id, productId: order.product_id },
      event === 'refunded' ? 'Refunded by the seller' : 'Cancelled by the buyer',
    );
    await recordRefund(tx, order.id);
    await queueOrderMail(
      tx,
      context.mailer,
      order.id,
      event,
      event === 'refunded'
        ? { buyer: (facts) => orderRefundedMail(context.publicUrl, facts) }
        : {
            buyer: (facts) => orderCancelledMail(context.publicUrl, facts),
            seller: (facts) => orderCancelledForSellerMail(context.publicUrl, facts),
          },
    );
    return order;
  });
  if (moved?.product_id && context.onStockReturned) {
    await context
      .onStockReturned(moved.product_id)
      .catch((error) => context.log?.warn({ err: error }, 'announcing the returned stock failed'));
  }
  if (moved?.payment_id) {
    await context.refunds
      .completeRefunds(db, context.provider, context.log, moved.payment_id)
      .catch((error) =>
        context.log?.warn({ err: error }, 'refund at the provider failed; the payment job retries'),
      );
  }
  return moved;
}

/** The seller refunds the order in full, at any point before a refund or a cancel. */
export async function refundOrder(
  db: Db,
  context: OrdersContext,
  sellerId: string,
  orderId: string,
): Promise<OrderDetail> {
  const moved = await giveBack(db, context, (tx) => markRefunded(tx, orderId, sellerId), 'refunded');
  if (!moved) {
    throw await refusal(db, orderId, sellerId, (row, role) => {
      if (role !== 'seller')
        return forbiddenMove('Only the seller refunds an order; you can cancel it before it ships.');
      return alreadyClosed(row) ?? conflictMove('This order cannot be refunded now.');
    });
  }
  return getOrder(db, sellerId, orderId);
}

/** The buyer cancels before it ships. */
export async function cancelOrder(
  db: Db,
  context: OrdersContext,
  buyerId: string,
  orderId: string,
): Promise<OrderDetail> {
  const moved = await giveBack(db, context, (tx) => markCancelled(tx, orderId, buyerId), 'cancelled');
  if (!moved) {
    throw await refusal(db, orderId, buyerId, (row, role) => {
      if (role !== 'buyer') return forbiddenMove('Only the buyer cancels an order; you can refund it.');
      const closed = alreadyClosed(row);
      if (closed) return closed;
      return conflictMove(
        row.status === 'delivered' ? 'This order was already delivered.' : 'This order has already shipped.',
      );
    });
  }
  return getOrder(db, buyerId, orderId);
}

/** Shipped orders count as delivered this long after shipping. */
export const AUTO_DELIVERY_MS = AUTO_DELIVERY_DAYS * DAY_MS;

/** Delivers every order shipped at least `afterMs` ago; how many. */
export function deliverShippedOrders(db: Db, afterMs: number = AUTO_DELIVERY_MS): Promise<number> {
  return deliverShippedBefore(db, afterMs);
}

/** The auto-delivery job on every instance (one statement, so instances cannot clash); stop() waits. */
export function startAutoDelivery(
  db: Db,
  log: FastifyBaseLogger,
  options: { afterMs?: number | undefined; intervalMs?: number | undefined } = {},
): () => Promise<void> {
  return startIntervalJob('auto-delivery', options.intervalMs ?? 60_000, log, () =>
    deliverShippedOrders(db, options.afterMs),
  );
}

/** Giveaways' prizes: $0 orders, and who bought in a show. */
export { boughtFromStream, type GiftAddress, insertGiftOrder } from './gift-orders.ts';
