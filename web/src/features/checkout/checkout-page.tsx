import type { Product } from '@streamshop/contract/catalog.ts';
import { PAYMENT_SUCCESS_REDIRECT_MS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { CheckoutSession } from '@streamshop/contract/payments.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import { AlertCircle, ArrowLeft, Link2Off, PackageX, RotateCw, ShieldCheck } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { checkoutTotals, estimatedTotals } from '../../components/order-summary/checkout-totals.ts';
import { OrderPlacedNote } from '../../components/order-summary/order-placed.tsx';
import { ReservationNote, SummaryLine } from '../../components/order-summary/order-summary-parts.tsx';
import { PayNotice } from '../../components/order-summary/pay-notice.tsx';
import { PaymentForm } from '../../components/payment-form/payment-form.tsx';
import { PolicyLinks } from '../../components/policy-links.tsx';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { serverAddressErrors } from '../../components/shipping-address/address-form.ts';
import {
  type ShippingAddressChoice,
  ShippingAddressStep,
  useShippingAddress,
} from '../../components/shipping-address/shipping-address-step.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import {
  checkoutProductQueryOptions,
  checkoutSessionQueryOptions,
  invalidateAfterPurchase,
} from '../../lib/api/checkout.ts';
import { extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { type CheckoutSessionState, openSessionOf, useCheckoutSession } from '../../lib/checkout-session.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useRedirectSignedOut } from '../../lib/session/use-redirect-signed-out.ts';
import { checkoutView } from './checkout-view.ts';
import { isProductId } from './product-id.ts';

const PAGE_CLASS = 'mx-auto w-full max-w-6xl px-4 py-10 sm:px-6';
/** Before the product has loaded: no total to show yet. */
const EMPTY = { priceCents: 0, shippingCents: 0 };

const SIGN_IN_NOTICE = {
  title: 'Authentication Required',
  description: 'Please sign in to complete your purchase.',
};

const backToMarketplace = (variant: 'outline' | 'default' = 'outline') => (
  <Link to="/explore" className={buttonClasses({ variant, className: 'mt-3' })}>
    Back to Marketplace
  </Link>
);

/** A centred card for the states that are not the checkout itself. */
function StateCard({
  icon: Icon,
  title,
  children,
  testId,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <div className={PAGE_CLASS}>
      <Card
        className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-14 text-center"
        data-testid={testId}
      >
        <Icon className="size-12 text-muted-foreground" aria-hidden="true" />
        <h1 className="font-bold text-2xl">{title}</h1>
        {children}
      </Card>
    </div>
  );
}

function SettingUp() {
  return (
    <div className={`${PAGE_CLASS} flex flex-col items-center gap-4 py-24`} data-testid="checkout-loading">
      <Spinner className="size-10" label="Setting up secure payment" />
      <p className="text-lg text-muted-foreground">Setting up secure payment...</p>
    </div>
  );
}

/** The summary: from the server's answer once Pay opened a session, else the product's own prices. */
function OrderSummary({ product, session }: { product: Product; session: CheckoutSession | undefined }) {
  const totals = session ? checkoutTotals(session) : estimatedTotals(product);
  const ships = product.fulfillment === 'ship' || totals.shippingCents > 0;
  return (
    <Card data-testid="order-summary">
      <CardHeader>
        <CardTitle className="text-xl">Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="flex gap-4">
          <ProductThumb product={product} size="lg" alt={product.title} />
          <div className="min-w-0 flex-1">
            <p className="font-semibold leading-snug" data-testid="checkout-product-title">
              {product.title}
            </p>
            {product.description ? (
              <p className="mt-1 line-clamp-2 text-muted-foreground text-sm">{product.description}</p>
            ) : null}
            <div className="mt-2 flex items-center justify-between gap-2">
              <Badge variant="secondary">{product.condition.toUpperCase()}</Badge>
              <span className="font-semibold" data-testid="checkout-price">
                {formatCents(totals.subtotalCents)}
              </span>
            </div>
          </div>
        </div>
        <dl className="grid gap-2 border-border border-t pt-4">
          <SummaryLine label="Subtotal" cents={totals.subtotalCents} />
          {ships ? <SummaryLine label="Shipping" cents={totals.shippingCents} /> : null}
          <SummaryLine label="Processing fee" cents={totals.processingFeeCents} />
          <SummaryLine label="Total" cents={totals.totalCents} strong />
        </dl>
        {session ? <ReservationNote reservedUntil={session.reservedUntil} /> : null}
      </CardContent>
    </Card>
  );
}

/** The card form once an address is chosen; Pay opens the session (and the hold) for that address. */
function PaymentStep({
  choice,
  checkout,
  onSuccess,
  onFailure,
}: {
  choice: ShippingAddressChoice;
  checkout: CheckoutSessionState & { shownCents: number };
  onSuccess: () => void;
  onFailure: (message: string) => void;
}) {
  if (!choice.ready) {
    return choice.loading ? null : (
      <p className="text-muted-foreground text-sm" data-testid="checkout-address-first">
        Add where to ship it to continue to payment.
      </p>
    );
  }
  const { shownCents, open } = checkout;
  const body = choice.chosen ? { shippingAddress: choice.chosen } : {};
  return (
    <>
      <PayNotice checkout={checkout} shownCents={shownCents} />
      <PaymentForm
        clientSecret={{ amountCents: shownCents, open: () => open(body, shownCents) }}
        submitLabel={`Pay ${formatCents(shownCents)}`}
        onSuccess={onSuccess}
        onFailure={onFailure}
      />
    </>
  );
}

/** /checkout/:productId: pay for one product by card (spec section 2, Checkout). */
export function CheckoutPage() {
  const { productId } = useParams();
  usePageTitle('Checkout');
  const signedIn = useRedirectSignedOut(SIGN_IN_NOTICE);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = productId ?? '';
  const validId = isProductId(productId);

  const product = useQuery({ ...checkoutProductQueryOptions(id), enabled: signedIn && validId });
  const shipping = useShippingAddress(product.data?.fulfillment === 'ship');
  const checkout = useCheckoutSession(id);
  const session = openSessionOf(checkout);
  const orderLookup = useQuery({
    ...checkoutSessionQueryOptions(id),
    // None left: a buyer who paid for the last one moments ago gets their order (nothing is held).
    enabled: signedIn && validId && product.isSuccess && product.data.stock <= 0 && !checkout.answer,
  });
  const view = checkoutView({ productId, signedIn, product, orderLookup, paying: checkout.answer });
  const shownCents = (session ? checkoutTotals(session) : estimatedTotals(product.data ?? EMPTY)).totalCents;

  // One 'Payment Setup Failed' toast per failed attempt, not per render.
  const toastedError = useRef(0);
  const setupFailure = view.kind === 'setup-failed' ? view.message : null;
  useEffect(() => {
    if (setupFailure === null || toastedError.current === orderLookup.errorUpdatedAt) return;
    toastedError.current = orderLookup.errorUpdatedAt;
    errorToast('Payment Setup Failed', setupFailure);
  }, [setupFailure, orderLookup.errorUpdatedAt]);

  // Taken meanwhile (409 at Pay): the stock figure is read again, and 0 shows Sold Out.
  const taken = parseApiError(checkout.error).status === 409;
  const refetchProduct = product.refetch;
  useEffect(() => {
    if (taken) void refetchProduct();
  }, [taken, refetchProduct]);

  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const paid = () => {
    checkout.paid();
    toast({
      title: 'Payment Successful',
      description: 'Thank you for your purchase! Redirecting to your orders...',
    });
    void invalidateAfterPurchase(queryClient);
    redirectTimer.current = setTimeout(() => navigate('/dashboard?tab=orders'), PAYMENT_SUCCESS_REDIRECT_MS);
  };

  const failed = (message: string) => errorToast('Payment Failed', message);

  switch (view.kind) {
    case 'invalid-url':
      return (
        <StateCard icon={Link2Off} title="Invalid checkout URL" testId="checkout-invalid-url">
          <p className="text-muted-foreground">This link does not point to a product.</p>
          {backToMarketplace()}
        </StateCard>
      );
    case 'signed-out':
    case 'loading':
      return <SettingUp />;
    case 'not-found':
      return (
        <StateCard icon={PackageX} title="Product Not Found" testId="checkout-not-found">
          <p className="text-muted-foreground">
            The product you're trying to purchase doesn't exist or is no longer available.
          </p>
          {backToMarketplace()}
        </StateCard>
      );
    case 'sold-out':
      return (
        <StateCard icon={PackageX} title="Sold Out" testId="checkout-sold-out">
          <p className="text-muted-foreground" data-testid="checkout-sold-out-message">
            {view.message}
          </p>
          <div className="flex flex-wrap justify-center gap-2">{backToMarketplace('default')}</div>
        </StateCard>
      );
    case 'ordered':
      return (
        <div className={PAGE_CLASS} data-testid="checkout-ordered">
          <div className="mx-auto grid max-w-lg gap-2">
            <OrderPlacedNote order={view.order} />
            {backToMarketplace()}
          </div>
        </div>
      );
    case 'load-failed':
    case 'setup-failed':
      return (
        <StateCard
          icon={AlertCircle}
          title={view.kind === 'load-failed' ? 'Checkout Unavailable' : 'Payment Setup Failed'}
          testId="checkout-error"
        >
          <p className="text-muted-foreground">{view.message}</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button
              variant="outline"
              className="mt-3"
              onClick={() => (view.kind === 'load-failed' ? product.refetch() : orderLookup.refetch())}
            >
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
            {backToMarketplace()}
          </div>
        </StateCard>
      );
    case 'ready':
      return (
        <section className={PAGE_CLASS}>
          <Link
            to="/explore"
            className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-3 mb-4' })}
          >
            <ArrowLeft aria-hidden="true" />
            Back to Marketplace
          </Link>
          <h1 className="flex items-center gap-3 font-bold text-3xl tracking-tight sm:text-4xl">
            <ShieldCheck className="size-8 text-primary" aria-hidden="true" />
            Checkout
          </h1>
          <p className="mt-2 text-lg text-muted-foreground">Complete your purchase securely.</p>
          <div className="mt-8 grid items-start gap-6 lg:grid-cols-2">
            <OrderSummary product={view.product} session={session} />
            <Card>
              <CardHeader>
                <CardTitle className="text-xl">
                  {shipping.needed ? 'Shipping and Payment' : 'Payment Details'}
                </CardTitle>
                <CardDescription>Pay by card. Your card details are sent encrypted.</CardDescription>
              </CardHeader>
              <CardContent className="grid gap-6">
                <ShippingAddressStep
                  choice={shipping}
                  serverErrors={serverAddressErrors(extractFieldErrors(checkout.error))}
                  disabled={checkout.opening}
                />
                <PaymentStep
                  choice={shipping}
                  checkout={{ ...checkout, shownCents }}
                  onSuccess={paid}
                  onFailure={failed}
                />
                <p className="text-center text-muted-foreground text-xs" data-testid="checkout-terms">
                  By completing your purchase you agree to StreamShop's <PolicyLinks />.
                </p>
              </CardContent>
            </Card>
          </div>
        </section>
      );
  }
}
