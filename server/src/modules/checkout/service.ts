import type { PaymentSession } from '@streamshop/contract/payments.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { activeOffer } from '../shop/service.ts';
import {
  attachProviderSession,
  expirePayment,
  failPayment,
  type HoldOwner,
  insertHold,
  liveHoldsOf,
  lockHoldOwners,
  lockProduct,
  openHoldsOf,
  retargetHold,
  streamOfRoom,
} from './repo.ts';

/**
 * The room a checkout is opened from: its stream, whether it is live, and the offer whose price
 * applies (a running offer on this product with a unit left, never to the one who started it).
 * Buying from a replay has no offer.
 */
async function roomOf(
  tx: Tx,
  roomName: string | undefined,
  sellerId: string,
  productId: string,
  buyerId: string,
) {
  const none = { streamId: null, live: false, offer: null };
  if (!roomName) return none;
  const stream = await streamOfRoom(tx, roomName);
  if (!stream) throw notFound('Stream not found');
  if (stream.owner_id !== sellerId) {
    throw badRequest('This product is not sold in that room.', { roomName: 'belongs to another seller' });
  }
  const live = stream.is_active && !stream.ended_at;
  // Only the room's seller starts offers (shop routes), so nobody buys at an offer they started: the
  // seller is refused their own product before this, and would get the regular price here anyway.
  const offer = live && buyerId !== stream.owner_id ? await activeOffer(tx, stream.id, productId) : null;
  return { streamId: stream.id, live, offer: offer && offer.remaining > 0 ? offer : null };
}

/** How long an open checkout holds a unit for its buyer (ADR 0006). */
export const CHECKOUT_RESERVATION_SECONDS = 600;

/*
 * Limits on holds, so that cheap accounts cannot keep every unit (or every unit of a live offer)
 * away from real buyers. A hold is a pending checkout payment whose reserved_until is still ahead.
 * - A person buys a few things at once, not dozens: MAX_HOLDS_PER_ACCOUNT.
 * - Sign-ups are limited per address, but an attacker can still collect some accounts; the holds of
 *   all accounts behind one client address (request.ip, so set TRUST_PROXY behind a proxy) are capped
 *   too, high enough for a household or an office behind one NAT: MAX_HOLDS_PER_ADDRESS.
 * - An offer lasts at most OFFER_MAX_SECONDS (5 min), so a 10-minute hold at the offer price could
 *   outlast it and lock its few units up for the whole offer: such holds last
 *   OFFER_RESERVATION_SECONDS, enough to type a card, and the units go back to the room sooner.
 * Past a limit the buyer gets 429 with Retry-After: the seconds until their oldest hold lapses.
 */
export const MAX_HOLDS_PER_ACCOUNT = 3;
export const MAX_HOLDS_PER_ADDRESS = 10;
export const OFFER_RESERVATION_SECONDS = 120;

export const ACCOUNT_HOLDS_MESSAGE = `You already have ${MAX_HOLDS_PER_ACCOUNT} checkouts open. Pay for one or let it lapse before starting another.`;
export const ADDRESS_HOLDS_MESSAGE = `Too many checkouts are open from your network (${MAX_HOLDS_PER_ADDRESS} at most). Try again when one has lapsed.`;

export const SOLD_OUT_MESSAGE = 'This product is sold out.';
export const ALL_RESERVED_MESSAGE =
  'Every unit left is being checked out by another buyer. Try again in a few minutes.';

export function providerUnavailable(error: unknown): AppError {
  const reason = error instanceof Error ? error.message : 'unknown error';
  return new AppError(502, 'SERVICE_UNAVAILABLE', `The payment provider could not be reached: ${reason}`);
}

type Reservation =
  | { kind: 'existing'; clientSecret: string; amountCents: number; reservedUntil: Date }
  | {
      kind: 'new';
      paymentId: string;
      amountCents: number;
      reservedUntil: Date;
      title: string;
      /** The buyer's earlier session at another price (before or after an offer): cancelled now. */
      replaced: string | null;
    };

/** Where a checkout was opened: from a stream's room (live) or its replay, or the marketplace. */
export interface CheckoutContext {
  roomName?: string | undefined;
  showBuyer?: boolean | undefined;
  /** The buyer's client address (request.ip), to cap open holds per address. */
  clientAddress?: string | undefined;
}

/**
 * 429 when the buyer (or their address) already holds as many units as allowed. Advisory locks,
 * taken after the product row, serialise the count with other checkouts of the same account and
 * address on PostgreSQL (other products' rows are not locked by this transaction).
 */
