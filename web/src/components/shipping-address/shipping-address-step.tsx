import {
  addressLines,
  COUNTRY_CODES,
  type SavedAddress,
  type ShippingAddress,
} from '@streamshop/contract/shipping.ts';
import { useQuery } from '@tanstack/react-query';
import { MapPin, Plus } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { savedAddressesQueryOptions } from '../../lib/api/checkout.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { Label } from '../ui/label.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import {
  type AddressErrors,
  type AddressField,
  type AddressFormValues,
  defaultCountry,
  emptyAddressForm,
  parseAddressForm,
  sameAddress,
  savedToAddress,
} from './address-form.ts';

/**
 * Where a shipped product goes, for the checkout page and a room's checkout sheet: the most
 * recently used saved address is chosen at once (so paying is one tap), the others are one tap
 * away, and "Use another address" opens the form.
 */
export function useShippingAddress(needed: boolean) {
  const saved = useQuery({ ...savedAddressesQueryOptions(), enabled: needed });
  const [picked, setPicked] = useState<ShippingAddress | null>(null);
  const [editing, setEditing] = useState(false);
  const addresses = saved.data?.addresses ?? [];
  const first = addresses[0];
  const chosen = picked ?? (first ? savedToAddress(first) : null);
  const loading = needed && saved.isPending;
  const formOpen = needed && !loading && (editing || chosen === null);
  return {
    needed,
    loading,
    addresses,
    /** The address the checkout is opened with (null: none yet). */
    chosen: needed ? chosen : null,
    /** The form is open: the buyer is typing an address (or has none saved). */
    editing: formOpen,
    /** Pay only for an address the buyer sees chosen. */
    ready: !needed || (!loading && !formOpen && chosen !== null),
    choose(address: ShippingAddress) {
      setPicked(address);
      setEditing(false);
    },
    edit: () => setEditing(true),
    cancelEdit: () => setEditing(false),
  };
}
export type ShippingAddressChoice = ReturnType<typeof useShippingAddress>;

const FIELD_LABELS: Record<AddressField, string> = {
  name: 'Full name',
  line1: 'Address',
  line2: 'Apartment, suite, etc. (optional)',
  city: 'City',
  region: 'State / region (optional)',
  postalCode: 'Postal code',
  country: 'Country',
};
const AUTOCOMPLETE: Record<AddressField, string> = {
  name: 'shipping name',
  line1: 'shipping address-line1',
  line2: 'shipping address-line2',
  city: 'shipping address-level2',
  region: 'shipping address-level1',
  postalCode: 'shipping postal-code',
  country: 'shipping country',
};

function countryNames(): Array<{ code: string; name: string }> {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    // Old browsers: the codes alone.
  }
  return COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

