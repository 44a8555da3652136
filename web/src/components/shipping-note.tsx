import { formatCents } from '@streamshop/contract/money.ts';
import type { Fulfillment } from '@streamshop/contract/shipping.ts';
import { cn } from '../lib/cn.ts';

/** What a product's flat shipping adds to its price, as its fields say (ADR 0016). */
export interface ShippingTerms {
  fulfillment: Fulfillment;
  shippingCents: number;
}

/**
 * Beside a price, before the buyer pays: '+ $4.50 shipping' for a product shipped at a price,
 * 'Free shipping' for one shipped for nothing, nothing for a digital or pickup product (no shipping).
 */
export function shippingNote({ fulfillment, shippingCents }: ShippingTerms): string | null {
  if (fulfillment !== 'ship') return null;
  return shippingCents > 0 ? `+ ${formatCents(shippingCents)} shipping` : 'Free shipping';
}

/** The note as a small muted line, or nothing; `testId` tells the places apart in tests. */
export function ShippingNote({
  product,
  testId,
  className,
}: {
  product: ShippingTerms;
  testId: string;
  className?: string;
}) {
  const note = shippingNote(product);
  if (!note) return null;
  return (
    <span className={cn('text-muted-foreground text-xs', className)} data-testid={testId}>
      {note}
    </span>
  );
}
