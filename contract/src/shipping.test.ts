import { describe, expect, it } from 'vitest';
import { addressLines } from './shipping.ts';

describe('addressLines', () => {
  it('shows an address one way: name, street, "City, REGION POSTCODE", country', () => {
    expect(
      addressLines({
        name: 'Ada Buyer',
        line1: '1 Main St',
        line2: 'Apt 2',
        city: 'Springfield',
        region: 'IL',
        postalCode: '62701',
        country: 'US',
      }),
    ).toEqual(['Ada Buyer', '1 Main St', 'Apt 2', 'Springfield, IL 62701', 'US']);
    expect(
      addressLines({
        name: 'Ada Buyer',
        line1: '1 Record Lane',
        line2: null,
        city: 'Bristol',
        region: null,
        postalCode: 'BS1 4DJ',
        country: 'GB',
      }),
    ).toEqual(['Ada Buyer', '1 Record Lane', 'Bristol, BS1 4DJ', 'GB']);
  });
});