/** The address form: labelled fields, each error tied to its field and announced. */
export function AddressForm({
  initial,
  serverErrors,
  onSubmit,
  onCancel,
  submitLabel = 'Ship here',
}: {
  initial?: ShippingAddress | null;
  serverErrors?: AddressErrors;
  onSubmit: (address: ShippingAddress) => void;
  onCancel?: () => void;
  submitLabel?: string;
}) {
  const id = useId();
  const countries = useMemo(countryNames, []);
  const [values, setValues] = useState<AddressFormValues>(() =>
    initial
      ? { ...initial, line2: initial.line2 ?? '', region: initial.region ?? '' }
      : emptyAddressForm(defaultCountry(typeof navigator === 'undefined' ? [] : navigator.languages)),
  );
  const [errors, setErrors] = useState<AddressErrors>(serverErrors ?? {});
  const fieldId = (field: AddressField) => `${id}-${field}`;
  const errorId = (field: AddressField) => `${id}-${field}-error`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAddressForm(values);
    if (parsed.errors) {
      setErrors(parsed.errors);
      const firstBad = Object.keys(parsed.errors)[0] as AddressField | undefined;
      if (firstBad) document.getElementById(fieldId(firstBad))?.focus();
      return;
    }
    setErrors({});
    onSubmit(parsed.address);
  };

  const field = (name: AddressField, className?: string) => (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={fieldId(name)}>{FIELD_LABELS[name]}</Label>
      {name === 'country' ? (
        <select
          id={fieldId(name)}
          autoComplete={AUTOCOMPLETE[name]}
          value={values.country}
          aria-invalid={!!errors.country}
          aria-describedby={errors.country ? errorId(name) : undefined}
          onChange={(event) => setValues({ ...values, country: event.target.value })}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background md:text-sm"
          data-testid="address-country"
        >
          <option value="">Choose a country</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      ) : (
        <Input
          id={fieldId(name)}
          autoComplete={AUTOCOMPLETE[name]}
          value={values[name]}
          required={name !== 'line2' && name !== 'region'}
          aria-invalid={!!errors[name]}
          aria-describedby={errors[name] ? errorId(name) : undefined}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          data-testid={`address-${name}`}
        />
      )}
      {errors[name] ? (
        <p id={errorId(name)} className="text-red-400 text-xs" role="alert">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid gap-3"
      aria-label="Shipping address"
      data-testid="address-form"
    >
      {field('name')}
      {field('line1')}
      {field('line2')}
      <div className="grid gap-3 sm:grid-cols-2">
        {field('city')}
        {field('region')}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {field('postalCode')}
        {field('country')}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" data-testid="address-submit">
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Use a saved address
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function AddressOption({
  address,
  checked,
  name,
  onChoose,
  disabled,
}: {
  address: ShippingAddress;
  checked: boolean;
  name: string;
  onChoose: () => void;
  disabled: boolean;
}) {
  const lines = addressLines(address);
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm',
        checked ? 'border-primary bg-primary/5' : 'border-border',
      )}
      data-testid="saved-address"
    >
      <input
        type="radio"
        name={name}
        className="mt-0.5 size-4 accent-primary"
        checked={checked}
        disabled={disabled}
        onChange={onChoose}
      />
      <span className="grid">
        <span className="font-medium">{lines[0]}</span>
        <span className="text-muted-foreground">{lines.slice(1).join(', ')}</span>
      </span>
    </label>
  );
}

/** The "Ship to" step: saved addresses to pick from, or the form. */
export function ShippingAddressStep({
  choice,
  serverErrors,
  disabled = false,
}: {
  choice: ShippingAddressChoice;
  /** The server refused the address (per field): the form opens on it with the reasons. */
  serverErrors?: AddressErrors;
  disabled?: boolean;
}) {
  const groupName = useId();
  if (!choice.needed) return null;
  const heading = (
    <h2 className="flex items-center gap-2 font-semibold text-base">
      <MapPin className="size-4 text-primary" aria-hidden="true" />
      Ship to
    </h2>
  );
  if (choice.loading) {
    return (
      <section className="grid gap-3" aria-label="Ship to" data-testid="shipping-step">
        {heading}
        <Skeleton className="h-16 w-full" />
      </section>
    );
  }
  const refused = serverErrors && Object.keys(serverErrors).length > 0;
  if (choice.editing || refused) {
    return (
      <section className="grid gap-3" aria-label="Ship to" data-testid="shipping-step">
        {heading}
        <AddressForm
          key={refused ? 'refused' : 'new'}
          initial={refused ? choice.chosen : null}
          serverErrors={serverErrors}
          onSubmit={choice.choose}
          onCancel={choice.addresses.length > 0 && !refused ? choice.cancelEdit : undefined}
        />
      </section>
    );
  }
  const options: ShippingAddress[] = choice.addresses.map((saved: SavedAddress) => savedToAddress(saved));
  if (choice.chosen && !options.some((option) => sameAddress(option, choice.chosen))) {
    options.unshift(choice.chosen);
  }
  return (
    <section className="grid gap-3" aria-label="Ship to" data-testid="shipping-step">
      {heading}
      <fieldset className="grid gap-2">
        <legend className="sr-only">Choose where to ship</legend>
        {options.map((address) => (
          <AddressOption
            key={addressLines(address).join('|')}
            address={address}
            name={groupName}
            checked={sameAddress(address, choice.chosen)}
            disabled={disabled}
            onChoose={() => choice.choose(address)}
          />
        ))}
      </fieldset>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-self-start"
        onClick={choice.edit}
        disabled={disabled}
        data-testid="use-another-address"
      >
        <Plus aria-hidden="true" />
        Use another address
      </Button>
    </section>
  );
}
