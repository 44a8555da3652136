import type { CheckoutSession } from '@streamshop/contract/payments.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { type PaymentProvider, providerUnavailable } from '../../platform/payments/provider.ts';
import { payoutDestination, platformFee } from '../payouts/service.ts';
import { activeOffer } from '../shop/service.ts';
import { saveAddress } from './addresses-repo.ts';
import {
  attachProviderSession,
  auctionUnitsOf,
  claimInterruptedSetup,
  expirePayment,
  failPayment,
  giveawayUnitsOf,
  type HoldOwner,
  type HoldRow,
  insertHold,
  type LockedProduct,
  liveHoldsOf,
  lockHoldOwners,
  lockProduct,
  openHoldsOf,
  recentOrderOf,
  retargetHold,
  type ShippingAddress,
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
 *   all accounts behind one client address (request.ip, so set TRUST_PROXY behind a proxy; an IPv6
 *   client by its /64, platform/address-bucket.ts) are capped too, high enough for a household or
 *   an office behind one NAT: MAX_HOLDS_PER_ADDRESS.
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

/**
 * A hold whose payment session is not attached this long after its setup started was cut short
 * (the database or the process went away between the two) and is taken over by the buyer's next
 * checkout. Asking the provider again is safe: it answers the same session for the same payment.
 */
export const SETUP_RESUME_SECONDS = 10;
export const SETUP_IN_PROGRESS_MESSAGE = 'Your payment is still being set up. Try again in a moment.';

export const SOLD_OUT_MESSAGE = 'This product is sold out.';
export const ALL_RESERVED_MESSAGE =
  'Every unit left is being checked out by another buyer. Try again in a few minutes.';

/** How recent a buyer's order of the product is for checkout to answer it instead of 409. */
export const RECENT_ORDER_SECONDS = CHECKOUT_RESERVATION_SECONDS;

/** What the buyer pays: the price (or offer price) and the product's shipping, and where it goes. */
type Charge = { amountCents: number; shippingCents: number; shippingAddress: ShippingAddress | null };

type Reservation =
  | ({ kind: 'existing'; clientSecret: string; reservedUntil: Date } & Charge)
  | { kind: 'ordered'; orderId: string }
  | ({
      kind: 'new';
      paymentId: string;
      /** The seller's payout account for a destination charge (Stripe Connect), else null. */
      destination: string | null;
      reservedUntil: Date;
      title: string;
    } & Charge)
  /** The buyer holds a session at another price (an offer started or ended): ask the provider to cancel it. */
  | { kind: 'reprice'; paymentId: string; providerRef: string };

/** Where a checkout was opened: from a stream's room (live) or its replay, or the marketplace. */
export interface CheckoutContext {
  roomName?: string | undefined;
  showBuyer?: boolean | undefined;
  /** The buyer's client address (addressBucket(request.ip): IPv6 by its /64), to cap open holds per address. */
  clientAddress?: string | undefined;
  /** Where a shipped product goes (required for one, refused for a digital or pickup product). */
  shippingAddress?: ShippingAddress | undefined;
  /** PLATFORM_FEE_PERCENT: the application fee of a destination charge. */
  platformFeePercent?: number | undefined;
}

export const ADDRESS_REQUIRED_MESSAGE = 'A shipping address is required for this product.';
export const ADDRESS_REFUSED_MESSAGE = 'This product does not ship: leave out the shipping address.';

/** The address the checkout needs: one for a shipped product, none for digital or pickup. */
function addressFor(product: LockedProduct, given: ShippingAddress | undefined): ShippingAddress | null {
  if (product.fulfillment === 'ship') {
    if (!given) throw badRequest(ADDRESS_REQUIRED_MESSAGE, { shippingAddress: 'is required' });
    return given;
  }
  if (given) {
    throw badRequest(ADDRESS_REFUSED_MESSAGE, {
      shippingAddress: `must be left out for a ${product.fulfillment} product`,
    });
  }
  return null;
}

const toSession = (charge: Charge, clientSecret: string, reservedUntil: Date): CheckoutSession => ({
  clientSecret,
  amountCents: charge.amountCents,
  subtotalCents: charge.amountCents - charge.shippingCents,
  shippingCents: charge.shippingCents,
  shippingAddress: charge.shippingAddress,
  reservedUntil: reservedUntil.toISOString(),
});

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

/** What opening a checkout gives: a session to pay, or the order this buyer just paid for. */
export type CheckoutOpened = CheckoutSession | { orderId: string };

/**
 * Holds one unit of the product for the buyer and opens a payment for its price as stored in the
 * database. A buyer who comes back (reload, second tab) gets the same payment, never a second unit;
 * one who comes back after paying, when no unit is left to hold, gets the order they placed.
 */
export async function openCheckout(
  db: Db,
  provider: PaymentProvider,
  buyerId: string,
  productId: string,
  context: CheckoutContext = {},
): Promise<CheckoutOpened> {
  let reservation = await reserve(db, provider, buyerId, productId, context);
  for (let asked = 0; reservation.kind === 'reprice' && asked < 3; asked++) {
    // Asked before the hold is let go, outside the transaction (a network call must not hold the
    // row lock): a session the buyer already paid stays theirs, never replaced by one to pay again.
    let outcome: 'canceled' | 'succeeded';
    try {
      outcome = await provider.cancelPayment(reservation.providerRef);
    } catch (error) {
      throw providerUnavailable(error);
    }
    reservation = await reserve(db, provider, buyerId, productId, context, {
      paymentId: reservation.paymentId,
      outcome,
    });
  }
  if (reservation.kind === 'reprice') throw conflict('CONFLICT', SETUP_IN_PROGRESS_MESSAGE);
  if (reservation.kind === 'ordered') return { orderId: reservation.orderId };
  if (reservation.kind === 'existing') {
    return toSession(reservation, reservation.clientSecret, reservation.reservedUntil);
  }

  // The provider is called outside the transaction: a network call must not hold the row lock.
  let session: Awaited<ReturnType<PaymentProvider['createPayment']>>;
  try {
    session = await provider.createPayment({
      paymentId: reservation.paymentId,
      amountCents: reservation.amountCents,
      description: reservation.title,
      ...(reservation.destination && {
        transfer: {
          accountRef: reservation.destination,
          feeCents: platformFee(reservation.amountCents, context.platformFeePercent ?? 0),
        },
      }),
    });
  } catch (error) {
    await failPayment(db, reservation.paymentId, String(error));
    throw providerUnavailable(error);
  }
  await attachProviderSession(db, reservation.paymentId, session);
  return toSession(reservation, session.clientSecret, reservation.reservedUntil);
}

/** The provider's answer to cancelling a buyer's session at an earlier price. */
interface CancelAnswer {
  paymentId: string;
  outcome: 'canceled' | 'succeeded';
}

/**
 * The transaction of openCheckout: the buyer's hold of a unit, kept, taken over or made. A hold
 * whose session was opened at another price is let go only once `asked` says the provider
 * cancelled it; until then the answer is `reprice`, for the caller to ask outside the transaction.
 */
function reserve(
  db: Db,
  provider: PaymentProvider,
  buyerId: string,
  productId: string,
  context: CheckoutContext,
  asked?: CancelAnswer,
): Promise<Reservation> {
  return db.transaction(async (tx): Promise<Reservation> => {
    const product = await lockProduct(tx, productId);
    if (!product) throw notFound('Product not found');
    if (product.seller_id === buyerId) throw badRequest('You cannot buy your own product.');
    if (product.price_cents <= 0) throw badRequest('This product has no price to pay.');
    const shippingAddress = addressFor(product, context.shippingAddress);
    const destination = await payoutDestination(tx, provider, product.seller_id);
    const room = await roomOf(tx, context.roomName, product.seller_id, productId, buyerId);

    const held = await liveHoldsOf(tx, productId);
    let mine = held.find((row) => row.user_id === buyerId);
    const samePrice = (hold: HoldRow) => (hold.offer_id ?? null) === (room.offer?.id ?? null);
    /** The buyer's hold follows this request: where it is opened from, the name choice, the address. */
    const keepHold = async (holdId: string) => {
      await retargetHold(tx, holdId, {
        streamId: room.streamId,
        live: room.live,
        showBuyer: context.showBuyer ?? true,
        shippingAddress,
      });
      if (shippingAddress) await saveAddress(tx, buyerId, shippingAddress);
    };
    if (mine && !mine.client_secret) {
      // No session yet: a setup under way, or one cut short. Past SETUP_RESUME_SECONDS this request
      // takes it over: at the same price it asks the provider again for the same payment (below,
      // as for a new hold); at another price it starts over.
      if (!(await claimInterruptedSetup(tx, mine.id, SETUP_RESUME_SECONDS))) {
        throw conflict('CONFLICT', SETUP_IN_PROGRESS_MESSAGE);
      }
      if (samePrice(mine)) {
        await keepHold(mine.id);
        return {
          kind: 'new',
          paymentId: mine.id,
          destination,
          amountCents: mine.amount_cents,
          shippingCents: mine.shipping_cents,
          shippingAddress,
          reservedUntil: new Date(mine.reserved_until),
          title: product.title,
        };
      }
      await expirePayment(tx, mine.id);
      mine = undefined;
    }
    if (mine && !samePrice(mine)) {
      // The price changed since this buyer's session opened (an offer started or ended): start
      // over once the provider has cancelled that session. One the buyer already paid is kept, at
      // the price it was opened at: it becomes their order.
      const outcome = asked?.paymentId === mine.id ? asked.outcome : undefined;
      if (mine.provider_ref && !outcome) {
        return { kind: 'reprice', paymentId: mine.id, providerRef: mine.provider_ref };
      }
      if (outcome !== 'succeeded') {
        await expirePayment(tx, mine.id);
        mine = undefined;
      }
    }
    if (mine?.client_secret) {
      // Same price, but where it is opened from, the name choice and the address follow the
      // latest request.
      await keepHold(mine.id);
      return {
        kind: 'existing',
        clientSecret: mine.client_secret,
        amountCents: mine.amount_cents,
        shippingCents: mine.shipping_cents,
        shippingAddress,
        reservedUntil: new Date(mine.reserved_until),
      };
    }
    const others =
      held.filter((row) => row.user_id !== buyerId).length +
      (await auctionUnitsOf(tx, productId)) +
      (await giveawayUnitsOf(tx, productId));
    if (product.stock <= 0 || others >= product.stock) {
      // No unit for a new hold. A buyer who paid for this product moments ago is coming back
      // (the answer to their payment was lost, a server died, a second tab): their order.
      const orderId = await recentOrderOf(tx, buyerId, productId, RECENT_ORDER_SECONDS);
      if (orderId) return { kind: 'ordered', orderId };
      throw conflict('CONFLICT', product.stock <= 0 ? SOLD_OUT_MESSAGE : ALL_RESERVED_MESSAGE);
    }
    await assertHoldsAllowed(tx, buyerId, context.clientAddress);

    const shippingCents = product.fulfillment === 'ship' ? product.shipping_cents : 0;
    const amountCents = (room.offer?.priceCents ?? product.price_cents) + shippingCents;
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
      shippingCents,
      shippingAddress,
    });
    if (shippingAddress) await saveAddress(tx, buyerId, shippingAddress);
    return {
      kind: 'new',
      paymentId: payment.id,
      destination,
      amountCents,
      shippingCents,
      shippingAddress,
      reservedUntil: payment.reservedUntil,
      title: product.title,
    };
  });
}

/**
 * Units of the product free for a new hold or an auction now: its stock less the live checkout
 * holds and the units auctions have. Call with the product's row locked (lockProductForSale).
 */
export async function freeUnitsOf(tx: Tx, productId: string, stock: number): Promise<number> {
  const held = await liveHoldsOf(tx, productId);
  return stock - held.length - (await auctionUnitsOf(tx, productId)) - (await giveawayUnitsOf(tx, productId));
}

export { addAddress, removeAddress, savedAddresses } from './addresses.ts';
export type { CheckoutMail } from './mail.ts';
// Orders (ADR 0016) give their payment back through the refund job's path.
export { giveOrderBack } from './order-refunds-repo.ts';
export { recordPaidCharge } from './payment-events.ts';
/** A unit leaves stock for an order paid otherwise (a giveaway's prize). */
export { takeOneUnit } from './payment-events-repo.ts';
export { completeRefunds } from './payment-jobs.ts';
export {
  failPayment,
  insertChargePayment,
  lockProduct as lockProductForSale,
  type ShippingAddress,
} from './repo.ts';
