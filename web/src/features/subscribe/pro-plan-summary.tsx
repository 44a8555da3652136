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
import { RefundSubscriptionDialog } from './refund-subscription-dialog.tsx';

/** The dashboard's plan row for a pro user: until when, a way to cancel, and the money-back refund. */
export function ProPlanSummary() {
  const subscription = useQuery(subscriptionQueryOptions);
  const [confirming, setConfirming] = useState<'cancel' | 'refund' | null>(null);
  const current = subscription.data?.subscription ?? null;
  const periodEnd = current?.currentPeriodEnd ? formatDate(current.currentPeriodEnd) : null;

  const refundable = current?.refundableUntil ? (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => setConfirming('refund')}
      data-testid="refund-subscription"
    >
      Money-back refund
    </Button>
  ) : null;

  let detail: ReactNode;
  if (subscription.isPending) detail = <Skeleton className="h-5 w-40" />;
  else if (current?.cancelAtPeriodEnd && periodEnd) {
    detail = (
      <>
        <span data-testid="pro-until">Pro until {periodEnd}</span>
        {refundable}
      </>
    );
  } else if (current?.status === 'active') {
    detail = (
      <>
        <span className="text-muted-foreground">{periodEnd ? `Renews ${periodEnd}` : 'Active'}</span>
        {refundable}
        <Button
          variant="outline"
          size="sm"
          onClick={() => setConfirming('cancel')}
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
        open={confirming === 'cancel'}
        currentPeriodEnd={current?.currentPeriodEnd ?? null}
        onOpenChange={(open) => setConfirming(open ? 'cancel' : null)}
      />
      <RefundSubscriptionDialog
        open={confirming === 'refund'}
        refundableUntil={current?.refundableUntil ?? null}
        onOpenChange={(open) => setConfirming(open ? 'refund' : null)}
      />
    </Card>
  );
}
