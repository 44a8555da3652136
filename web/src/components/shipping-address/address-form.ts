import {
  COUNTRY_CODES,
  type SavedAddress,
  type ShippingAddress,
  shippingAddressSchema,
} from '@streamshop/contract/shipping.ts';

/** The address form's fields as typed (empty strings for the optional ones). */
export interface AddressFormValues {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}
export type AddressField = keyof AddressFormValues;
export type AddressErrors = Partial<Record<AddressField, string>>;

export const ADDRESS_FIELDS: readonly AddressField[] = [
  'name',
  'line1',
  'line2',
  'city',
  'region',
  'postalCode',
  'country',
];

/** The country of the browser's language ('en-GB' → GB), when it is one; else none chosen. */
export function defaultCountry(languages: readonly string[]): string {
  for (const language of languages) {
    const region = language.split('-')[1]?.toUpperCase();
    if (region && COUNTRY_CODES.includes(region)) return region;
  }
  return '';
}

export function emptyAddressForm(country = ''): AddressFormValues {
  return { name: '', line1: '', line2: '', city: '', region: '', postalCode: '', country };
}

/** The messages people read, from the contract's (which name the API's fields). */
const READABLE: Record<AddressField, string> = {
  name: 'Full name',
  line1: 'Address',
  line2: 'Apartment, suite, etc.',
  city: 'City',
  region: 'State / region',
  postalCode: 'Postal code',
  country: 'Country',
};

function readable(field: AddressField, message: string): string {
  if (field === 'country') return 'Choose a country';
  return message.startsWith(field) ? `${READABLE[field]}${message.slice(field.length)}` : message;
}

/** Checks the form with the same schema as the server; the address to send, or the errors. */
export function parseAddressForm(
  values: AddressFormValues,
): { address: ShippingAddress; errors?: undefined } | { address?: undefined; errors: AddressErrors } {
  const parsed = shippingAddressSchema.safeParse(values);
  if (parsed.success) return { address: parsed.data };
  const errors: AddressErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as AddressField;
    errors[field] ??= readable(field, issue.message);
  }
  return { errors };
}

/** The server's field errors (`shippingAddress.postalCode`) for the form's fields. */
export function serverAddressErrors(fields: Record<string, string>): AddressErrors {
  const errors: AddressErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key.replace(/^shippingAddress\./, '') as AddressField;
    if (key.startsWith('shippingAddress.') && ADDRESS_FIELDS.includes(field)) {
      errors[field] = readable(field, message);
    }
  }
  return errors;
}

/** A saved address as the address to send (without its id and time). */
export function savedToAddress({ id: _id, lastUsedAt: _used, ...address }: SavedAddress): ShippingAddress {
  return address;
}

/** Two addresses are the same choice when every field is. */
export function sameAddress(a: ShippingAddress | null, b: ShippingAddress | null): boolean {
  if (!a || !b) return a === b;
  return ADDRESS_FIELDS.every((field) => (a[field] ?? null) === (b[field] ?? null));
}