async function assertHoldsAllowed(tx: Tx, buyerId: string, clientAddress: string | undefined) {
  const limits: Array<{ owner: HoldOwner; max: number; message: string }> = [
    {
      owner: { column: 'user_id', value: buyerId },
      max: MAX_HOLDS_PER_ACCOUNT,
      message: ACCOUNT_HOLDS_MESSAGE,
    },
    ...(clientAddress
      ? [
          {
            owner: { column: 'client_address', value: clientAddress } as const,
            max: MAX_HOLDS_PER_ADDRESS,
            message: ADDRESS_HOLDS_MESSAGE,
          },
        ]
      : []),
  ];
  await lockHoldOwners(
    tx,
    limits.map((limit) => limit.owner),
  );
  for (const limit of limits) {
    const open = await openHoldsOf(tx, limit.owner);
    if (open.count >= limit.max) {
      throw new AppError(429, 'RATE_LIMITED', limit.message, undefined, {
        'retry-after': String(Math.max(1, open.wait ?? 1)),
      });
    }
  }
}

/**
 * Holds one unit of the product for the buyer and opens a payment for its price as stored in the
 * database. A buyer who comes back (reload, second tab) gets the same payment, never a second unit.
 */
export async function openCheckout(
  db: Db,
  provider: PaymentProvider,
  buyerId: string,
  productId: string,
  context: CheckoutContext = {},
): Promise<PaymentSession> {
  const reservation = await db.transaction(async (tx): Promise<Reservation> => {
    const product = await lockProduct(tx, productId);
    if (!product) throw notFound('Product not found');
    if (product.seller_id === buyerId) throw badRequest('You cannot buy your own product.');
    if (product.price_cents <= 0) throw badRequest('This product has no price to pay.');
    const room = await roomOf(tx, context.roomName, product.seller_id, productId, buyerId);

    const held = await liveHoldsOf(tx, productId);
    let mine = held.find((row) => row.user_id === buyerId);
    let replaced: string | null = null;
    if (mine && (mine.offer_id ?? null) !== (room.offer?.id ?? null) && mine.client_secret) {
      // The price changed since this buyer's session opened (an offer started or ended): start over.
      await expirePayment(tx, mine.id);
      replaced = mine.provider_ref;
      mine = undefined;
    }
    if (mine) {
      if (!mine.client_secret) {
        throw conflict('CONFLICT', 'Your payment is still being set up. Try again in a moment.');
      }
      // Same price, but where it is opened from and the name choice follow the latest request.
      await retargetHold(tx, mine.id, {
        streamId: room.streamId,
        live: room.live,
        showBuyer: context.showBuyer ?? true,
      });
      return {
        kind: 'existing',
        clientSecret: mine.client_secret,
        amountCents: mine.amount_cents,
        reservedUntil: new Date(mine.reserved_until),
      };
    }
    const others = held.filter((row) => row.user_id !== buyerId).length;
    if (product.stock <= 0) throw conflict('CONFLICT', SOLD_OUT_MESSAGE);
    if (others >= product.stock) throw conflict('CONFLICT', ALL_RESERVED_MESSAGE);
    await assertHoldsAllowed(tx, buyerId, context.clientAddress);

    const amountCents = room.offer?.priceCents ?? product.price_cents;
    const holdSeconds = room.offer ? OFFER_RESERVATION_SECONDS : CHECKOUT_RESERVATION_SECONDS;
    const payment = await insertHold(tx, {
      buyerId,
      provider: provider.name,
      productId,
      amountCents,
      holdSeconds,
      streamId: room.streamId,
      offerId: room.offer?.id ?? null,
      clientAddress: context.clientAddress ?? null,
      showBuyer: context.showBuyer ?? true,
      live: room.live,
    });
    return {
      kind: 'new',
      paymentId: payment.id,
      amountCents,
      reservedUntil: payment.reservedUntil,
      title: product.title,
      replaced,
    };
  });

  if (reservation.kind === 'new' && reservation.replaced) {
    await provider.cancelPayment(reservation.replaced).catch(() => undefined);
  }
  if (reservation.kind === 'existing') {
    return {
      clientSecret: reservation.clientSecret,
      amountCents: reservation.amountCents,
      reservedUntil: reservation.reservedUntil.toISOString(),
    };
  }

  // The provider is called outside the transaction: a network call must not hold the row lock.
  let session: Awaited<ReturnType<PaymentProvider['createPayment']>>;
  try {
    session = await provider.createPayment({
      paymentId: reservation.paymentId,
      amountCents: reservation.amountCents,
      description: reservation.title,
    });
  } catch (error) {
    await failPayment(db, reservation.paymentId, String(error));
    throw providerUnavailable(error);
  }
  await attachProviderSession(db, reservation.paymentId, session);
  return {
    clientSecret: session.clientSecret,
    amountCents: reservation.amountCents,
    reservedUntil: reservation.reservedUntil.toISOString(),
  };
}
