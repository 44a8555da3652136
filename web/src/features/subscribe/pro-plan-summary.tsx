import { useQuery } from '@tanstack/react-query';
import { Crown } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatDate } from '../../lib/format-date.ts';
import { subscriptionQueryOptions } from './api.ts';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.tsx';

/** The dashboard's plan row for a pro user: until when, or a way to cancel. */
export function ProPlanSummary() {
  const subscription = useQuery(subscriptionQueryOptions);
  const [confirming, setConfirming] = useState(false);
  const current = subscription.data?.subscription ?? null;
  const periodEnd = current?.currentPeriodEnd ? formatDate(current.currentPeriodEnd) : null;

  let detail: ReactNode;
  if (subscription.isPending) detail = <Skeleton className="h-5 w-40" />;
  else if (current?.cancelAtPeriodEnd && periodEnd) {
    detail = <span data-testid="pro-until">Pro until {periodEnd}</span>;
  } else if (current?.status === 'active') {
    detail = (
      <>
        <span className="text-muted-foreground">{periodEnd ? `Renews ${periodEnd}` : 'Active'}</span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => setConfirming(true)}
          data-testid="cancel-subscription"
        >
          Cancel subscription
        </Button>
      </>
    );
  } else {
    // Pro without a subscription of its own (granted by an admin or the demo seed).
    detail = <span className="text-muted-foreground">Pro plan</span>;
  }

  return (
    <Card className="mb-6 flex flex-wrap items-center gap-3 p-4 text-sm" data-testid="plan-summary">
      <Badge className="gap-1">
        <Crown className="size-3" aria-hidden="true" />
        PRO
      </Badge>
      <span className="font-medium">Your plan</span>
      <div className="ml-auto flex flex-wrap items-center gap-3">{detail}</div>
      <CancelSubscriptionDialog
        open={confirming}
        currentPeriodEnd={current?.currentPeriodEnd ?? null}
        onOpenChange={setConfirming}
      />
    </Card>
  );
}
