import { formatCents } from '@streamshop/contract/money.ts';
import type { StreamSales, StreamStats } from '@streamshop/contract/stream-stats.ts';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { myStreamStatsQueryOptions } from '../../lib/api/dashboard.ts';
import { cn } from '../../lib/cn.ts';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const sales = ({ purchases, revenueCents }: StreamSales) =>
  `${count(purchases, 'sale', 'sales')} · ${formatCents(revenueCents)}`;

/** A stream's figures as the seller reads them, label by label. */
export function streamStatsFigures(stats: StreamStats): Array<{ label: string; value: string }> {
  const average = stats.averageViewers.toLocaleString('en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return [
    { label: 'Viewers', value: `${stats.peakViewers.toLocaleString('en-US')} peak · ${average} avg` },
    { label: 'Chat', value: count(stats.chatMessages, 'message', 'messages') },
    { label: 'Sold live', value: sales(stats.live) },
    { label: 'Sold from replay', value: sales(stats.replay) },
    ...(stats.auctions.count > 0
      ? [
          {
            label: 'Auctions',
            value: `${count(stats.auctions.count, 'auction', 'auctions')} · ${stats.auctions.sold} sold · ${count(stats.auctions.bids, 'bid', 'bids')} from ${count(stats.auctions.uniqueBidders, 'bidder', 'bidders')}`,
          },
          {
            label: 'Auctions sold',
            value: `${formatCents(stats.auctions.soldForCents)} (started at ${formatCents(stats.auctions.soldStartCents)})`,
          },
        ]
      : []),
  ];
}

/** The figures of one stream on the dashboard's Streams tab. */
export function StreamStatsSummary({ streamId, className }: { streamId: string; className?: string }) {
  const stats = useQuery({ ...myStreamStatsQueryOptions, select: (all) => all[streamId] });
  if (stats.isPending) return <Skeleton className={cn('h-9', className)} />;
  if (stats.isError) {
    return (
      <p className={cn('text-muted-foreground text-xs', className)}>
        The stats of this stream could not be loaded.
      </p>
    );
  }
  // A stream created after the stats were fetched has none yet.
  if (!stats.data) return null;
  return (
    <dl
      className={cn('grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4', className)}
      aria-label="Stream stats"
      data-testid="stream-stats"
    >
      {streamStatsFigures(stats.data).map(({ label, value }) => (
        <div key={label}>
          <dt className="text-muted-foreground text-xs">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
