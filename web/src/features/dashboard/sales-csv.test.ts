import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { describe, expect, it } from 'vitest';
import { salesCsv } from './sales-panel.tsx';

const sale: OrderDetail = {
  id: '0a1b2c3d-0000-4000-8000-000000000000',
  role: 'seller',
  status: 'shipped',
  amountCents: 5000,
  shippingCents: 500,
  item: { productId: null, title: '=HYPERLINK("http://evil")', imageUrl: null, fulfillment: 'ship' },
  buyerHandle: 'ada',
  sellerHandle: 'juno',
  shippingAddress: {
    name: '@Ada',
    line1: '1 Record Lane, Flat 2',
    city: 'Bristol',
    postalCode: 'BS1',
    country: 'GB',
  },
  carrier: 'UPS',
  trackingNumber: '1Z',
  trackingUrl: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  shippedAt: '2026-11-27T10:00:00.000Z',
  deliveredAt: null,
  cancelledAt: null,
  refundedAt: null,
};

describe('salesCsv', () => {
  it('writes one row per sale with its address, and neutralises formula-like cells', () => {
    const [header, row] = salesCsv([sale]).split('\r\n');
    expect(header?.split(',').slice(0, 8)).toEqual([
      'order',
      'date',
      'status',
      'item',
      'buyer',
      'amount',
      'shipping',
      'name',
    ]);
    expect(row).toBe(
      `#0A1B2C3D,2026-11-26T10:00:00.000Z,shipped,"'=HYPERLINK(""http://evil"")",ada,50.00,5.00,'@Ada,"1 Record Lane, Flat 2",,Bristol,,BS1,GB,UPS,1Z,2026-11-27T10:00:00.000Z,,,`,
    );
  });
});
