import type { PayoutAccount } from '@streamshop/contract/orders.ts';
import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, Banknote, Loader2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { payoutAccountQueryOptions, useStartOnboardingMutation } from '../../lib/api/orders.ts';
import { formatDate } from '../../lib/format-date.ts';

/** What each state of the seller's payout account says, and whether it offers the setup button. */
const COPY: Record<
  Exclude<PayoutAccount['status'], 'ready' | 'not_required'>,
  { title: string; text: string; action: string }
> = {
  not_started: {
    title: 'Set up payouts to start selling',
    text: 'Buyers can pay for your products once Stripe knows where to send your money. It takes a few minutes.',
    action: 'Set up payouts',
  },
  pending: {
    title: 'Finish setting up payouts',
    text: 'Stripe still needs some details before buyers can pay for your products.',
    action: 'Continue setup',
  },
};

/**
 * The Earnings tab's payout account (ADR 0016): with Stripe Connect, the button that sends the
 * seller to Stripe's onboarding (a fresh link each time) and the account's state when they come
 * back; with the local provider, a line saying the ledger is paid out daily.
 */
export function PayoutAccountCard({ returnedFrom }: { returnedFrom?: 'return' | 'refresh' | undefined }) {
  const account = useQuery(payoutAccountQueryOptions);
  const onboarding = useStartOnboardingMutation();

  if (account.isPending) return <Skeleton className="mb-6 h-24 w-full" />;
  if (account.isError) {
    return (
      <p className="mb-6 text-muted-foreground text-sm" role="alert">
        Your payout account could not be loaded. {errorMessage(account.error, 'Please try again.')}
      </p>
    );
  }
  const { status, readySince } = account.data;
  if (status === 'not_required') {
    return (
      <p className="mb-6 text-muted-foreground text-sm" data-testid="payout-account">
        Payouts: your available balance is paid out once a day.
      </p>
    );
  }
  if (status === 'ready') {
    return (
      <Card className="mb-6 flex items-center gap-3 p-4" data-testid="payout-account">
        <BadgeCheck className="size-5 text-primary" aria-hidden="true" />
        <p className="text-sm">
          Payouts are set up: Stripe pays your earnings to your bank account
          {readySince ? ` (since ${formatDate(readySince)})` : ''}, and each payout shows here under Paid out.
        </p>
      </Card>
    );
  }
  const copy = COPY[status];
  return (
    <Card className="mb-6 border-primary/40 p-4" data-testid="payout-account">
      <div className="flex flex-wrap items-start gap-3">
        <Banknote className="mt-0.5 size-5 text-primary" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold">{copy.title}</h3>
          <p className="text-muted-foreground text-sm">
            {returnedFrom === 'refresh' ? 'Your setup link expired. ' : ''}
            {copy.text}
          </p>
          {onboarding.isError ? (
            <p className="mt-2 text-destructive text-sm" role="alert">
              {errorMessage(onboarding.error, 'Stripe could not be reached. Please try again.')}
            </p>
          ) : null}
        </div>
        <Button
          disabled={onboarding.isPending || onboarding.isSuccess}
          onClick={() =>
            onboarding.mutate(undefined, { onSuccess: ({ url }) => window.location.assign(url) })
          }
        >
          {onboarding.isPending || onboarding.isSuccess ? (
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          ) : null}
          {copy.action}
        </Button>
      </div>
    </Card>
  );
}

/** Above the products while payouts are not set up (Stripe Connect): buyers cannot pay yet. */
export function PayoutsNeededNotice({ onOpenEarnings }: { onOpenEarnings: () => void }) {
  const account = useQuery(payoutAccountQueryOptions);
  const status = account.data?.status;
  if (status !== 'not_started' && status !== 'pending') return null;
  return (
    <Card
      className="mb-4 flex flex-wrap items-center gap-3 border-primary/40 p-4"
      data-testid="payouts-needed"
    >
      <Banknote className="size-5 text-primary" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-sm">Buyers cannot pay for your products until you set up payouts.</p>
      <Button size="sm" variant="outline" onClick={onOpenEarnings}>
        Set up payouts
      </Button>
    </Card>
  );
}
