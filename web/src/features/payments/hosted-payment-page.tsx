import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, Link2Off, ShieldCheck } from 'lucide-react';
import { useParams } from 'react-router';
import { PaymentForm } from '../../components/payment-form/payment-form.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { parseApiError } from '../../lib/api/client.ts';
import { hostedPaymentQueryOptions } from '../../lib/api/payments.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';

const PAGE_CLASS = 'mx-auto grid w-full max-w-md gap-6 px-4 py-12 sm:px-6';

/**
 * /pay/:id: the local provider's hosted payment page (what Stripe Checkout is with Stripe), used by
 * the Stream Disc $1 reservation. It sends the payer back to the merchant's success or cancel page.
 */
export function HostedPaymentPage() {
  const { id = '' } = useParams();
  usePageTitle('Secure payment');
  const payment = useQuery(hostedPaymentQueryOptions(id));

  if (payment.isPending) {
    return (
      <div className={`${PAGE_CLASS} justify-items-center py-24`}>
        <Spinner className="size-10" label="Loading the payment" />
      </div>
    );
  }
  if (payment.isError) {
    const missing = parseApiError(payment.error).status === 404;
    return (
      <div className={PAGE_CLASS}>
        <Card
          className="grid justify-items-center gap-3 px-6 py-12 text-center"
          data-testid="hosted-payment-missing"
        >
          <Link2Off className="size-10 text-muted-foreground" aria-hidden="true" />
          <h1 className="font-bold text-2xl">
            {missing ? 'Payment link not found' : 'The payment could not be loaded'}
          </h1>
          <p className="text-muted-foreground">
            {missing
              ? 'This payment link does not exist. Start again from the page that sent you here.'
              : 'Please try again in a moment.'}
          </p>
        </Card>
      </div>
    );
  }

  const { description, amountCents, clientSecret, status, successUrl, cancelUrl } = payment.data;
  if (status !== 'open') {
    const paid = status === 'paid';
    const Icon = paid ? CheckCircle2 : Clock;
    return (
      <div className={PAGE_CLASS}>
        <Card
          className="grid justify-items-center gap-3 px-6 py-12 text-center"
          data-testid="hosted-payment-closed"
        >
          <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
          <h1 className="font-bold text-2xl">{paid ? 'Already paid' : 'This payment has expired'}</h1>
          <a href={paid ? successUrl : cancelUrl} className={buttonClasses({ variant: 'outline' })}>
            Return to the merchant
          </a>
        </Card>
      </div>
    );
  }

  return (
    <div className={PAGE_CLASS}>
      <Card data-testid="hosted-payment">
        <CardHeader>
          <h1 className="font-semibold text-xl leading-tight">{description}</h1>
          <CardDescription className="font-semibold text-2xl text-foreground">
            {formatCents(amountCents)}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <PaymentForm
            clientSecret={clientSecret}
            submitLabel={`Pay ${formatCents(amountCents)}`}
            onSuccess={() => window.location.assign(successUrl)}
            onFailure={(message) => errorToast('Payment Failed', message)}
          />
          <p className="flex items-center gap-2 text-muted-foreground text-xs">
            <ShieldCheck className="size-4" aria-hidden="true" />
            Card details go only to the payment provider; they are never stored.
          </p>
          <a
            href={cancelUrl}
            className={buttonClasses({ variant: 'ghost' })}
            data-testid="hosted-payment-cancel"
          >
            Cancel and return
          </a>
        </CardContent>
      </Card>
    </div>
  );
}
