import type { Product } from '@streamshop/contract/catalog.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import type { CheckoutSession } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/client.ts';
import { checkoutView, type QuerySnapshot, SOLD_OUT_MESSAGE } from './checkout-view.ts';

const ID = '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';

const product = { id: ID, title: 'Blue Note LP', stock: 2 } as Product;
const none = { ...product, stock: 0 } as Product;
const session: CheckoutSession = {
  clientSecret: 'pi_1_secret',
  amountCents: 2500,
  subtotalCents: 2500,
  shippingCents: 0,
  shippingAddress: null,
  reservedUntil: null,
};
const order = { id: 'o1', status: 'paid', amountCents: 2500 } as OrderDetail;

const pending = { status: 'pending', data: undefined, error: null } as const;
const ok = <T>(data: T): QuerySnapshot<T> => ({ status: 'success', data, error: null });
const failed = (status: number, body: string): QuerySnapshot<never> => ({
  status: 'error',
  data: undefined,
  error: new ApiError(status, '', body),
});

const view = (overrides: Partial<Parameters<typeof checkoutView>[0]>) =>
  checkoutView({ productId: ID, signedIn: true, product: ok(product), orderLookup: pending, ...overrides });

describe('checkoutView', () => {
  it('calls a missing or malformed id an invalid URL', () => {
    expect(view({ productId: undefined }).kind).toBe('invalid-url');
    expect(view({ productId: 'p1' }).kind).toBe('invalid-url');
  });

  it('sends signed-out visitors away', () => {
    expect(view({ signedIn: false }).kind).toBe('signed-out');
    expect(view({ product: failed(401, '{"message":"Unauthorized"}') }).kind).toBe('signed-out');
  });

  it('is loading while the product is on its way', () => {
    expect(view({ product: pending }).kind).toBe('loading');
  });

  it('shows Product Not Found for an unknown product', () => {
    expect(view({ product: failed(404, '{"message":"Product not found"}') }).kind).toBe('not-found');
  });

  it('is ready with units left without any session: looking holds nothing', () => {
    expect(view({})).toEqual({ kind: 'ready', product });
    expect(view({ paying: session })).toEqual({ kind: 'ready', product });
  });

  it('asks for the order when no unit is left, and is sold out when the server answers 409', () => {
    expect(view({ product: ok(none) }).kind).toBe('loading');
    expect(
      view({ product: ok(none), orderLookup: failed(409, '{"message":"This product is sold out."}') }),
    ).toEqual({
      kind: 'sold-out',
      message: SOLD_OUT_MESSAGE,
    });
  });

  it('shows the order of a buyer who paid for it moments ago', () => {
    expect(view({ product: ok(none), orderLookup: ok({ order }) })).toEqual({
      kind: 'ordered',
      product: none,
      order,
    });
    expect(view({ paying: { order } }).kind).toBe('ordered');
  });

  it('keeps the form for the buyer who pressed Pay even when the stock figure reads 0', () => {
    expect(view({ product: ok(none), paying: session }).kind).toBe('ready');
  });

  it('reports other failures of the order lookup with the server message', () => {
    expect(view({ product: ok(none), orderLookup: failed(502, '{"message":"Provider down"}') })).toEqual({
      kind: 'setup-failed',
      message: 'Provider down',
    });
  });
});
