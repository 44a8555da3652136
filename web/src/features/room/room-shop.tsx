import { PackageOpen, ShoppingBag } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from '../../components/ui/sheet.tsx';
import { useSellerTakesOrders } from '../../lib/api/payments.ts';
import { runningOffer } from './offer-clock.ts';
import { RoomProductCard } from './pinned-products.tsx';
import { type CheckoutRequest, checkoutRequest, RoomCheckoutSheet } from './room-checkout-sheet.tsx';
import { type ShopState, shopLineup } from './shop-state.ts';
import { useServerNow } from './use-room-shop.ts';

/**
 * The show's shop for viewers: 'Shop (n)' under the video opens a sheet with every product of the
 * lineup (pinned ones first), each with its price now, stock and Buy Now. Buy Now opens the
 * in-room checkout over it; closing that comes back to the list. Prices and stock follow the
 * room's socket like the pinned cards do.
 */
export function RoomShop({
  roomName,
  shop,
  hostHandle,
  compact = false,
}: {
  roomName: string;
  shop: ShopState;
  hostHandle: string;
  /** The button alone (over the phone room's video), without the line beside it. */
  compact?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [request, setRequest] = useState<CheckoutRequest | null>(null);
  const serverNowMs = useServerNow(shop, open && Boolean(shop?.offer));
  const takesOrders = useSellerTakesOrders(shop?.sellerOnboarded);
  const products = shopLineup(shop);
  const offer = runningOffer(shop, serverNowMs);
  // Nothing to shop: no button (a sheet already open stays, saying the lineup emptied).
  if (!open && products.length === 0) return null;

  return (
    <Sheet
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setRequest(null);
      }}
    >
      <div
        className={compact ? 'contents' : 'flex flex-wrap items-center gap-x-3 gap-y-1'}
        data-testid="room-shop-bar"
      >
        <SheetTrigger asChild>
          <Button data-testid="room-shop-open" className={compact ? 'shrink-0' : undefined}>
            <ShoppingBag aria-hidden="true" />
            Shop ({products.length})
          </Button>
        </SheetTrigger>
        {compact ? null : (
          <p className="text-muted-foreground text-sm">
            {hostHandle ? `Everything @${hostHandle} is selling in this show` : 'Everything in this show'}
          </p>
        )}
      </div>
      <SheetContent
        // A half-height sheet on a phone (the stream plays on above it), a drawer from sm up.
        side="adaptive"
        className="gap-3 p-4 sm:p-6"
        closeLabel="Close the shop"
        overlayClassName="bg-black/30"
        data-testid="room-shop"
      >
        <div className="pr-8">
          <SheetTitle className="flex items-center gap-2">
            <ShoppingBag className="size-5 text-primary" aria-hidden="true" />
            Shop
          </SheetTitle>
          <SheetDescription>
            {products.length === 1 ? '1 product' : `${products.length} products`} in this show, pinned ones
            first. The stream keeps playing.
          </SheetDescription>
        </div>
        {products.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center" data-testid="room-shop-empty">
            <PackageOpen className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="text-muted-foreground text-sm">Nothing is lined up in this show right now.</p>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-2" aria-label="Products in this show">
            {products.map((product) => (
              <li key={product.id}>
                <RoomProductCard
                  product={product}
                  offer={offer}
                  serverNowMs={serverNowMs}
                  canBuy
                  takesOrders={takesOrders}
                  onBuy={() => setRequest(checkoutRequest(product))}
                  testId="shop-product"
                  pinnedBadge={shop?.pinned.includes(product.id) ?? false}
                  className="bg-background/60"
                />
              </li>
            ))}
          </ul>
        )}
        {/* Inside the shop's sheet, so it stacks over it: Escape or paying comes back to the list. */}
        <RoomCheckoutSheet roomName={roomName} request={request} onClose={() => setRequest(null)} />
      </SheetContent>
    </Sheet>
  );
}
