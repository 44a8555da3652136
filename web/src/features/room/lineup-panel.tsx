import { formatCents } from '@streamshop/contract/money.ts';
import { MAX_PINNED, type RoomProduct } from '@streamshop/contract/shop.ts';
import { BadgePercent, Gavel, Gift, ListVideo, Pin, PinOff, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { shippingNote } from '../../components/shipping-note.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { cn } from '../../lib/cn.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { type ShopChange, useShopChangeMutation } from './api.ts';
import { AuctionDialog } from './auction-dialog.tsx';
import { GiveawayDialog } from './giveaway-dialog.tsx';
import { SellerGiveawayCard } from './giveaway-seller-card.tsx';
import { runningOffer } from './offer-clock.ts';
import { OfferDialog } from './offer-dialog.tsx';
import {
  type OfferFieldErrors,
  type OfferFormValues,
  offerFieldErrors,
  offerFormToBody,
} from './offer-form.ts';
import { ProductPicker } from './product-picker.tsx';
import { RunningOffer } from './running-offer.tsx';
import { SellerAuctionCard } from './seller-auction-card.tsx';
import type { ShopState } from './shop-state.ts';
import type { RoomAuction } from './use-room-auction.ts';
import type { RoomGiveaway } from './use-room-giveaway.ts';
import { useServerNow } from './use-room-shop.ts';

/** '$20.00 + $4.50 shipping', '$20.00 · Free shipping', or the price alone (digital, pickup). */
function withShipping(product: RoomProduct): string {
  const price = formatCents(product.priceCents);
  const note = shippingNote(product);
  if (!note) return price;
  return note.startsWith('+') ? `${price} ${note}` : `${price} · ${note}`;
}

/**
 * The seller's (and their moderators') shop controls in the room: line up products from the
 * catalogue, pin up to MAX_PINNED for viewers; the seller alone starts and ends a live offer on a
 * pinned one (moderators see it running, without the controls), an auction or a giveaway on a
 * lineup product.
 */
export function LineupPanel({
  roomName,
  shop,
  live,
  ownerHandle,
  isOwner,
  loadFailed,
  auction,
  giveaway,
}: {
  roomName: string;
  shop: ShopState;
  /** Offers run only while the stream is live. */
  live: boolean;
  ownerHandle: string;
  /** The seller themself, rather than one of their moderators. */
  isOwner: boolean;
  loadFailed: boolean;
  /** The room's auction (running, or the last one's result). */
  auction: RoomAuction;
  /** The room's giveaway (running, or the last one's result). */
  giveaway: RoomGiveaway;
}) {
  const change = useShopChangeMutation(roomName);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [offerProduct, setOfferProduct] = useState<RoomProduct | null>(null);
  const [offerErrors, setOfferErrors] = useState<OfferFieldErrors>({});
  const [auctionProduct, setAuctionProduct] = useState<RoomProduct | null>(null);
  const auctionRunning = auction.auction?.status === 'running';
  const [giveawayProduct, setGiveawayProduct] = useState<RoomProduct | null>(null);
  const giveawayRunning = giveaway.giveaway?.status === 'running';
  const serverNowMs = useServerNow(shop, Boolean(shop?.offer));
  // Which action is in flight, to show it on its own button.
  const busy = change.isPending ? change.variables : null;
  const busyOn = (kind: ShopChange['kind'], productId?: string) =>
    busy?.kind === kind && (productId === undefined || ('productId' in busy && busy.productId === productId));

  const run = (next: ShopChange, fallback: string, onDone?: () => void) =>
    change.mutate(next, {
      onSuccess: () => onDone?.(),
      onError: (error) => errorToast('Error', errorMessage(error, fallback)),
    });

  const startOffer = (values: OfferFormValues): OfferFieldErrors | null => {
    if (!offerProduct) return null;
    const checked = offerFormToBody(values, offerProduct.id);
    if (!checked.ok) return checked.errors;
    setOfferErrors({});
    change.mutate(
      { kind: 'start-offer', offer: checked.body },
      {
        onSuccess: () => {
          setOfferProduct(null);
          toast({
            title: 'Offer started',
            description: `${formatCents(checked.body.priceCents)} for everyone.`,
          });
        },
        onError: (error) => {
          const byField =
            parseApiError(error).status === 400 ? offerFieldErrors(extractFieldErrors(error)) : {};
          if (Object.keys(byField).length > 0) setOfferErrors(byField);
          else errorToast('Error', errorMessage(error, 'The offer could not be started'));
        },
      },
    );
    return null;
  };

  const offer = runningOffer(shop, serverNowMs);
  const pinnedCount = shop?.pinned.length ?? 0;

  let body: ReactNode;
  if (!shop) {
    body = loadFailed ? (
      <p className="text-destructive text-sm" role="alert">
        The lineup could not be loaded. Reload the page to try again.
      </p>
    ) : (
      <div className="grid gap-2" aria-busy="true">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  } else if (shop.lineup.length === 0) {
    body = (
      <p
        className="rounded-lg border border-border border-dashed p-4 text-center text-muted-foreground text-sm"
        data-testid="lineup-empty"
      >
        Your lineup is empty. Add products from your catalogue, then pin them so viewers can buy without
        leaving the stream.
      </p>
    );
  } else {
    body = (
      <ul className="grid gap-2" data-testid="lineup">
        {shop.lineup.map((product) => {
          const pinned = shop.pinned.includes(product.id);
          const pinLimit = !pinned && pinnedCount >= MAX_PINNED;
          return (
            <li
              key={product.id}
              className={cn(
                'flex flex-wrap items-center gap-3 rounded-lg border p-2',
                pinned ? 'border-primary/50 bg-primary/5' : 'border-border',
              )}
              data-testid="lineup-product"
              data-pinned={pinned}
            >
              <ProductThumb product={product} size="sm" />
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-2">
                  <span className="truncate font-medium text-sm" data-testid="lineup-product-title">
                    {product.title}
                  </span>
                  {pinned ? (
                    <Badge className="shrink-0 gap-1" data-testid="lineup-pinned">
                      <Pin className="size-3" aria-hidden="true" />
                      Pinned
                    </Badge>
                  ) : null}
                </p>
                <p className="text-muted-foreground text-xs">
                  {withShipping(product)} ·{' '}
                  <span data-testid="lineup-product-stock">
                    {product.stock > 0 ? `${product.stock} in stock` : 'Sold out'}
                  </span>
                </p>
              </div>
              <div className="flex flex-wrap gap-1.5">
                {pinned ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() =>
                      run({ kind: 'unpin', productId: product.id }, 'Could not unpin the product')
                    }
                    disabled={busyOn('unpin', product.id)}
                    data-testid="lineup-unpin"
                  >
                    <PinOff aria-hidden="true" />
                    Unpin<span className="sr-only">: {product.title}</span>
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => run({ kind: 'pin', productId: product.id }, 'Could not pin the product')}
                    disabled={pinLimit || busyOn('pin', product.id)}
                    title={pinLimit ? `At most ${MAX_PINNED} pinned at once: unpin one first` : undefined}
                    data-testid="lineup-pin"
                  >
                    <Pin aria-hidden="true" />
                    Pin<span className="sr-only">: {product.title}</span>
                  </Button>
                )}
                {isOwner && pinned && live && !offer ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => {
                      setOfferErrors({});
                      setOfferProduct(product);
                    }}
                    disabled={product.stock <= 0}
                    data-testid="lineup-start-offer"
                  >
                    <BadgePercent aria-hidden="true" />
                    Offer<span className="sr-only">: {product.title}</span>
                  </Button>
                ) : null}
                {isOwner && live && !auctionRunning ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setAuctionProduct(product)}
                    disabled={product.stock <= 0}
                    data-testid="lineup-start-auction"
                  >
                    <Gavel aria-hidden="true" />
                    Start auction<span className="sr-only">: {product.title}</span>
                  </Button>
                ) : null}
                {isOwner && live && !giveawayRunning ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setGiveawayProduct(product)}
                    disabled={product.stock <= 0}
                    data-testid="lineup-start-giveaway"
                  >
                    <Gift aria-hidden="true" />
                    Giveaway<span className="sr-only">: {product.title}</span>
                  </Button>
                ) : null}
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-9"
                  onClick={() =>
                    run({ kind: 'remove', productId: product.id }, 'Could not remove the product')
                  }
                  disabled={busyOn('remove', product.id)}
                  aria-label={`Remove ${product.title} from the lineup`}
                  data-testid="lineup-remove"
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Card className="grid gap-3 p-4" data-testid="lineup-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="flex items-center gap-2 font-semibold">
            <ListVideo className="size-4 text-primary" aria-hidden="true" />
            Lineup
          </h2>
          <p className="text-muted-foreground text-xs" data-testid="lineup-pin-count">
            {pinnedCount} of {MAX_PINNED} pinned · viewers see pinned products over the video
          </p>
        </div>
        <Button
          size="sm"
          onClick={() => setPickerOpen(true)}
          disabled={!shop}
          data-testid="lineup-open-picker"
        >
          <Plus aria-hidden="true" />
          Add product
        </Button>
      </div>
      {shop ? (
        <RunningOffer
          shop={shop}
          serverNowMs={serverNowMs}
          onEnd={isOwner ? () => run({ kind: 'end-offer' }, 'Could not end the offer') : null}
          ending={busyOn('end-offer')}
        />
      ) : null}
      {auction.auction ? <SellerAuctionCard room={auction} canCancel={isOwner} /> : null}
      <SellerGiveawayCard room={giveaway} hostHandle={ownerHandle} canCancel={isOwner} />
      {body}
      <ProductPicker
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        ownerHandle={ownerHandle}
        isOwner={isOwner}
        lineup={shop?.lineup ?? []}
        adding={busy?.kind === 'add' ? busy.productId : null}
        onAdd={(product) => run({ kind: 'add', productId: product.id }, 'Could not add the product')}
      />
      {offerProduct ? (
        <OfferDialog
          product={offerProduct}
          pending={busyOn('start-offer')}
          serverErrors={offerErrors}
          onSubmit={startOffer}
          onClose={() => setOfferProduct(null)}
        />
      ) : null}
      {auctionProduct ? (
        <AuctionDialog
          roomName={roomName}
          product={auctionProduct}
          onStarted={(started) => {
            auction.applyView(started);
            setAuctionProduct(null);
            toast({ title: 'Auction started', description: `${started.product.title} is up for bids.` });
          }}
          onClose={() => setAuctionProduct(null)}
        />
      ) : null}
      {giveawayProduct ? (
        <GiveawayDialog
          roomName={roomName}
          product={giveawayProduct}
          onStarted={(started) => {
            giveaway.applyView(started);
            setGiveawayProduct(null);
            toast({
              title: 'Giveaway started',
              description: `Viewers can enter to win ${started.product.title}.`,
            });
          }}
          onClose={() => setGiveawayProduct(null)}
        />
      ) : null}
    </Card>
  );
}
