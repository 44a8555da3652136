import { DISC_DEPOSIT_CENTS } from '@streamshop/contract/constants.ts';
import type { discPreorderBodySchema } from '@streamshop/contract/disc.ts';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { discPreorders, payments } from '../../db/schema.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { providerUnavailable } from '../checkout/service.ts';

export type DiscReservationInput = z.output<typeof discPreorderBodySchema>;

export const DISC_DEPOSIT_DESCRIPTION = 'Stream Disc pre-order reservation ($1 deposit)';

/**
 * The $1 reservation: a pending pre-order and a $1 payment on the provider's hosted page. The
 * pre-order turns 'paid' only when the provider confirms the payment (webhook), never on return.
 */
export async function reserveDisc(
  db: Db,
  provider: PaymentProvider,
  publicUrl: string,
  input: DiscReservationInput,
): Promise<{ checkoutUrl: string }> {
  const { preorderId, paymentId } = await db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values({ kind: 'disc_preorder', provider: provider.name, amountCents: DISC_DEPOSIT_CENTS })
      .returning({ id: payments.id });
    if (!payment) throw new Error('the payment row was not written');
    const [preorder] = await tx
      .insert(discPreorders)
      .values({ name: input.name, email: input.email, phone: input.phone ?? null, paymentRef: payment.id })
      .returning({ id: discPreorders.id });
    if (!preorder) throw new Error('the pre-order row was not written');
    return { preorderId: preorder.id, paymentId: payment.id };
  });

  try {
    const hosted = await provider.createHostedPayment({
      paymentId,
      amountCents: DISC_DEPOSIT_CENTS,
      description: DISC_DEPOSIT_DESCRIPTION,
      email: input.email,
      successUrl: `${publicUrl}/stream-disc?preorder=success`,
      cancelUrl: `${publicUrl}/stream-disc?preorder=cancelled`,
    });
    await db.update(payments).set({ providerRef: hosted.ref }).where(eq(payments.id, paymentId));
    return { checkoutUrl: hosted.url };
  } catch (error) {
    await db
      .update(payments)
      .set({ status: 'failed', lastError: String(error) })
      .where(eq(payments.id, paymentId));
    await db.update(discPreorders).set({ status: 'cancelled' }).where(eq(discPreorders.id, preorderId));
    throw providerUnavailable(error);
  }
}
