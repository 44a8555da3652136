import { DISC_DEPOSIT_CENTS } from '@streamshop/contract/constants.ts';
import type { discPreorderBodySchema } from '@streamshop/contract/disc.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { providerUnavailable } from '../../platform/payments/provider.ts';
import { failDeposit, insertDepositPayment, insertDiscPreorder, setDepositProviderRef } from './repo.ts';

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
    const paymentId = await insertDepositPayment(tx, provider.name, DISC_DEPOSIT_CENTS);
    const preorderId = await insertDiscPreorder(tx, {
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      paymentRef: paymentId,
    });
    return { preorderId, paymentId };
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
    await setDepositProviderRef(db, paymentId, hosted.ref);
    return { checkoutUrl: hosted.url };
  } catch (error) {
    await failDeposit(db, paymentId, preorderId, String(error));
    throw providerUnavailable(error);
  }
}
