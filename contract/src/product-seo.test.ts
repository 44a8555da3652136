import { describe, expect, it } from 'vitest';
import type { ProductPage } from './catalog.ts';
import {
  decimalPrice,
  jsonForScript,
  PRODUCT_DESCRIPTION_MAX,
  productDescription,
  productImageUrl,
} from './product-seo.ts';

const product = {
  id: '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
  title: 'Blue Note LP',
  description: null,
  priceCents: 2500,
  condition: 'used',
  categoryId: 1,
  imageUrl: null,
  stock: 3,
  fulfillment: 'ship',
  shippingCents: 450,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 's1', handle: 'groovevault', businessName: null, profileImageUrl: null, onboarded: true },
  createdAt: '2026-11-20T10:00:00.000Z',
} satisfies ProductPage['product'];

describe('decimalPrice', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [2500, '25.00'],
    [123456789, '1234567.89'],
  ])('%i cents -> %s', (cents, expected) => {
    expect(decimalPrice(cents)).toBe(expected);
  });
});

describe('productDescription', () => {
  it('leads with price, condition and seller, then the description on one line', () => {
    expect(productDescription({ product: { ...product, description: 'Original\n\n1963   pressing.' } })).toBe(
      '$25.00 · Used · from @groovevault on StreamShop. Original 1963 pressing.',
    );
  });

  it('cuts a long description at a word, with an ellipsis, to a search result’s length', () => {
    const text = productDescription({ product: { ...product, description: 'word '.repeat(100) } });
    expect(text.length).toBeLessThanOrEqual(PRODUCT_DESCRIPTION_MAX);
    expect(text).toMatch(/ word…$/);
  });
});

describe('productImageUrl', () => {
  it('makes a site path absolute, keeps a URL elsewhere, and falls back to the site picture', () => {
    expect(productImageUrl('https://x.test/', '/media/uploads/a.webp')).toBe(
      'https://x.test/media/uploads/a.webp',
    );
    expect(productImageUrl('https://x.test', 'https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
    expect(productImageUrl('https://x.test', null)).toBe('https://x.test/og-image.png');
  });
});

describe('jsonForScript', () => {
  it('can never end the script element, and reads back as the same value', () => {
    const value = { name: '</script><script>alert(1)</script> <!-- & \u2028' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
