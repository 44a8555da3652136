import type { Stream } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { PRO_REQUIRED_MESSAGE, type StreamAnalytics } from '@streamshop/contract/stream-analytics.ts';
import { useQuery } from '@tanstack/react-query';
import { Crown } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { streamAnalyticsQueryOptions } from '../../lib/api/dashboard.ts';
import { formatPlanDuration } from '../../lib/countdown.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { StreamStatsSummary } from './stream-stats.tsx';

// recharts is only loaded when a Pro seller opens a stream's analytics.
const AnalyticsCharts = lazy(() => import('./analytics-charts.tsx'));

const percent = (share: number | null) =>
  share === null ? '—' : `${(share * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;

function Figures({ analytics }: { analytics: StreamAnalytics }) {
  const figures = [
    { label: 'Unique viewers', value: analytics.uniqueViewers.toLocaleString('en-US') },
    { label: 'Buyers', value: analytics.buyers.toLocaleString('en-US') },
    { label: 'Conversion', value: percent(analytics.conversion) },
  ];
  return (
    <dl className="grid grid-cols-3 gap-3" data-testid="analytics-figures">
      {figures.map(({ label, value }) => (
        <div key={label} className="rounded-lg border p-3">
          <dt className="text-muted-foreground text-xs">{label}</dt>
          <dd className="mt-1 font-bold text-xl tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PinnedProducts({ products }: { products: StreamAnalytics['products'] }) {
  if (products.length === 0) {
    return <p className="text-muted-foreground text-sm">No product was pinned in this stream.</p>;
  }
  return (
    <table className="w-full text-left text-sm tabular-nums" data-testid="analytics-products">
      <caption className="mb-2 text-left font-medium">Sales per pinned product</caption>
      <thead className="text-muted-foreground text-xs">
        <tr>
          <th scope="col" className="py-1 font-normal">
            Product
          </th>
          <th scope="col" className="py-1 font-normal">
            Pinned
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            Sales
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            Revenue
          </th>
        </tr>
      </thead>
      <tbody>
        {products.map((product) => (
          <tr key={product.productId} className="border-t">
            <th scope="row" className="max-w-48 truncate py-1.5 font-normal">
              {product.title}
            </th>
            <td className="py-1.5">{formatPlanDuration(product.pinnedSeconds)}</td>
            <td className="py-1.5 text-right">{product.purchases.toLocaleString('en-US')}</td>
            <td className="py-1.5 text-right">{formatCents(product.revenueCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ProAnalytics({ stream }: { stream: Stream }) {
  const analytics = useQuery(streamAnalyticsQueryOptions(stream.roomName));
  if (analytics.isPending) return <Skeleton className="h-64" />;
  if (analytics.isError) {
    return <p className="text-muted-foreground text-sm">The analytics of this stream could not be loaded.</p>;
  }
  const { minutes, products } = analytics.data;
  return (
    <div className="grid gap-6">
      <Figures analytics={analytics.data} />
      {minutes.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          Minute-by-minute figures start when the stream goes live.
        </p>
      ) : (
        <Suspense fallback={<Skeleton className="h-96" />}>
          <AnalyticsCharts minutes={minutes} />
        </Suspense>
      )}
      <PinnedProducts products={products} />
    </div>
  );
}

/** On the free plan: the stream's totals, and what Pro adds. */
function FreeAnalytics({ stream }: { stream: Stream }) {
  return (
    <div className="grid gap-4">
      <StreamStatsSummary streamId={stream.id} />
      <Card className="flex flex-col items-start gap-3 p-4" data-testid="analytics-upgrade">
        <p className="text-sm">{PRO_REQUIRED_MESSAGE}</p>
        <Link to="/subscribe" className={buttonClasses({ size: 'sm' })}>
          <Crown className="text-amber-400" aria-hidden="true" />
          Upgrade to Pro
        </Link>
      </Card>
    </div>
  );
}

/** A stream's analytics: the full set on Pro, the totals and an upgrade prompt on free. */
export function StreamAnalyticsDialog({
  stream,
  onOpenChange,
}: {
  stream: Stream | null;
  onOpenChange: (open: boolean) => void;
}) {
  const { user } = useAuth();
  return (
    <Dialog open={stream !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="analytics-dialog">
        <DialogHeader>
          <DialogTitle>Analytics</DialogTitle>
          <DialogDescription className="truncate">{stream?.title}</DialogDescription>
        </DialogHeader>
        {stream && user?.plan === 'pro' ? <ProAnalytics stream={stream} /> : null}
        {stream && user?.plan === 'free' ? <FreeAnalytics stream={stream} /> : null}
      </DialogContent>
    </Dialog>
  );
}
