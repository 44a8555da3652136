import type { Product } from '@streamshop/contract/catalog.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import type { CheckoutSession } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/client.ts';
import { checkoutView, type QuerySnapshot, SOLD_OUT_MESSAGE } from './checkout-view.ts';

const ID = '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';

const product = { id: ID, title: 'Blue Note LP', stock: 2 } as Product;
const session: CheckoutSession = {
  clientSecret: 'pi_1_secret',
  amountCents: 2500,
  subtotalCents: 2500,
  shippingCents: 0,
  shippingAddress: null,
  reservedUntil: null,
};

const pending = { status: 'pending', data: undefined, error: null } as const;
const ok = <T>(data: T): QuerySnapshot<T> => ({ status: 'success', data, error: null });
const failed = (status: number, body: string): QuerySnapshot<never> => ({
  status: 'error',
  data: undefined,
  error: new ApiError(status, '', body),
});

const view = (overrides: Partial<Parameters<typeof checkoutView>[0]>) =>
  checkoutView({ productId: ID, signedIn: true, product: ok(product), session: ok(session), ...overrides });

describe('checkoutView', () => {
  it('calls a missing or malformed id an invalid URL', () => {
    expect(view({ productId: undefined }).kind).toBe('invalid-url');
    expect(view({ productId: 'p1' }).kind).toBe('invalid-url');
  });

  it('sends signed-out visitors away', () => {
    expect(view({ signedIn: false }).kind).toBe('signed-out');
    expect(view({ product: failed(401, '{"message":"Unauthorized"}') }).kind).toBe('signed-out');
  });

  it('is loading while the product or the session is on its way', () => {
    expect(view({ product: pending, session: pending }).kind).toBe('loading');
    expect(view({ session: pending }).kind).toBe('loading');
  });

  it('shows Product Not Found for an unknown product', () => {
    expect(view({ product: failed(404, '{"message":"Product not found"}') }).kind).toBe('not-found');
  });

  it('asks the server even when no unit is left, and is sold out when it answers 409', () => {
    const none = ok({ ...product, stock: 0 });
    expect(view({ product: none, session: pending }).kind).toBe('loading');
    expect(view({ product: none, session: failed(409, '{"message":"This product is sold out."}') })).toEqual({
      kind: 'sold-out',
      message: SOLD_OUT_MESSAGE,
    });
    // A buyer with no address to send cannot have paid for it: sold out without asking.
    expect(view({ product: none, session: pending, awaitingAddress: true })).toEqual({
      kind: 'sold-out',
      message: SOLD_OUT_MESSAGE,
    });
  });

  it('shows the order of a buyer who paid for it moments ago', () => {
    const order = { id: 'o1', status: 'paid', amountCents: 2500 } as OrderDetail;
    expect(view({ session: ok({ order }) })).toEqual({ kind: 'ordered', product, order });
    expect(view({ product: ok({ ...product, stock: 0 }), session: ok({ order }) }).kind).toBe('ordered');
  });

  it("shows the server's reason when the last unit is taken meanwhile (409)", () => {
    expect(
      view({ session: failed(409, '{"message":"Someone is checking out the last one","code":"RESERVED"}') }),
    ).toEqual({ kind: 'sold-out', message: 'Someone is checking out the last one' });
  });

  it('reports other setup failures with the server message', () => {
    expect(view({ session: failed(400, '{"message":"You cannot buy your own product"}') })).toEqual({
      kind: 'setup-failed',
      message: 'You cannot buy your own product',
    });
    expect(view({ session: failed(502, '') }).kind).toBe('setup-failed');
  });

  it('is ready with the product and the session', () => {
    expect(view({})).toEqual({ kind: 'ready', product, session });
  });
});
