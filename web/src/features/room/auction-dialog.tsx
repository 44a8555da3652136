import {
  AUCTION_MAX_EXTEND_SECONDS,
  AUCTION_MAX_SECONDS,
  AUCTION_MIN_SECONDS,
  type Auction,
} from '@streamshop/contract/auctions.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useMutation } from '@tanstack/react-query';
import { Gavel } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
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
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { startAuction } from './auction-api.ts';
import {
  type AuctionField,
  type AuctionFieldErrors,
  auctionFieldErrors,
  auctionFormToBody,
  defaultAuctionValues,
} from './auction-form.ts';

/**
 * The seller starts an auction on a lineup product: the starting bid, how long it runs, sudden
 * death (no extension) or how far a late bid extends it. The server's refusals (not live, another
 * running, no unit free) are shown in its words.
 */
export function AuctionDialog({
  roomName,
  product,
  onStarted,
  onClose,
}: {
  roomName: string;
  product: RoomProduct;
  onStarted: (auction: Auction) => void;
  onClose: () => void;
}) {
  const [values, setValues] = useState(defaultAuctionValues);
  const [errors, setErrors] = useState<AuctionFieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const ids = { startingBid: useId(), duration: useId(), extend: useId(), suddenDeath: useId() };
  const start = useMutation({
    mutationFn: (body: Parameters<typeof startAuction>[1]) => startAuction(roomName, body),
    onSuccess: onStarted,
    onError: (error) => {
      const byField =
        parseApiError(error).status === 400 ? auctionFieldErrors(extractFieldErrors(error)) : {};
      if (Object.keys(byField).length > 0) setErrors(byField);
      else setRefusal(errorMessage(error, 'The auction could not be started. Try again.'));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const checked = auctionFormToBody(values, product.id);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    start.mutate(checked.body);
  };

  const field = (
    name: AuctionField,
    label: string,
    hint: string,
    props: Record<string, string | number | boolean>,
  ) => (
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
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${ids[name]}-hint`}
        data-testid={`auction-${name}`}
        {...props}
      />
      {errors[name] ? (
        <p id={`${ids[name]}-hint`} className="text-red-400 text-sm" data-testid={`auction-${name}-error`}>
          {errors[name]}
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
      <DialogContent data-testid="auction-dialog">
        <DialogHeader>
          <DialogTitle>Start an auction</DialogTitle>
          <DialogDescription>
            Auction one {product.title} (regular {formatCents(product.priceCents)}). The highest bid when the
            clock runs out wins, and the winner's saved card is charged at once.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {field('startingBid', 'Starting bid ($)', 'The first bid must be at least this.', {
            min: 0.01,
            step: 0.01,
          })}
          <div className="grid grid-cols-2 gap-4">
            {field(
              'duration',
              'Duration (seconds)',
              `${AUCTION_MIN_SECONDS}–${AUCTION_MAX_SECONDS} seconds.`,
              {
                min: AUCTION_MIN_SECONDS,
                max: AUCTION_MAX_SECONDS,
                step: 1,
              },
            )}
            {field('extend', 'Extension (seconds)', 'A bid in the last seconds adds this much time.', {
              min: 1,
              max: AUCTION_MAX_EXTEND_SECONDS,
              step: 1,
              disabled: values.suddenDeath,
            })}
          </div>
          <div className="flex items-start gap-2">
            <input
              id={ids.suddenDeath}
              type="checkbox"
              className="mt-0.5 size-4 accent-primary"
              checked={values.suddenDeath}
              onChange={(event) => {
                const checked = event.target.checked;
                setValues((current) => ({ ...current, suddenDeath: checked }));
              }}
              data-testid="auction-sudden-death-input"
            />
            <Label htmlFor={ids.suddenDeath} className="font-normal leading-snug">
              Sudden death: the clock never extends, the last bid in time wins.
            </Label>
          </div>
          {refusal ? (
            <p className="text-red-400 text-sm" role="alert" data-testid="auction-start-error">
              {refusal}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={start.isPending} data-testid="auction-start-submit">
              <Gavel aria-hidden="true" />
              Start auction
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
