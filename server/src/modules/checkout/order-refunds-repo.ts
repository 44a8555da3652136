import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/**
 * A cancelled or refunded order (ADR 0016), in its transaction: its payment becomes 'refunding'
 * (the refund job asks the provider until it agrees, as for a sold-out payment) and its unit
 * returns to stock.
 */
export async function giveOrderBack(
  tx: Tx,
  order: { paymentId: string | null; productId: string | null },
  reason: string,
): Promise<void> {
  if (order.paymentId) {
    await tx.execute(sql`
      update payments set status = 'refunding', last_error = ${reason}, updated_at = now()
      where id = ${order.paymentId} and status = 'succeeded'`);
  }
  if (order.productId) {
    // The reverse of takeOneUnit; an unlisted product (its seller left) stays at 0.
    await tx.execute(sql`
      update products set stock = stock + 1, updated_at = clock_timestamp()
      where id = ${order.productId} and unlisted_at is null`);
  }
}
