import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, LogIn, PackageX, RotateCw, ShieldCheck } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { checkoutTotals, estimatedTotals } from '../../components/order-summary/checkout-totals.ts';
import { OrderPlacedNote } from '../../components/order-summary/order-placed.tsx';
import { ReservationNote, SummaryLine } from '../../components/order-summary/order-summary-parts.tsx';
import { PaymentForm, PaymentFormSkeleton } from '../../components/payment-form/payment-form.tsx';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { serverAddressErrors } from '../../components/shipping-address/address-form.ts';
import {
  ShippingAddressStep,
  useShippingAddress,
} from '../../components/shipping-address/shipping-address-step.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../components/ui/sheet.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { invalidateAfterPurchase, placedOrderOf, sessionOf } from '../../lib/api/checkout.ts';
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { replayChaptersQueryKey, roomCheckoutQueryOptions } from './api.ts';

/** What the room asks the sheet to sell: the product and a number unique to this opening. */
export interface CheckoutRequest {
  product: RoomProduct;
  opening: number;
}

let openings = 0;
/** A new request per Buy Now, so each opening of the sheet asks the server for its own session. */
export const checkoutRequest = (product: RoomProduct): CheckoutRequest => {
  openings += 1;
  return { product, opening: openings };
};

function SignInToBuy() {
  return (
    <div className="grid gap-3 rounded-lg border border-border p-4" data-testid="checkout-sign-in">
      <p className="flex items-center gap-2 font-medium">
        <LogIn className="size-4 text-primary" aria-hidden="true" />
        Sign in to buy
      </p>
      <p className="text-muted-foreground text-sm">
        You need an account to pay. The stream keeps going while you sign in in another tab.
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to="/signin" target="_blank" className={buttonClasses({ size: 'sm' })}>
          Sign in
        </Link>
        <Link to="/signup" target="_blank" className={buttonClasses({ size: 'sm', variant: 'outline' })}>
          Create an account
        </Link>
      </div>
    </div>
  );
}

