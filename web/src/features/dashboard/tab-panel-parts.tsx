import type { ReactNode } from 'react';
import { Skeleton } from '../../components/ui/skeleton.tsx';

/** The pieces every dashboard tab's list shares: its heading row, skeleton and failure line. */

export function RowsSkeleton() {
  return (
    <div className="grid gap-3" role="status" aria-label="Loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-20 w-full" />
      ))}
    </div>
  );
}

export function LoadFailed({ what }: { what: string }) {
  return <p className="py-6 text-center text-muted-foreground">Your {what} could not be loaded.</p>;
}

export function TabPanelHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h2 className="font-semibold text-xl">{title}</h2>
      {children}
    </div>
  );
}
