import type { PaymentSession } from '@streamshop/contract/payments.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';

/** How long an open checkout holds a unit for its buyer (ADR 0006). */
export const CHECKOUT_RESERVATION_SECONDS = 600;

export const SOLD_OUT_MESSAGE = 'This product is sold out.';
export const ALL_RESERVED_MESSAGE =
  'Every unit left is being checked out by another buyer. Try again in a few minutes.';

export function providerUnavailable(error: unknown): AppError {
  const reason = error instanceof Error ? error.message : 'unknown error';
  return new AppError(502, 'SERVICE_UNAVAILABLE', `The payment provider could not be reached: ${reason}`);
}

type Reservation =
  | { kind: 'existing'; clientSecret: string; amountCents: number; reservedUntil: Date }
  | { kind: 'new'; paymentId: string; amountCents: number; reservedUntil: Date; title: string };

/**
 * Holds one unit of the product for the buyer and opens a payment for its price as stored in the
 * database. A buyer who comes back (reload, second tab) gets the same payment, never a second unit.
 */
export async function openCheckout(
  db: Db,
  provider: PaymentProvider,
  buyerId: string,
  productId: string,
): Promise<PaymentSession> {
  const reservation = await db.transaction(async (tx): Promise<Reservation> => {
    const found = await tx.execute<{ seller_id: string; price_cents: number; stock: number; title: string }>(
      sql`select seller_id, price_cents, stock, title from products where id = ${productId} for update`,
    );
    const product = found.rows[0];
    if (!product) throw notFound('Product not found');
    if (product.seller_id === buyerId) throw badRequest('You cannot buy your own product.');
    if (product.price_cents <= 0) throw badRequest('This product has no price to pay.');

    const held = await tx.execute<{
      user_id: string;
      client_secret: string | null;
      amount_cents: number;
      reserved_until: Date | string;
    }>(sql`
      select user_id, client_secret, amount_cents, reserved_until from payments
      where product_id = ${productId} and kind = 'checkout' and status = 'pending' and reserved_until > now()`);
    const mine = held.rows.find((row) => row.user_id === buyerId);
    if (mine) {
      if (!mine.client_secret) {
        throw conflict('CONFLICT', 'Your payment is still being set up. Try again in a moment.');
      }
      return {
        kind: 'existing',
        clientSecret: mine.client_secret,
        amountCents: mine.amount_cents,
        reservedUntil: new Date(mine.reserved_until),
      };
    }
    if (product.stock <= 0) throw conflict('CONFLICT', SOLD_OUT_MESSAGE);
    if (held.rows.length >= product.stock) throw conflict('CONFLICT', ALL_RESERVED_MESSAGE);

    const [payment] = await tx
      .insert(payments)
      .values({
        userId: buyerId,
        kind: 'checkout',
        provider: provider.name,
        productId,
        amountCents: product.price_cents,
        reservedUntil: sql`now() + make_interval(secs => ${CHECKOUT_RESERVATION_SECONDS})`,
      })
      .returning({ id: payments.id, reservedUntil: payments.reservedUntil });
    if (!payment?.reservedUntil) throw new Error('the payment row was not written');
    return {
      kind: 'new',
      paymentId: payment.id,
      amountCents: product.price_cents,
      reservedUntil: payment.reservedUntil,
      title: product.title,
    };
  });

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
    await db
      .update(payments)
      .set({ status: 'failed', lastError: String(error), updatedAt: new Date() })
      .where(eq(payments.id, reservation.paymentId));
    throw providerUnavailable(error);
  }
  await db
    .update(payments)
    .set({ providerRef: session.ref, clientSecret: session.clientSecret, updatedAt: new Date() })
    .where(and(eq(payments.id, reservation.paymentId), eq(payments.status, 'pending')));
  return {
    clientSecret: session.clientSecret,
    amountCents: reservation.amountCents,
    reservedUntil: reservation.reservedUntil.toISOString(),
  };
}
