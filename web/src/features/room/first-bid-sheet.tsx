import { AUCTION_MESSAGES } from '@streamshop/contract/auctions.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreditCard, MapPin } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { SaveCardForm } from '../../components/save-card/save-card-form.tsx';
import { serverAddressErrors } from '../../components/shipping-address/address-form.ts';
import { AddressForm } from '../../components/shipping-address/shipping-address-step.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../components/ui/sheet.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { paymentMethodsQueryOptions } from '../../lib/api/payment-methods.ts';
import { useFocusReturn } from '../../lib/use-focus-return.ts';
import { saveAddress } from './auction-api.ts';

/** The sheet's steps: what the bidder still has to save before their bid goes in. */
function SetupSteps({ product, onReady }: { product: RoomProduct; onReady: () => void }) {
  const queryClient = useQueryClient();
  const saved = useQuery(paymentMethodsQueryOptions);
  const [cardSaved, setCardSaved] = useState(false);
  const [addressSaved, setAddressSaved] = useState(false);
  const address = useMutation({
    mutationFn: saveAddress,
    onSuccess: () => {
      setAddressSaved(true);
      void queryClient.invalidateQueries({ queryKey: ['/api/addresses'] });
      void queryClient.invalidateQueries({ queryKey: paymentMethodsQueryOptions.queryKey });
    },
  });

  const data = saved.data;
  const addressMissing =
    product.fulfillment === 'ship' && !addressSaved && (data ? data.defaultShippingAddress === null : true);
  // The server said something is missing: if the list shows nothing missing, a card is still asked for.
  const needCard = !cardSaved && (data ? data.paymentMethods.length === 0 || !addressMissing : true);
  const needAddress = addressMissing;
  const ready = data !== undefined && !needCard && !needAddress;

  const told = useRef(false);
  useEffect(() => {
    if (!ready || told.current) return;
    told.current = true;
    onReady();
  }, [ready, onReady]);

  if (saved.isPending) return <Skeleton className="h-48 w-full" />;
  if (saved.isError) {
    return (
      <p className="text-red-400 text-sm" role="alert">
        {errorMessage(saved.error, 'Your saved cards could not be loaded. Close this and try again.')}
      </p>
    );
  }
  return (
    <>
      {needCard ? (
        <section className="grid gap-3" aria-label="Add a card" data-testid="first-bid-card">
          <h3 className="flex items-center gap-2 font-semibold text-base">
            <CreditCard className="size-4 text-primary" aria-hidden="true" />
            Add a card
          </h3>
          <SaveCardForm onSaved={() => setCardSaved(true)} />
        </section>
      ) : null}
      {!needCard && needAddress ? (
        <section className="grid gap-3" aria-label="Ship to" data-testid="first-bid-address">
          <h3 className="flex items-center gap-2 font-semibold text-base">
            <MapPin className="size-4 text-primary" aria-hidden="true" />
            Where should a win ship?
          </h3>
          {address.isError && Object.keys(extractFieldErrors(address.error)).length === 0 ? (
            <p className="text-red-400 text-sm" role="alert">
              {errorMessage(address.error, 'The address could not be saved. Try again.')}
            </p>
          ) : null}
          <AddressForm
            key={address.isError ? 'refused' : 'new'}
            serverErrors={serverAddressErrors(
              Object.fromEntries(
                Object.entries(extractFieldErrors(address.error)).map(([field, reason]) => [
                  `shippingAddress.${field}`,
                  reason,
                ]),
              ),
            )}
            submitLabel={address.isPending ? 'Saving…' : 'Save address and bid'}
            onSubmit={(value) => address.mutate(value)}
          />
        </section>
      ) : null}
    </>
  );
}

/**
 * The first bid without a saved card (402): a sheet to add one (and a shipping address for a
 * shipped product) without leaving the stream, then the same bid again. On a phone it is a
 * half-height sheet at the bottom, so the video stays in sight.
 */
export function FirstBidSheet({
  product,
  open,
  onClose,
  onReady,
}: {
  product: RoomProduct;
  open: boolean;
  onClose: () => void;
  /** Everything the bid needs is saved: the sheet closes and the bid is sent again. */
  onReady: () => void;
}) {
  const focusReturn = useFocusReturn();
  return (
    <Sheet
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      {open ? (
        <SheetContent
          side="adaptive"
          closeLabel="Close"
          overlayClassName="bg-black/30"
          data-testid="first-bid-sheet"
          {...focusReturn}
        >
          <div className="pr-8">
            <SheetTitle>Before your first bid</SheetTitle>
            <SheetDescription>{AUCTION_MESSAGES.paymentMethodRequired}</SheetDescription>
          </div>
          <SetupSteps product={product} onReady={onReady} />
        </SheetContent>
      ) : null}
    </Sheet>
  );
}
