import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { holdLeases, LEASE_SEC } from '../../platform/leases.ts';
import type { PaymentProvider, SavedCardCharge } from '../../platform/payments/provider.ts';
import {
  type CheckoutMail,
  failPayment,
  insertChargePayment,
  recordPaidCharge,
  savedAddresses,
} from '../checkout/service.ts';
import { defaultCardOf } from '../payment-methods/service.ts';
import { payoutDestination, platformFee } from '../payouts/service.ts';
import {
  attachPayment,
  auctionToSettle,
  claimSettlements,
  markDeclined,
  markPaid,
  renewSettlements,
  retryLater,
  type ToSettle,
} from './settlement-repo.ts';

/** How long to wait before asking the provider again after it did not answer. */
const RETRY_AFTER_SEC = 5;
export const NO_CARD_MESSAGE = 'The winner has no saved card to charge.';

export interface SettlementDeps {
  db: Db;
  provider: PaymentProvider;
  mail: CheckoutMail;
  log: FastifyBaseLogger;
  /**
   * After a settled charge or a decline: tell the room on every instance; `orderId` when this
   * settlement wrote the order (its purchase line and stock are to be announced).
   */
  settled: (auctionId: string, orderId: string | undefined) => Promise<void>;
}

/**
 * "You bid, you buy": charges each closed auction's winner off-session with their saved card,
 * exactly once however many instances try and whenever one dies (ADR 0022). A claim is a short
 * lease on the auction row; the charge's idempotency key is the auction's payment id, written
 * before the provider is asked; the order is written once by payment id (the webhook of the same
 * charge converges on it). Every step is safe to run again.
 */
export async function settleDue(deps: SettlementDeps, only?: string): Promise<number> {
  const claimedAt = performance.now();
  const claims = await claimSettlements(deps.db, LEASE_SEC, only);
  if (claims.length === 0) return 0;
  const leases = holdLeases(claims, (held, leaseSec) => renewSettlements(deps.db, held, leaseSec), {
    claimedAt,
    onError: (error) => deps.log.warn({ err: error }, 'renewing auction settlement leases failed'),
  });
  try {
    for (const claim of claims) {
      try {
        if (await leases.holds(claim.id)) await settleOne(deps, claim.id, () => leases.holds(claim.id));
      } catch (error) {
        deps.log.warn({ err: error, auctionId: claim.id }, 'settling an auction failed; it is tried again');
        await retryLater(deps.db, claim.id, RETRY_AFTER_SEC, String(error)).catch(() => {});
      } finally {
        await leases.finish(claim.id);
      }
    }
  } finally {
    await leases.stop();
  }
  return claims.length;
}

async function settleOne(deps: SettlementDeps, auctionId: string, stillMine: () => Promise<boolean>) {
  const { db, provider } = deps;
  const auction = await auctionToSettle(db, auctionId);
  if (auction?.payment_state !== 'pending' || !auction.winner_id || auction.price_cents === null) {
    return;
  }
  const winnerId = auction.winner_id;
  const card = await defaultCardOf(db, winnerId, provider.name);
  const payment = await paymentOf(deps, auction, winnerId);
  if (!card) {
    await declined(deps, auction.id, payment.id, NO_CARD_MESSAGE);
    return;
  }
  const destination = await db.transaction((tx) => payoutDestination(tx, provider, auction.seller_id));
  if (!(await stillMine())) return;
  let charge: SavedCardCharge;
  try {
    charge = await provider.chargeSavedCard({
      paymentId: payment.id,
      amountCents: payment.amountCents,
      description: auction.title,
      customerRef: card.customerRef,
      methodRef: card.methodRef,
      ...(destination && {
        transfer: {
          accountRef: destination,
          feeCents: platformFee(payment.amountCents, deps.mail.platformFeePercent ?? 0),
        },
      }),
    });
  } catch (error) {
    // The provider did not answer: the same idempotency key is asked again later (never a second charge).
    await retryLater(db, auction.id, RETRY_AFTER_SEC, String(error));
    return;
  }
  if (charge.status === 'declined') {
    await declined(deps, auction.id, payment.id, charge.message);
    return;
  }
  const order = await db.transaction(async (tx) => {
    const locked = await auctionToSettle(tx, auction.id, true);
    if (locked?.payment_state !== 'pending') return undefined;
    const recorded = await recordPaidCharge(tx, deps.mail, {
      paymentId: payment.id,
      ref: charge.ref,
      amountCents: payment.amountCents,
    });
    await markPaid(tx, auction.id, recorded.orderId);
    return recorded;
  });
  // The order is announced by whichever wrote it: this, or the charge's webhook (already done).
  await deps.settled(auction.id, order?.created ? order.orderId : undefined);
}

/** The charge's payment row, written once before the provider is asked (its id is the idempotency key). */
async function paymentOf(
  deps: SettlementDeps,
  auction: ToSettle,
  winnerId: string,
): Promise<{ id: string; amountCents: number }> {
  if (auction.payment_id && auction.amount_cents !== null) {
    return { id: auction.payment_id, amountCents: auction.amount_cents };
  }
  const ships = auction.fulfillment === 'ship';
  const address = ships ? ((await savedAddresses(deps.db, winnerId))[0] ?? null) : null;
  const shippingCents = ships ? auction.shipping_cents : 0;
  const amountCents = (auction.price_cents ?? 0) + shippingCents;
  return deps.db.transaction(async (tx) => {
    const locked = await auctionToSettle(tx, auction.id, true);
    if (locked?.payment_id && locked.amount_cents !== null) {
      return { id: locked.payment_id, amountCents: locked.amount_cents };
    }
    const id = await insertChargePayment(tx, {
      buyerId: winnerId,
      provider: deps.provider.name,
      productId: auction.product_id,
      amountCents,
      streamId: auction.stream_id,
      shippingCents,
      shippingAddress: address
        ? {
            name: address.name,
            line1: address.line1,
            line2: address.line2,
            city: address.city,
            region: address.region,
            postalCode: address.postalCode,
            country: address.country,
          }
        : null,
    });
    await attachPayment(tx, auction.id, id);
    return { id, amountCents };
  });
}

async function declined(deps: SettlementDeps, auctionId: string, paymentId: string, message: string) {
  await failPayment(deps.db, paymentId, message);
  await markDeclined(deps.db, auctionId, message);
  await deps.settled(auctionId, undefined);
}
