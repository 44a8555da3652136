import { formatCents } from '@streamshop/contract/money.ts';
import { type LedgerEntry, PAYOUT_HOLD_DAYS } from '@streamshop/contract/orders.ts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Clock, DollarSign, Landmark, Loader2, Percent, Receipt, Wallet } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { balanceQueryOptions, ledgerQueryOptions } from '../../lib/api/orders.ts';
import { formatDate } from '../../lib/format-date.ts';
import { PayoutAccountCard } from './payout-account.tsx';
import { StatCard } from './stat-card.tsx';

const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  sale: 'Sale',
  fee: 'Platform fee',
  refund: 'Refund',
  fee_refund: 'Fee returned',
  payout: 'Payout',
  payout_reversal: 'Payout returned',
};

/** Which entries each figure sums, so a click shows the sales behind it. */
const FIGURES = {
  gross: { label: 'Gross', kinds: ['sale', 'refund'] },
  fees: { label: 'Fees', kinds: ['fee', 'fee_refund'] },
  net: { label: 'Net', kinds: ['sale', 'fee', 'refund', 'fee_refund'] },
  pending: { label: 'Pending', kinds: ['sale', 'fee', 'refund', 'fee_refund'] },
  available: {
    label: 'Available',
    kinds: ['sale', 'fee', 'refund', 'fee_refund', 'payout', 'payout_reversal'],
  },
  paidOut: { label: 'Paid out', kinds: ['payout', 'payout_reversal'] },
} as const satisfies Record<string, { label: string; kinds: readonly LedgerEntry['kind'][] }>;
type Figure = keyof typeof FIGURES;

function entryMatches(entry: LedgerEntry, figure: Figure, now: number): boolean {
  if (!(FIGURES[figure].kinds as readonly string[]).includes(entry.kind)) return false;
  const available = Date.parse(entry.availableAt) <= now;
  if (figure === 'pending') return !available;
  if (figure === 'available') return available;
  return true;
}

/** The dashboard's Earnings tab: the ledger's balance (ADR 0016) and the entries behind each figure. */
export function EarningsPanel({ returnedFrom }: { returnedFrom?: 'return' | 'refresh' | undefined }) {
  const balance = useQuery(balanceQueryOptions);
  const ledger = useInfiniteQuery(ledgerQueryOptions);
  const [figure, setFigure] = useState<Figure>('net');
  const b = balance.data;
  const cents = (value: number | undefined) => (value === undefined ? undefined : formatCents(value));
  const now = Date.now();
  // The figures filter the pages loaded so far; "Load more" brings older entries into them.
  const entries =
    ledger.data?.pages.flatMap((page) => page.entries).filter((entry) => entryMatches(entry, figure, now)) ??
    [];

  return (
    <>
      <div className="mb-4">
        <h2 className="font-semibold text-xl">Earnings</h2>
        <p className="text-muted-foreground text-sm">
          Sales become available {PAYOUT_HOLD_DAYS} days after the payment; refunds come out of your balance.
        </p>
      </div>
      <PayoutAccountCard returnedFrom={returnedFrom} />
      {balance.isError ? (
        <p className="py-6 text-center text-muted-foreground">Your balance could not be loaded.</p>
      ) : (
        <section aria-label="Balance" className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-3">
          <StatCard
            label="Gross (sales less refunds)"
            icon={DollarSign}
            value={cents(b?.grossCents)}
            testId="earnings-gross"
          />
          <StatCard label="Platform fees" icon={Percent} value={cents(b?.feeCents)} testId="earnings-fees" />
          <StatCard label="Net earned" icon={Wallet} value={cents(b?.netCents)} testId="earnings-net" />
          <StatCard label="Pending" icon={Clock} value={cents(b?.pendingCents)} testId="earnings-pending" />
          <StatCard
            label="Available"
            icon={Landmark}
            value={cents(b?.availableCents)}
            testId="earnings-available"
          />
          <StatCard
            label="Paid out"
            icon={Receipt}
            value={cents(b?.paidOutCents)}
            testId="earnings-paid-out"
          />
        </section>
      )}

      <fieldset className="mb-3 flex flex-wrap gap-2" aria-label="Show the entries behind">
        {(Object.keys(FIGURES) as Figure[]).map((key) => (
          <Button
            key={key}
            size="sm"
            variant={figure === key ? 'default' : 'outline'}
            aria-pressed={figure === key}
            onClick={() => setFigure(key)}
          >
            {FIGURES[key].label}
          </Button>
        ))}
      </fieldset>
      {ledger.isPending ? (
        <div className="grid gap-2" role="status" aria-label="Loading">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : ledger.isError ? (
        <p className="py-6 text-center text-muted-foreground">Your ledger could not be loaded.</p>
      ) : entries.length === 0 ? (
        <EmptyState
          icon={Wallet}
          title="Nothing here yet"
          description={
            ledger.hasNextPage
              ? 'None among the entries loaded so far: load more to look further back.'
              : 'Entries appear with your first sale.'
          }
        />
      ) : (
        <Card className="overflow-x-auto p-0">
          {/* On a phone: the item (cut to one line) with its details under it, and the amount. */}
          <table className="w-full table-fixed text-left text-sm sm:table-auto" data-testid="earnings-ledger">
            <thead className="text-muted-foreground">
              <tr className="border-border border-b">
                <th className="hidden p-3 font-medium sm:table-cell">Date</th>
                <th className="hidden p-3 font-medium sm:table-cell">Entry</th>
                <th className="p-3 font-medium">Item</th>
                <th className="hidden p-3 font-medium sm:table-cell">Buyer</th>
                <th className="hidden p-3 font-medium sm:table-cell">Available</th>
                <th className="w-28 p-3 text-right font-medium sm:w-auto">Amount</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.id}
                  className="border-border border-b last:border-0"
                  data-testid="earnings-entry"
                >
                  <td className="hidden p-3 sm:table-cell">{formatDate(entry.createdAt)}</td>
                  <td className="hidden p-3 sm:table-cell">{KIND_LABELS[entry.kind]}</td>
                  <td className="p-3">
                    <span className="block truncate sm:whitespace-normal">{entry.productTitle ?? '—'}</span>
                    <span className="block truncate text-muted-foreground text-xs sm:hidden">
                      {KIND_LABELS[entry.kind]} · {formatDate(entry.createdAt)}
                      {entry.buyerHandle ? ` · @${entry.buyerHandle}` : ''}
                    </span>
                    <span className="block text-muted-foreground text-xs sm:hidden">
                      Available {formatDate(entry.availableAt)}
                    </span>
                  </td>
                  <td className="hidden p-3 sm:table-cell">
                    {entry.buyerHandle ? `@${entry.buyerHandle}` : '—'}
                  </td>
                  <td className="hidden p-3 sm:table-cell">{formatDate(entry.availableAt)}</td>
                  <td className="whitespace-nowrap p-3 text-right tabular-nums" data-testid="earnings-amount">
                    {formatCents(entry.amountCents)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {ledger.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="outline"
            onClick={() => ledger.fetchNextPage()}
            disabled={ledger.isFetchingNextPage}
          >
            {ledger.isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
