import { useQuery } from '@tanstack/react-query';
import { AlertCircle, RotateCw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { paymentConfigQueryOptions } from '../../lib/api/payments.ts';
import { Button } from '../ui/button.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { LocalCardForm } from './local-card-form.tsx';
import type { PaymentFormProps } from './payment-form-props.ts';

// Stripe's libraries load only when the server uses Stripe, never with the first page.
const StripeCardForm = lazy(async () => ({
  default: (await import('./stripe-card-form.tsx')).StripeCardForm,
}));

export function PaymentFormSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-label="Loading the payment form">
      <Skeleton className="h-10 w-full" />
      <div className="grid grid-cols-2 gap-4">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
      <Skeleton className="h-11 w-full" />
    </div>
  );
}

/** The card form of whichever provider the server uses (GET /api/payments/config). */
export function PaymentForm(props: PaymentFormProps) {
  const config = useQuery(paymentConfigQueryOptions);

  if (config.isPending) return <PaymentFormSkeleton />;
  if (config.isError) {
    return (
      <div className="grid justify-items-start gap-3" data-testid="payment-form-error">
        <p className="flex items-center gap-2 text-destructive text-sm">
          <AlertCircle className="size-4" aria-hidden="true" />
          The payment form could not be loaded.
        </p>
        <Button variant="outline" size="sm" onClick={() => config.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  if (config.data.provider === 'stripe') {
    return (
      <Suspense fallback={<PaymentFormSkeleton />}>
        <StripeCardForm publishableKey={config.data.publishableKey} {...props} />
      </Suspense>
    );
  }
  return <LocalCardForm {...props} />;
}
