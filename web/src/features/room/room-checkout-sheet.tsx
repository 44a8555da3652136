import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LogIn, PackageX, ShieldCheck } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { checkoutTotals, estimatedTotals } from '../../components/order-summary/checkout-totals.ts';
import { OrderPlacedNote } from '../../components/order-summary/order-placed.tsx';
import { ReservationNote, SummaryLine } from '../../components/order-summary/order-summary-parts.tsx';
import { PayNotice } from '../../components/order-summary/pay-notice.tsx';
import { PaymentForm, PaymentFormSkeleton } from '../../components/payment-form/payment-form.tsx';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { serverAddressErrors } from '../../components/shipping-address/address-form.ts';
import {
  ShippingAddressStep,
  useShippingAddress,
} from '../../components/shipping-address/shipping-address-step.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../components/ui/sheet.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { invalidateAfterPurchase, placedOrderOf } from '../../lib/api/checkout.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { openSessionOf, useCheckoutSession } from '../../lib/checkout-session.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useFocusReturn } from '../../lib/use-focus-return.ts';
import { replayChaptersQueryKey, roomCheckoutQueryOptions } from './api.ts';

/** What the room asks the sheet to sell: the product, a running offer's price, and this opening. */
export interface CheckoutRequest {
  product: RoomProduct;
  /** The live offer's price shown on the card; the server charges what holds when Pay is pressed. */
  offerPriceCents?: number;
  opening: number;
}

let openings = 0;
/** A new request per Buy Now, so each opening of the sheet is its own checkout. */
export const checkoutRequest = (product: RoomProduct, offerPriceCents?: number): CheckoutRequest => {
  openings += 1;
  return { product, offerPriceCents, opening: openings };
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

/** The sheet's body, mounted per opening: the summary, the name choice and the card form. */
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
  const checkout = useCheckoutSession(product.id);
  const soldOut = product.stock <= 0;
  // None left: a buyer who paid for the last one moments ago gets their order (nothing is held).
  const orderLookup = useQuery({
    ...roomCheckoutQueryOptions({
      productId: product.id,
      roomName,
      showBuyer: true,
      opening: request.opening,
    }),
    enabled: user !== null && soldOut && !checkout.answer,
  });
  const addressErrors = serverAddressErrors(extractFieldErrors(checkout.error));
  const paying = openSessionOf(checkout);
  const placed = placedOrderOf(checkout.answer) ?? placedOrderOf(orderLookup.data);

  const paid = () => {
    checkout.paid();
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

  // What the buyer is shown and agrees to: the server's figures once Pay opened a session.
  const totals = paying
    ? checkoutTotals(paying)
    : estimatedTotals({ ...product, priceCents: request.offerPriceCents ?? product.priceCents });
  const offerPrice = totals.subtotalCents < product.priceCents;
  let body: ReactNode;
  if (soldOut && !paying) {
    body = orderLookup.isError ? (
      <div className="grid justify-items-start gap-3" role="alert" data-testid="room-checkout-error">
        <p className="flex items-start gap-2 text-sm">
          <PackageX className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {errorMessage(orderLookup.error, 'This product is sold out.')}
        </p>
      </div>
    ) : (
      <PaymentFormSkeleton />
    );
  } else {
    const addressPart = shipping.chosen ? { shippingAddress: shipping.chosen } : {};
    const checkoutBody = { roomName, showBuyer, ...addressPart };
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
            Live offer price, held for you once you press Pay.
          </p>
        ) : null}
        {paying ? <ReservationNote reservedUntil={paying.reservedUntil} /> : null}
        {shipping.needed && (shipping.loading || !shipping.ready) ? null : (
          <>
            <PayNotice checkout={checkout} shownCents={totals.totalCents} />
            <PaymentForm
              clientSecret={{
                amountCents: totals.totalCents,
                open: () => checkout.open(checkoutBody, totals.totalCents),
              }}
              submitLabel={`Pay ${formatCents(totals.totalCents)}`}
              onSuccess={paid}
              onFailure={failed}
            />
          </>
        )}
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
            disabled={checkout.opening}
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
      <ShippingAddressStep choice={shipping} serverErrors={addressErrors} disabled={checkout.opening} />
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
  // The sheet opens without a trigger: on close, focus goes back to the Buy Now that opened it.
  const focusReturn = useFocusReturn();
  return (
    <Sheet
      open={request !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      {request ? (
        <SheetContent
          // Half the height of a phone, so the stream stays in sight above it; a drawer from sm up.
          side="adaptive"
          closeLabel="Close checkout"
          // Light, so the stream stays watchable behind the sheet.
          overlayClassName="bg-black/30"
          data-testid="room-checkout"
          {...focusReturn}
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