/** The sheet's body, mounted per opening: its session, the name choice and the card form. */
function CheckoutBody({
  roomName,
  request,
  fromReplay,
  onPaid,
}: {
  roomName: string;
  request: CheckoutRequest;
  fromReplay: boolean;
  onPaid: () => void;
}) {
  const { product } = request;
  const { user, isLoading } = useAuth();
  const queryClient = useQueryClient();
  const [showBuyer, setShowBuyer] = useState(true);
  const showBuyerId = useId();
  const shipping = useShippingAddress(user !== null && product.fulfillment === 'ship');
  const session = useQuery({
    ...roomCheckoutQueryOptions({
      productId: product.id,
      roomName,
      showBuyer,
      opening: request.opening,
      shippingAddress: shipping.chosen,
    }),
    enabled: user !== null && (!shipping.needed || shipping.chosen !== null),
    // Another address (or name choice) re-opens the same hold: keep the summary meanwhile.
    placeholderData: (previous) => previous,
  });
  const addressErrors = session.isError ? serverAddressErrors(extractFieldErrors(session.error)) : {};
  // A placeholder is the answer before the latest change (address, name choice): not shown as final.
  const answer = session.isPlaceholderData ? undefined : session.data;
  const paying = sessionOf(answer);
  const placed = placedOrderOf(answer);

  const paid = () => {
    toast({ title: 'Payment Successful', description: `Thank you! ${product.title} is in your orders.` });
    void invalidateAfterPurchase(queryClient);
    void queryClient.invalidateQueries({ queryKey: replayChaptersQueryKey(roomName) });
    onPaid();
  };
  const failed = (message: string) => errorToast('Payment Failed', message);

  const productLine = (
    <div className="flex gap-3">
      <ProductThumb product={product} />
      <div className="min-w-0 flex-1">
        <p className="font-semibold leading-snug" data-testid="room-checkout-title">
          {product.title}
        </p>
        <Badge variant="secondary" className="mt-1">
          {product.condition.toUpperCase()}
        </Badge>
      </div>
    </div>
  );

  if (isLoading) return <PaymentFormSkeleton />;
  if (!user) {
    return (
      <>
        {productLine}
        <SignInToBuy />
      </>
    );
  }

  if (placed) {
    // Paid for moments ago (the answer was lost, or the sheet was opened again): no form, the order.
    return (
      <>
        {productLine}
        <OrderPlacedNote order={placed} />
      </>
    );
  }

  let body: ReactNode;
  if (shipping.needed && (shipping.loading || !shipping.ready || Object.keys(addressErrors).length > 0)) {
    // Before an address is chosen: what it costs (from the product), and no card form yet.
    const totals = estimatedTotals(product);
    body = shipping.loading ? (
      <PaymentFormSkeleton />
    ) : (
      <dl className="grid gap-2 border-border border-t pt-4" data-testid="room-checkout-summary">
        <SummaryLine label="Subtotal" cents={totals.subtotalCents} />
        <SummaryLine label="Shipping" cents={totals.shippingCents} />
        <SummaryLine label="Total" cents={totals.totalCents} strong />
      </dl>
    );
  } else if (session.isError) {
    const soldOut = parseApiError(session.error).status === 409;
    body = (
      <div className="grid justify-items-start gap-3" role="alert" data-testid="room-checkout-error">
        <p className="flex items-start gap-2 text-sm">
          {soldOut ? (
            <PackageX className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          ) : (
            <AlertCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          )}
          {errorMessage(session.error, 'Secure payment could not be set up. Please try again.')}
        </p>
        <Button variant="outline" size="sm" onClick={() => session.refetch()}>
          <RotateCw aria-hidden="true" />
          {soldOut ? 'Check again' : 'Try again'}
        </Button>
      </div>
    );
  } else if (!paying) {
    body = (
      <div className="grid gap-3" data-testid="room-checkout-loading">
        <p className="text-muted-foreground text-sm">Setting up secure payment…</p>
        <PaymentFormSkeleton />
      </div>
    );
  } else {
    const totals = checkoutTotals(paying);
    const offerPrice = totals.subtotalCents < product.priceCents;
    body = (
      <>
        <dl className="grid gap-2 border-border border-t pt-4" data-testid="room-checkout-summary">
          {offerPrice ? (
            <div className="flex justify-between text-sm">
              <dt className="text-muted-foreground">Regular price</dt>
              <dd className="text-muted-foreground tabular-nums line-through">
                {formatCents(product.priceCents)}
              </dd>
            </div>
          ) : null}
          <SummaryLine label="Subtotal" cents={totals.subtotalCents} />
          {shipping.needed || totals.shippingCents > 0 ? (
            <SummaryLine label="Shipping" cents={totals.shippingCents} />
          ) : null}
          <SummaryLine label="Processing fee" cents={totals.processingFeeCents} />
          <SummaryLine label="Total" cents={totals.totalCents} strong />
        </dl>
        {offerPrice ? (
          <p className="text-primary text-sm" data-testid="room-checkout-offer">
            Live offer price, held for you while you pay.
          </p>
        ) : null}
        <ReservationNote reservedUntil={paying.reservedUntil} />
        <PaymentForm
          key={paying.clientSecret}
          clientSecret={paying.clientSecret}
          submitLabel={`Pay ${formatCents(paying.amountCents)}`}
          onSuccess={paid}
          onFailure={failed}
        />
      </>
    );
  }

  return (
    <>
      {productLine}
      {fromReplay ? null : (
        <div className="flex items-start gap-2">
          <input
            id={showBuyerId}
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={showBuyer}
            disabled={session.isFetching}
            onChange={(event) => setShowBuyer(event.target.checked)}
            data-testid="room-checkout-show-buyer"
          />
          <label htmlFor={showBuyerId} className="text-sm leading-tight">
            Show my name in the chat
            <span className="block text-muted-foreground text-xs">
              Otherwise the chat says “Someone just bought {product.title}”.
            </span>
          </label>
        </div>
      )}
      <ShippingAddressStep choice={shipping} serverErrors={addressErrors} disabled={session.isFetching} />
      {body}
    </>
  );
}

/**
 * Buy Now inside the room: a sheet over the page, so the stream (or the replay) keeps playing
 * underneath. The order counts for the room (or its replay) through `roomName`.
 */
export function RoomCheckoutSheet({
  roomName,
  request,
  fromReplay = false,
  onClose,
}: {
  roomName: string;
  request: CheckoutRequest | null;
  fromReplay?: boolean;
  onClose: () => void;
}) {
  return (
    <Sheet
      open={request !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      {request ? (
        <SheetContent
          side="right"
          className="w-[28rem] max-w-[92vw]"
          closeLabel="Close checkout"
          // Light, so the stream stays watchable behind the sheet.
          overlayClassName="bg-black/30"
          data-testid="room-checkout"
        >
          <div className="pr-8">
            <SheetTitle className="flex items-center gap-2">
              <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
              Checkout
            </SheetTitle>
            <SheetDescription>
              {fromReplay
                ? 'Buy from the replay. It keeps playing while you pay.'
                : 'Pay without leaving the stream. It keeps playing while you pay.'}
            </SheetDescription>
          </div>
          <CheckoutBody roomName={roomName} request={request} fromReplay={fromReplay} onPaid={onClose} />
        </SheetContent>
      ) : null}
    </Sheet>
  );
}
