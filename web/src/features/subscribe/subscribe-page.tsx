import { PAYMENT_SUCCESS_REDIRECT_MS, PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, ArrowLeft, Check, Crown, Quote, RotateCw, ShieldCheck, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PaymentForm } from '../../components/payment-form/payment-form.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { errorMessage, isUnauthorizedError, parseApiError } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useRedirectSignedOut } from '../../lib/session/use-redirect-signed-out.ts';
import { SUBSCRIPTION_URL, subscriptionSessionQueryOptions } from './api.ts';
import { PLAN_FEATURES, type PlanFeature, PRO_FAQS, PRO_HIGHLIGHTS } from './plan-features.ts';

const PAGE_CLASS = 'mx-auto w-full max-w-6xl px-4 py-10 sm:px-6';

const SIGN_IN_NOTICE = {
  title: 'Authentication Required',
  description: 'Please sign in to upgrade to Pro.',
};

function BackToDashboard() {
  return (
    <Link
      to="/dashboard"
      className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-3 mb-4' })}
    >
      <ArrowLeft aria-hidden="true" />
      Back to Dashboard
    </Link>
  );
}

function FeatureValue({ value }: { value: string | boolean }) {
  if (typeof value === 'string') return <>{value}</>;
  return value ? (
    <>
      <Check className="inline size-4 text-emerald-400" aria-hidden="true" />
      <span className="sr-only">Included</span>
    </>
  ) : (
    <>
      <X className="inline size-4 text-muted-foreground" aria-hidden="true" />
      <span className="sr-only">Not included</span>
    </>
  );
}

