import { MAX_PAYMENT_METHODS, type PaymentMethod } from '@streamshop/contract/payment-methods.ts';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, Plus, Trash2, TriangleAlert, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { SaveCardForm } from '../../components/save-card/save-card-form.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { paymentMethodsQueryOptions, useRemoveCardMutation } from '../../lib/api/payment-methods.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { SettingsSection } from './settings-parts.tsx';

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** "Visa ending in 4242" */
export function cardName(method: Pick<PaymentMethod, 'brand' | 'last4'>): string {
  const brand = BRAND_NAMES[method.brand] ?? (method.brand === 'unknown' ? 'Card' : method.brand);
  return `${brand} ending in ${method.last4}`;
}

const expiry = (method: PaymentMethod) =>
  `${String(method.expMonth).padStart(2, '0')}/${String(method.expYear).slice(-2)}`;

function CardRow({ method, onRemove }: { method: PaymentMethod; onRemove: () => void }) {
  return (
    <li className="flex items-center gap-3 py-3" data-testid="saved-card-row">
      <CreditCard className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span data-testid="saved-card-name">{cardName(method)}</span>
          {method.isDefault ? (
            <Badge variant="secondary" data-testid="saved-card-default">
              Default
            </Badge>
          ) : null}
        </p>
        <p className="text-muted-foreground text-xs" data-testid="saved-card-expiry">
          Expires {expiry(method)}
        </p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onRemove}
        aria-label={`Remove ${cardName(method)}`}
        data-testid="saved-card-remove"
      >
        <Trash2 aria-hidden="true" />
        Remove
      </Button>
    </li>
  );
}

/** The saved cards live auctions charge (the newest is the default), added and removed here. */
export function CardsSection() {
  const methods = useQuery(paymentMethodsQueryOptions);
  const remove = useRemoveCardMutation();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);

  function confirmRemove() {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({ title: 'Card removed', description: cardName(removing) });
        setRemoving(null);
      },
      onError: (error) => errorToast('Error', errorMessage(error, 'That card could not be removed.')),
    });
  }

  const saved = (method: PaymentMethod) => {
    setAdding(false);
    toast({ title: 'Card saved', description: cardName(method) });
  };

  let body: React.ReactNode;
  if (methods.isPending) {
    body = (
      <div className="grid gap-3" data-testid="cards-loading">
        <Skeleton className="h-14 w-full" />
      </div>
    );
  } else if (methods.isError) {
    body = (
      <p role="alert" className="flex items-center gap-2 text-red-300 text-sm" data-testid="cards-error">
        <TriangleAlert className="size-4" aria-hidden="true" />
        {errorMessage(methods.error, 'Your cards could not be loaded.')}
      </p>
    );
  } else if (methods.data.paymentMethods.length === 0) {
    body = (
      <p className="text-muted-foreground text-sm" data-testid="cards-empty">
        No saved cards. Save one to bid in live auctions: the card is charged only if you win.
      </p>
    );
  } else {
    body = (
      <ul className="divide-y divide-border" data-testid="cards-list">
        {methods.data.paymentMethods.map((method) => (
          <CardRow key={method.id} method={method} onRemove={() => setRemoving(method)} />
        ))}
      </ul>
    );
  }
  const full = (methods.data?.paymentMethods.length ?? 0) >= MAX_PAYMENT_METHODS;

  return (
    <SettingsSection
      title="Cards"
      description="The card a live auction you win is charged to: the newest is the default."
      testId="settings-cards"
    >
      {body}
      {adding ? (
        <div className="grid gap-3 rounded-md border border-border p-4" data-testid="card-add-panel">
          <div className="flex items-center justify-between gap-2">
            <h3 className="font-medium text-sm">Add a card</h3>
            <Button variant="ghost" size="sm" onClick={() => setAdding(false)} data-testid="card-add-cancel">
              <X aria-hidden="true" />
              Cancel
            </Button>
          </div>
          <SaveCardForm onSaved={saved} />
        </div>
      ) : methods.isSuccess ? (
        <div className="grid justify-items-start gap-2">
          <Button variant="outline" onClick={() => setAdding(true)} disabled={full} data-testid="card-add">
            <Plus aria-hidden="true" />
            Add a card
          </Button>
          {full ? (
            <p className="text-muted-foreground text-xs">
              You can keep {MAX_PAYMENT_METHODS} cards. Remove one to add another.
            </p>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}
        title="Remove this card?"
        description={`${removing ? cardName(removing) : ''} will no longer be charged for auctions you win. Orders already paid with it are not affected.`}
        cancelLabel="Keep it"
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={confirmRemove}
        testId="card-remove-dialog"
        confirmTestId="card-remove-confirm"
      />
    </SettingsSection>
  );
}
