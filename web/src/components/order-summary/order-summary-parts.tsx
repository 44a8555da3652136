import { formatCents } from '@streamshop/contract/money.ts';
import { Clock } from 'lucide-react';
import { useNow } from '../../lib/use-now.ts';
import { reservationNote } from './reservation.ts';

/** Lines of an order's summary, shared by the checkout page and the checkout sheet of a room. */

export function SummaryLine({
  label,
  cents,
  strong = false,
}: {
  label: string;
  cents: number;
  strong?: boolean;
}) {
  return (
    <div
      className={
        strong
          ? 'flex justify-between border-border border-t pt-2 font-bold text-lg'
          : 'flex justify-between text-sm'
      }
    >
      <dt className={strong ? undefined : 'text-muted-foreground'}>{label}</dt>
      <dd className="tabular-nums" data-testid={`checkout-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {formatCents(cents)}
      </dd>
    </div>
  );
}

export function ReservationNote({ reservedUntil }: { reservedUntil: string | null }) {
  const now = useNow(reservedUntil !== null);
  const note = reservationNote(reservedUntil, now);
  if (!note) return null;
  return (
    <p className="flex items-center gap-2 text-muted-foreground text-xs" data-testid="checkout-reservation">
      <Clock className="size-3.5 shrink-0" aria-hidden="true" />
      {note}
    </p>
  );
}
