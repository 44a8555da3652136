import type { Product } from '@streamshop/contract/catalog.ts';

/** A listed product as the API renders it, for component tests: 3 left, shipped for $4.50. */
export const aProduct = {
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
  seller: { id: 's1', handle: 'groovevault', businessName: null, profileImageUrl: null, onboarded: false },
  createdAt: '2026-11-20T10:00:00.000Z',
} satisfies Product;
