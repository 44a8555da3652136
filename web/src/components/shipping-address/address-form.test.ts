import { describe, expect, it } from 'vitest';
import {
  defaultCountry,
  emptyAddressForm,
  parseAddressForm,
  sameAddress,
  serverAddressErrors,
} from './address-form.ts';

const filled = {
  ...emptyAddressForm('GB'),
  name: ' Ana  Buyer ',
  line1: '1 Record Lane',
  city: 'Bristol',
  postalCode: 'BS1 4DJ',
};

describe('address form', () => {
  it('sends the address as the server will store it: trimmed, one space, blanks as null', () => {
    expect(parseAddressForm(filled)).toEqual({
      address: {
        name: 'Ana Buyer',
        line1: '1 Record Lane',
        line2: null,
        city: 'Bristol',
        region: null,
        postalCode: 'BS1 4DJ',
        country: 'GB',
      },
    });
  });

  it("checks a US, Canadian or British postal code with the server's message", () => {
    const us = { ...filled, country: 'US', city: 'Springfield', region: 'IL' };
    expect(parseAddressForm({ ...us, postalCode: 'ABCDEFGHIJ' }).errors).toEqual({
      postalCode: 'Postal code must be a ZIP code like 12345 or 12345-6789',
    });
    expect(parseAddressForm({ ...us, postalCode: '62701-1234' }).errors).toBeUndefined();
    expect(parseAddressForm({ ...filled, country: 'CA', postalCode: 'BS1 4DJ' }).errors).toEqual({
      postalCode: 'Postal code must be a postal code like K1A 0B1',
    });
    expect(parseAddressForm({ ...filled, postalCode: '12345' }).errors).toEqual({
      postalCode: 'Postal code must be a postcode like SW1A 1AA',
    });
    expect(parseAddressForm({ ...filled, country: 'DE', postalCode: '10115' }).errors).toBeUndefined();
    expect(
      serverAddressErrors({
        'shippingAddress.postalCode': 'postalCode must be a ZIP code like 12345 or 12345-6789',
      }),
    ).toEqual({ postalCode: 'Postal code must be a ZIP code like 12345 or 12345-6789' });
  });

  it('names each missing or bad field in words people use', () => {
    expect(parseAddressForm({ ...emptyAddressForm(), line2: 'x'.repeat(201) }).errors).toEqual({
      name: 'Full name is required',
      line1: 'Address is required',
      line2: 'Apartment, suite, etc. must be at most 200 characters',
      city: 'City is required',
      postalCode: 'Postal code is required',
      country: 'Choose a country',
    });
  });

  it('maps the server’s shippingAddress.* fields onto the form', () => {
    expect(
      serverAddressErrors({
        'shippingAddress.postalCode': 'postalCode must be at most 20 characters',
        roomName: 'belongs to another seller',
      }),
    ).toEqual({ postalCode: 'Postal code must be at most 20 characters' });
  });

  it('guesses the country from the browser’s languages', () => {
    expect(defaultCountry(['en-GB', 'en'])).toBe('GB');
    expect(defaultCountry(['fr', 'de-de'])).toBe('DE');
    expect(defaultCountry(['en'])).toBe('');
  });

  it('compares addresses field by field', () => {
    const a = parseAddressForm(filled).address ?? null;
    expect(sameAddress(a, a && { ...a })).toBe(true);
    expect(sameAddress(a, a && { ...a, line2: 'Flat 2' })).toBe(false);
    expect(sameAddress(null, null)).toBe(true);
  });
});