function PlanComparison({ features }: { features: readonly PlanFeature[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Free vs Pro</CardTitle>
        <CardDescription>Everything you get on each plan.</CardDescription>
      </CardHeader>
      <CardContent>
        <table className="w-full text-sm" data-testid="plan-comparison">
          <thead>
            <tr className="border-border border-b text-left text-muted-foreground">
              <th scope="col" className="py-2 pr-3 font-medium">
                Feature
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Free
              </th>
              <th scope="col" className="py-2 pl-3 font-medium text-foreground">
                Pro
              </th>
            </tr>
          </thead>
          <tbody>
            {features.map((feature) => (
              <tr key={feature.name} className="border-border border-b last:border-0">
                <th scope="row" className="py-3 pr-3 text-left font-normal">
                  {feature.name}
                </th>
                <td className="px-3 py-3 text-muted-foreground">
                  <FeatureValue value={feature.free} />
                </td>
                <td className="py-3 pl-3 font-medium">
                  <FeatureValue value={feature.pro} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

function Testimonial() {
  return (
    <Card>
      <CardContent className="p-6">
        <figure className="grid gap-3">
          <Quote className="size-6 text-primary" aria-hidden="true" />
          <blockquote className="text-lg leading-relaxed">
            “Fifteen minutes changed everything. I can show a whole crate of records in one drop, and the
            analytics tell me which ones to restock.”
          </blockquote>
          <figcaption className="text-muted-foreground text-sm">
            Maya R., independent vinyl seller on StreamShop Pro
          </figcaption>
        </figure>
      </CardContent>
    </Card>
  );
}

function Faqs() {
  return (
    <section className="mt-12" aria-labelledby="pro-faq-heading">
      <h2 id="pro-faq-heading" className="font-bold text-2xl tracking-tight">
        Frequently Asked Questions
      </h2>
      <dl className="mt-6 grid gap-4 md:grid-cols-2" data-testid="pro-faqs">
        {PRO_FAQS.map(({ question, answer }) => (
          <Card key={question} className="p-5">
            <dt className="font-semibold">{question}</dt>
            <dd className="mt-2 text-muted-foreground text-sm">{answer}</dd>
          </Card>
        ))}
      </dl>
    </section>
  );
}

function PriceCard({
  clientSecret,
  onSuccess,
  onFailure,
}: {
  clientSecret: string;
  onSuccess: () => void;
  onFailure: (message: string) => void;
}) {
  const price = formatCents(PRO_PRICE_CENTS);
  return (
    <Card className="border-primary" data-testid="pro-price-card">
      <CardHeader>
        <div className="flex items-center justify-between">
          <CardTitle className="flex items-center gap-2 text-xl">
            <Crown className="size-5 text-amber-400" aria-hidden="true" />
            Pro
          </CardTitle>
          <Badge>Most Popular</Badge>
        </div>
        <p className="mt-2">
          <span className="font-bold text-4xl tabular-nums" data-testid="pro-price">
            {price}
          </span>
          <span className="text-muted-foreground"> / month</span>
        </p>
      </CardHeader>
      <CardContent className="grid gap-5">
        <ul className="grid gap-2 text-sm">
          {PRO_HIGHLIGHTS.map((highlight) => (
            <li key={highlight} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-emerald-400" aria-hidden="true" />
              {highlight}
            </li>
          ))}
        </ul>
        <div className="border-border border-t pt-5">
          <PaymentForm
            clientSecret={clientSecret}
            submitLabel={`Subscribe for ${price}/month`}
            onSuccess={onSuccess}
            onFailure={onFailure}
          />
        </div>
        <p className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
          <ShieldCheck className="size-4 text-emerald-400" aria-hidden="true" />
          30-day money-back guarantee
        </p>
      </CardContent>
    </Card>
  );
}

/** /subscribe: a free user pays for Pro (spec section 2, Pro upgrade). */
export function SubscribePage() {
  usePageTitle('Upgrade to Pro');
  const signedIn = useRedirectSignedOut(SIGN_IN_NOTICE);
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Once paid, the refreshed user is pro: that must not count as 'Already Pro'.
  const [paid, setPaid] = useState(false);
  const isFree = user?.plan === 'free';

  const session = useQuery({ ...subscriptionSessionQueryOptions, enabled: signedIn && isFree && !paid });
  const alreadyPro =
    !paid && (user?.plan === 'pro' || (session.isError && parseApiError(session.error).status === 409));

  useEffect(() => {
    if (!alreadyPro) return;
    toast({ title: 'Already Pro', description: 'You already have a Pro subscription.' });
    // The cached user may be older than the server's answer.
    void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    navigate('/dashboard', { replace: true });
  }, [alreadyPro, navigate, queryClient]);

  // One 'Subscription Setup Failed' toast per failed attempt.
  const toastedError = useRef(0);
  const setupFailure =
    session.isError && !alreadyPro && !isUnauthorizedError(session.error)
      ? errorMessage(session.error, 'Your Pro subscription could not be set up. Please try again.')
      : null;
  useEffect(() => {
    if (setupFailure === null || toastedError.current === session.errorUpdatedAt) return;
    toastedError.current = session.errorUpdatedAt;
    errorToast('Subscription Setup Failed', setupFailure);
  }, [setupFailure, session.errorUpdatedAt]);

  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const subscribed = () => {
    setPaid(true);
    toast({
      title: 'Welcome to Pro!',
      description: 'Your account is now Pro: streams up to 15 minutes, RTMP, HD and more.',
    });
    // The plan changed on the server: the cached user and subscription are out of date.
    void queryClient.refetchQueries({ queryKey: authUserQueryKey });
    void queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_URL] });
    redirectTimer.current = setTimeout(() => navigate('/dashboard'), PAYMENT_SUCCESS_REDIRECT_MS);
  };

  const failed = (message: string) => errorToast('Payment Failed', message);

  if (setupFailure !== null) {
    return (
      <section className={PAGE_CLASS}>
        <BackToDashboard />
        <Card
          className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-14 text-center"
          data-testid="subscribe-error"
        >
          <AlertCircle className="size-12 text-muted-foreground" aria-hidden="true" />
          <h1 className="font-bold text-2xl">Subscription Setup Failed</h1>
          <p className="text-muted-foreground">{setupFailure}</p>
          <Button variant="outline" className="mt-3" onClick={() => session.refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </Card>
      </section>
    );
  }

  if (!session.data) {
    return (
      <div className={`${PAGE_CLASS} flex flex-col items-center gap-4 py-24`} data-testid="subscribe-loading">
        <Spinner className="size-10" label="Setting up your Pro subscription" />
        <p className="text-lg text-muted-foreground">Setting up your Pro subscription...</p>
      </div>
    );
  }

  return (
    <section className={PAGE_CLASS}>
      <BackToDashboard />
      <h1 className="flex items-center gap-3 font-bold text-3xl tracking-tight sm:text-4xl">
        <Crown className="size-8 text-amber-400" aria-hidden="true" />
        Upgrade to Pro
      </h1>
      <p className="mt-2 text-lg text-muted-foreground">
        Longer streams, more reach and deeper insights for {formatCents(PRO_PRICE_CENTS)} per month.
      </p>
      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid gap-6">
          <PlanComparison features={PLAN_FEATURES} />
          <Testimonial />
        </div>
        <PriceCard clientSecret={session.data.clientSecret} onSuccess={subscribed} onFailure={failed} />
      </div>
      <Faqs />
    </section>
  );
}
