import { describe, expect, it } from 'vitest';
import { CARRIER_NAMES, CARRIERS, carrierCode, carrierName, trackingUrl } from './carriers.ts';
import { shipOrderBodySchema } from './orders.ts';

describe('carriers', () => {
  it('names every code as people read it', () => {
    expect(CARRIERS.map(carrierName)).toEqual([
      'USPS',
      'UPS',
      'FedEx',
      'DHL',
      'Royal Mail',
      'Canada Post',
      'Australia Post',
      'Other',
    ]);
    expect(Object.keys(CARRIER_NAMES)).toEqual([...CARRIERS]);
  });

  it('reads the spellings of orders shipped before the list', () => {
    expect(carrierCode('usps')).toBe('usps');
    expect(carrierCode(' USPS ')).toBe('usps');
    expect(carrierCode('Royal Mail')).toBe('royal_mail');
    expect(carrierCode('royal-mail')).toBe('royal_mail');
    expect(carrierCode('FEDEX')).toBe('fedex');
    expect(carrierCode('Hermes')).toBeNull();
    expect(carrierName('usps')).toBe('USPS');
    expect(carrierName('canada post')).toBe('Canada Post');
    expect(carrierName(' Hermes ')).toBe('Hermes');
    expect(carrierName(null)).toBeNull();
    expect(carrierName('  ')).toBeNull();
  });

  it('links every carrier but Other to its tracking page, the number without spaces and escaped', () => {
    expect(trackingUrl('australia_post', 'AP 123 456')).toBe(
      'https://auspost.com.au/mypost/track/details/AP123456',
    );
    expect(trackingUrl('UPS', '1Z 999')).toBe('https://www.ups.com/track?tracknum=1Z999');
    expect(trackingUrl('ups', 'a/b?c')).toBe('https://www.ups.com/track?tracknum=a%2Fb%3Fc');
    expect(trackingUrl('other', '123456')).toBeNull();
    expect(trackingUrl('Hermes', '123456')).toBeNull();
    expect(trackingUrl('ups', null)).toBeNull();
    for (const code of CARRIERS.filter((c) => c !== 'other')) {
      expect(trackingUrl(code, 'X1234')).toMatch(/^https:\/\/[^/]+\/.*X1234/);
    }
  });

  it('takes only codes in the ship body, with worded reasons', () => {
    expect(
      shipOrderBodySchema.safeParse({ carrier: 'australia_post', trackingNumber: 'AP1234' }).success,
    ).toBe(true);
    const unknown = shipOrderBodySchema.safeParse({ carrier: 'Australia Post', trackingNumber: 'AP1234' });
    expect(unknown.error?.issues[0]?.message).toBe(
      'Carrier must be one of usps, ups, fedex, dhl, royal_mail, canada_post, australia_post, other',
    );
  });
});
