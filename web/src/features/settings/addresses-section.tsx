import { addressLines, type SavedAddress } from '@streamshop/contract/shipping.ts';
import { useQuery } from '@tanstack/react-query';
import { MapPin, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { savedAddressesQueryOptions, useRemoveAddressMutation } from './api.ts';
import { SettingsSection } from './settings-parts.tsx';

function AddressRow({ address, onRemove }: { address: SavedAddress; onRemove: () => void }) {
  const [name, ...rest] = addressLines(address);
  return (
    <li className="flex items-center gap-3 py-3" data-testid="address-row">
      <MapPin className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium" data-testid="address-name">
          {name}
        </p>
        <p className="text-muted-foreground" data-testid="address-lines">
          {rest.join(', ')}
        </p>
        <p className="text-muted-foreground text-xs">Last used {formatDate(address.lastUsedAt)}</p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onRemove}
        aria-label={`Remove ${[name, address.line1].join(', ')}`}
        data-testid="address-remove"
      >
        <Trash2 aria-hidden="true" />
        Remove
      </Button>
    </li>
  );
}

/** The addresses checkout saved and offers again, each removable (orders keep their own copy). */
export function AddressesSection() {
  const addresses = useQuery(savedAddressesQueryOptions);
  const remove = useRemoveAddressMutation();
  const [removing, setRemoving] = useState<SavedAddress | null>(null);

  function confirmRemove() {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({ title: 'Address removed', description: addressLines(removing).slice(0, 2).join(', ') });
        setRemoving(null);
      },
      onError: (error) => errorToast('Error', errorMessage(error, 'That address could not be removed.')),
    });
  }

  let body: React.ReactNode;
  if (addresses.isPending) {
    body = (
      <div className="grid gap-3" data-testid="addresses-loading">
        <Skeleton className="h-14 w-full" />
      </div>
    );
  } else if (addresses.isError) {
    body = (
      <p role="alert" className="flex items-center gap-2 text-red-300 text-sm" data-testid="addresses-error">
        <TriangleAlert className="size-4" aria-hidden="true" />
        {errorMessage(addresses.error, 'Your addresses could not be loaded.')}
      </p>
    );
  } else if (addresses.data.length === 0) {
    body = (
      <p className="text-muted-foreground text-sm" data-testid="addresses-empty">
        No saved addresses. The address you ship an order to is kept here for your next checkout.
      </p>
    );
  } else {
    body = (
      <ul className="divide-y divide-border" data-testid="addresses-list">
        {addresses.data.map((address) => (
          <AddressRow key={address.id} address={address} onRemove={() => setRemoving(address)} />
        ))}
      </ul>
    );
  }

  return (
    <SettingsSection
      title="Addresses"
      description="Where your orders were shipped. Checkout offers these again; remove one you no longer use."
      testId="settings-addresses"
    >
      {body}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}
        title="Remove this address?"
        description={`${removing ? addressLines(removing).join(', ') : ''}. Checkout will no longer offer it; orders already shipped there keep their address.`}
        cancelLabel="Keep it"
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={confirmRemove}
        testId="address-remove-dialog"
        confirmTestId="address-remove-confirm"
      />
    </SettingsSection>
  );
}
