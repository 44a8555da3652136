import type { Eye } from 'lucide-react';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

/** One of the dashboard's figures (views, orders, revenue, products), a skeleton until it loads. */
export function StatCard({
  label,
  value,
  icon: Icon,
  testId,
  note,
}: {
  label: string;
  value: string | undefined;
  icon: typeof Eye;
  testId: string;
  /** A second figure under the value. */
  note?: string | undefined;
}) {
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between">
        <p className="text-muted-foreground text-sm">{label}</p>
        <Icon className="size-4 text-primary" aria-hidden="true" />
      </div>
      {value === undefined ? (
        <Skeleton className="mt-3 h-8 w-20" />
      ) : (
        <p className="mt-2 font-bold text-2xl tabular-nums" data-testid={testId}>
          {value}
        </p>
      )}
      {note ? (
        <p className="mt-1 text-muted-foreground text-xs" data-testid={`${testId}-note`}>
          {note}
        </p>
      ) : null}
    </Card>
  );
}
