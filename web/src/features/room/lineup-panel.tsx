import type { Product } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import {
  MAX_PINNED,
  OFFER_FLOOR_PERCENT,
  OFFER_MAX_SECONDS,
  OFFER_MIN_SECONDS,
  offerFloorCents,
  type RoomProduct,
  type RoomShop,
} from '@streamshop/contract/shop.ts';
import { useQuery } from '@tanstack/react-query';
import { BadgePercent, ListVideo, Pin, PinOff, Plus, RotateCw, Search, Square, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { myProductsQueryOptions } from '../../lib/api/dashboard.ts';
import { storefrontQueryOptions } from '../../lib/api/storefront.ts';
import { cn } from '../../lib/cn.ts';
import { formatCountdown } from '../../lib/countdown.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { type ShopChange, useShopChangeMutation } from './api.ts';
import { offerSecondsLeft, runningOffer } from './offer-clock.ts';
import {
  defaultOfferValues,
  isBelowFloor,
  type OfferField,
  type OfferFieldErrors,
  type OfferFormValues,
  offerFieldErrors,
  offerFormToBody,
} from './offer-form.ts';
import type { ShopState } from './shop-state.ts';
import { useServerNow } from './use-room-shop.ts';

/**
 * The products the picker offers: the seller's own catalogue, or for a moderator the seller's
 * storefront (a moderator cannot read another seller's private list).
 */
function useLineupCandidates(ownerHandle: string, isOwner: boolean, enabled: boolean) {
  const mine = useQuery({ ...myProductsQueryOptions, enabled: enabled && isOwner });
  const storefront = useQuery({ ...storefrontQueryOptions(ownerHandle), enabled: enabled && !isOwner });
  if (isOwner) return { products: mine.data, isError: mine.isError, refetch: mine.refetch };
  return { products: storefront.data?.products, isError: storefront.isError, refetch: storefront.refetch };
}

function ProductPicker({
  open,
  onOpenChange,
  ownerHandle,
  isOwner,
  lineup,
  onAdd,
  adding,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  ownerHandle: string;
  isOwner: boolean;
  lineup: RoomProduct[];
  onAdd: (product: Product) => void;
  adding: string | null;
}) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const candidates = useLineupCandidates(ownerHandle, isOwner, open);
  const inLineup = new Set(lineup.map((product) => product.id));
  const needle = search.trim().toLowerCase();
  const shown = (candidates.products ?? []).filter((product) => product.title.toLowerCase().includes(needle));

  let list: ReactNode;
  if (candidates.isError) {
    list = (
      <div className="grid justify-items-start gap-2 py-4 text-sm" role="alert">
        <p className="text-destructive">The products could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => candidates.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  } else if (!candidates.products) {
    list = (
      <div className="grid gap-2" aria-busy="true">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-14 w-full" />
        ))}
      </div>
    );
  } else if (candidates.products.length === 0) {
    list = (
      <p className="py-4 text-muted-foreground text-sm" data-testid="lineup-picker-empty">
        No products in the catalogue yet.{' '}
        {isOwner ? (
          <Link to="/dashboard" className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}>
            Add products on the dashboard
          </Link>
        ) : null}
      </p>
    );
  } else if (shown.length === 0) {
    list = <p className="py-4 text-muted-foreground text-sm">No product matches “{search.trim()}”.</p>;
  } else {
    list = (
      <ul className="grid max-h-[50vh] gap-2 overflow-y-auto pr-1" data-testid="lineup-picker-list">
        {shown.map((product) => (
          <li
            key={product.id}
            className="flex items-center gap-3 rounded-md border border-border p-2"
            data-testid="lineup-picker-product"
          >
            <ProductThumb product={product} size="sm" />
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-sm">{product.title}</p>
              <p className="text-muted-foreground text-xs">
                {formatCents(product.priceCents)} · {product.stock} in stock
              </p>
            </div>
            {inLineup.has(product.id) ? (
              <span className="text-muted-foreground text-xs" data-testid="lineup-picker-added">
                In lineup
              </span>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => onAdd(product)}
                disabled={adding !== null}
                data-testid="lineup-add"
              >
                <Plus aria-hidden="true" />
                Add<span className="sr-only">: {product.title}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="lineup-picker">
        <DialogHeader>
          <DialogTitle>Add to the lineup</DialogTitle>
          <DialogDescription>Line up products to pin them for viewers during the stream.</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search products
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={searchId}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search products"
            className="pl-9"
            autoComplete="off"
            data-testid="lineup-picker-search"
          />
        </div>
        {list}
      </DialogContent>
    </Dialog>
  );
}

function OfferDialog({
  product,
  pending,
  serverErrors,
  onSubmit,
  onClose,
}: {
  product: RoomProduct;
  pending: boolean;
  serverErrors: OfferFieldErrors;
  onSubmit: (values: OfferFormValues) => OfferFieldErrors | null;
  onClose: () => void;
}) {
  const [values, setValues] = useState(() => defaultOfferValues(product.priceCents, product.stock));
  const [errors, setErrors] = useState<OfferFieldErrors>({});
  const ids = { price: useId(), quantity: useId(), duration: useId(), confirm: useId() };
  const shownErrors = { ...serverErrors, ...errors };
  const floor = offerFloorCents(product.priceCents);
  const belowFloor = isBelowFloor(values, product.priceCents);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(onSubmit({ ...values, confirmBelowFloor: belowFloor && values.confirmBelowFloor }) ?? {});
  };
  const field = (name: OfferField, label: string, hint: string, props: Record<string, string | number>) => (
    <div className="grid gap-1.5">
      <Label htmlFor={ids[name]}>{label}</Label>
      <Input
        id={ids[name]}
        type="number"
        inputMode="decimal"
        value={values[name]}
        onChange={(event) => {
          const value = event.target.value;
          setValues((current) => ({ ...current, [name]: value }));
        }}
        aria-invalid={shownErrors[name] ? true : undefined}
        aria-describedby={`${ids[name]}-hint`}
        data-testid={`offer-${name}`}
        {...props}
      />
      {shownErrors[name] ? (
        <p id={`${ids[name]}-hint`} className="text-destructive text-sm" data-testid={`offer-${name}-error`}>
          {shownErrors[name]}
        </p>
      ) : (
        <p id={`${ids[name]}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent data-testid="offer-dialog">
        <DialogHeader>
          <DialogTitle>Start a live offer</DialogTitle>
          <DialogDescription>
            A time-limited price on {product.title} (regular {formatCents(product.priceCents)}). Everyone in
            the room sees the same countdown.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {field(
            'price',
            'Offer price ($)',
            `Below the regular price; at least ${formatCents(floor)} (${OFFER_FLOOR_PERCENT} %) unless you confirm.`,
            { min: 0.01, step: 0.01 },
          )}
          {belowFloor ? (
            <div className="flex items-start gap-2 rounded-md border border-destructive/50 p-3 text-sm">
              <input
                id={ids.confirm}
                type="checkbox"
                className="mt-0.5 size-4"
                checked={values.confirmBelowFloor}
                onChange={(event) => {
                  const checked = event.target.checked;
                  setValues((current) => ({ ...current, confirmBelowFloor: checked }));
                }}
                data-testid="offer-confirm-below-floor"
              />
              <Label htmlFor={ids.confirm} className="font-normal leading-snug">
                Yes, sell at less than {OFFER_FLOOR_PERCENT} % of the regular price ({formatCents(floor)}).
              </Label>
            </div>
          ) : null}
          <div className="grid grid-cols-2 gap-4">
            {field('quantity', 'Units at this price', `Up to ${product.stock} in stock.`, {
              min: 1,
              step: 1,
            })}
            {field('duration', 'Duration (seconds)', `${OFFER_MIN_SECONDS}–${OFFER_MAX_SECONDS} seconds.`, {
              min: OFFER_MIN_SECONDS,
              max: OFFER_MAX_SECONDS,
              step: 1,
            })}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending} data-testid="offer-submit">
              <BadgePercent aria-hidden="true" />
              Start offer
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RunningOffer({
  shop,
  serverNowMs,
  onEnd,
  ending,
}: {
  shop: RoomShop;
  serverNowMs: number;
  /** Null for a moderator: offers are the seller's to start and end. */
  onEnd: (() => void) | null;
  ending: boolean;
}) {
  const offer = runningOffer(shop, serverNowMs);
  if (!offer) return null;
  const product = shop.lineup.find((item) => item.id === offer.productId);
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-lg border border-primary/40 bg-primary/10 p-3"
      data-testid="lineup-offer"
    >
      <BadgePercent className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-semibold">
          Offer: {formatCents(offer.priceCents)}
          {product ? (
            <>
              {' '}
              on <span className="font-normal">{product.title}</span>
            </>
          ) : null}
        </p>
        <p className="text-muted-foreground text-xs">
          <span data-testid="lineup-offer-remaining">
            {offer.remaining} of {offer.quantity} left
          </span>{' '}
          · ends in{' '}
          <span className="tabular-nums" data-testid="lineup-offer-countdown">
            {formatCountdown(offerSecondsLeft(offer, serverNowMs))}
          </span>
        </p>
      </div>
      {onEnd ? (
        <Button variant="outline" size="sm" onClick={onEnd} disabled={ending} data-testid="offer-end">
          <Square aria-hidden="true" />
          End offer
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The seller's (and their moderators') shop controls in the room: line up products from the
 * catalogue, pin up to MAX_PINNED for viewers; the seller alone starts and ends a live offer on a
 * pinned one (moderators see it running, without the controls).
 */
export function LineupPanel({
  roomName,
  shop,
  live,
  ownerHandle,
  isOwner,
  loadFailed,
}: {
  roomName: string;
  shop: ShopState;
  /** Offers run only while the stream is live. */
  live: boolean;
  ownerHandle: string;
  /** The seller themself, rather than one of their moderators. */
  isOwner: boolean;
  loadFailed: boolean;
}) {
  const change = useShopChangeMutation(roomName);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [offerProduct, setOfferProduct] = useState<RoomProduct | null>(null);
  const [offerErrors, setOfferErrors] = useState<OfferFieldErrors>({});
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
                  {formatCents(product.priceCents)} ·{' '}
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
    </Card>
  );
}
